// The heap of a bounded top-k, shared by the vector scan (scores.ts boundedTop) and the users' lists
// (user-lists.ts): items (u32) and scores (f32) side by side, the weakest at the root, ties by item
// (the higher item is the weaker), as ../../top-k.ts heapOffer, their twins' heap.

@inline function below(sa: f32, ia: u32, sb: f32, ib: u32): bool {
  return sa < sb || (sa == sb && ia > ib);
}

function siftDown(items: usize, scores: usize, size: i32, at: i32): void {
  const s = load<f32>(scores + (<usize>at << 2)), i = load<u32>(items + (<usize>at << 2));
  let hole = at;
  for (;;) {
    let child = 2 * hole + 1;
    if (child >= size) break;
    const right = child + 1;
    if (right < size && below(load<f32>(scores + (<usize>right << 2)), load<u32>(items + (<usize>right << 2)), load<f32>(scores + (<usize>child << 2)), load<u32>(items + (<usize>child << 2)))) child = right;
    const cs = load<f32>(scores + (<usize>child << 2)), ci = load<u32>(items + (<usize>child << 2));
    if (!below(cs, ci, s, i)) break;
    store<f32>(scores + (<usize>hole << 2), cs);
    store<u32>(items + (<usize>hole << 2), ci);
    hole = child;
  }
  store<f32>(scores + (<usize>hole << 2), s);
  store<u32>(items + (<usize>hole << 2), i);
}

function siftUp(items: usize, scores: usize, at: i32): void {
  const s = load<f32>(scores + (<usize>at << 2)), i = load<u32>(items + (<usize>at << 2));
  let hole = at;
  while (hole > 0) {
    const parent = (hole - 1) >> 1;
    const ps = load<f32>(scores + (<usize>parent << 2)), pi = load<u32>(items + (<usize>parent << 2));
    if (!below(s, i, ps, pi)) break;
    store<f32>(scores + (<usize>hole << 2), ps);
    store<u32>(items + (<usize>hole << 2), pi);
    hole = parent;
  }
  store<f32>(scores + (<usize>hole << 2), s);
  store<u32>(items + (<usize>hole << 2), i);
}

// Offers item i scoring s to the heap of `size` (< k: it grows); returns the new size.
@inline export function offer(items: usize, scores: usize, size: i32, k: i32, s: f32, i: u32): i32 {
  if (size < k) {
    if (!(s >= -Infinity)) return size; // NaN, as the twin's kernel drops it
    store<f32>(scores + (<usize>size << 2), s);
    store<u32>(items + (<usize>size << 2), i);
    siftUp(items, scores, size);
    return size + 1;
  }
  if (s >= load<f32>(scores) && below(load<f32>(scores), load<u32>(items), s, i)) {
    store<f32>(scores, s);
    store<u32>(items, i);
    siftDown(items, scores, size, 0);
  }
  return size;
}

// The heap of `size` into best first, in place (the weakest moved to the back, one at a time).
export function sortHeap(items: usize, scores: usize, size: i32): void {
  for (let end = size - 1; end > 0; end--) {
    const s = load<f32>(scores), i = load<u32>(items);
    store<f32>(scores, load<f32>(scores + (<usize>end << 2)));
    store<u32>(items, load<u32>(items + (<usize>end << 2)));
    store<f32>(scores + (<usize>end << 2), s);
    store<u32>(items + (<usize>end << 2), i);
    siftDown(items, scores, end, 0);
  }
}
