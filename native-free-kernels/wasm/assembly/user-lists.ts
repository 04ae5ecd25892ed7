// WebAssembly SIMD twin of ../../lists.ts userListsTo for one block of up to 32 users (exported by
// scores.ts, so it runs over the rows in norm order that the vector scan serves from; the caller is
// ../../wasm-user-lists.ts). Each dot is summed as the serving scan sums it (scores.ts dotsTo: one
// f32x4 accumulator per row and query, its lanes added in order, then the f % 4 tail), so a user's
// list ranks items as their later pages do; the TypeScript twin sums in f64, and the two differ
// only between near-ties. The same early stop: items longest first, a user done once no later item
// can reach the weakest of their k best.
import { tail } from './simd';
import { offer, sortHeap } from './heap';

// Items scored per pass before the stopping bound is checked again (as the twin's SCAN_TILE).
export const TILE = 256;
// A later item of norm ν scores at most |x|·ν; relaxed against the rounding of the norms and of f32
// sums of up to thousands of terms (as bounded-top.ts and boundedTop).
const SLACK: f64 = 1 + 1e-4;

// The four dots of users u0..u3 with one row, lanes summed in order as hsum does (((l0 + l1) + l2) + l3
// in each lane of the result) through a 4 × 4 transpose.
@inline function sums4(a0: v128, a1: v128, a2: v128, a3: v128): v128 {
  const lo01 = i32x4.shuffle(a0, a1, 0, 4, 1, 5), hi01 = i32x4.shuffle(a0, a1, 2, 6, 3, 7);
  const lo23 = i32x4.shuffle(a2, a3, 0, 4, 1, 5), hi23 = i32x4.shuffle(a2, a3, 2, 6, 3, 7);
  const l0 = i32x4.shuffle(lo01, lo23, 0, 1, 4, 5), l1 = i32x4.shuffle(lo01, lo23, 2, 3, 6, 7);
  const l2 = i32x4.shuffle(hi01, hi23, 0, 1, 4, 5), l3 = i32x4.shuffle(hi01, hi23, 2, 3, 6, 7);
  return f32x4.add(f32x4.add(f32x4.add(l0, l1), l2), l3);
}

// The f % 4 tails of four users' dots with row r, as a vector (added after the lanes, as dotsTo).
@inline function tails4(q: usize, stride: usize, r: usize, f4: i32, f: i32): v128 {
  let t = f32x4.splat(0);
  t = f32x4.replace_lane(t, 0, tail(q, r, f4, f));
  t = f32x4.replace_lane(t, 1, tail(q + stride, r, f4, f));
  t = f32x4.replace_lane(t, 2, tail(q + 2 * stride, r, f4, f));
  t = f32x4.replace_lane(t, 3, tail(q + 3 * stride, r, f4, f));
  return t;
}

// dots[(j − j0)·lanes + u] for users u of the group at q (four rows of f) and rows j in [j0, j1):
// two rows a pass, sharing each load of the four users' entries.
function groupDots(dots: usize, lanes: i32, q: usize, rows: usize, f: i32, j0: i32, j1: i32): void {
  const stride = <usize>f << 2, f4 = f & ~3, rest = f4 < f;
  const q1 = q + stride, q2 = q1 + stride, q3 = q2 + stride;
  const step = <usize>lanes << 2;
  let j = j0;
  let d = dots;
  for (; j + 2 <= j1; j += 2) {
    const r = rows + <usize>j * stride, s = r + stride;
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
    for (let k = 0; k < f4; k += 4) {
      const o = <usize>k << 2;
      const x = v128.load(r + o), y = v128.load(s + o);
      const u0 = v128.load(q + o), u1 = v128.load(q1 + o), u2 = v128.load(q2 + o), u3 = v128.load(q3 + o);
      a0 = f32x4.add(a0, f32x4.mul(u0, x));
      a1 = f32x4.add(a1, f32x4.mul(u1, x));
      a2 = f32x4.add(a2, f32x4.mul(u2, x));
      a3 = f32x4.add(a3, f32x4.mul(u3, x));
      b0 = f32x4.add(b0, f32x4.mul(u0, y));
      b1 = f32x4.add(b1, f32x4.mul(u1, y));
      b2 = f32x4.add(b2, f32x4.mul(u2, y));
      b3 = f32x4.add(b3, f32x4.mul(u3, y));
    }
    let sa = sums4(a0, a1, a2, a3), sb = sums4(b0, b1, b2, b3);
    if (rest) {
      sa = f32x4.add(sa, tails4(q, stride, r, f4, f));
      sb = f32x4.add(sb, tails4(q, stride, s, f4, f));
    }
    v128.store(d, sa);
    v128.store(d + step, sb);
    d += step << 1;
  }
  if (j < j1) {
    const r = rows + <usize>j * stride;
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    for (let k = 0; k < f4; k += 4) {
      const o = <usize>k << 2;
      const x = v128.load(r + o);
      a0 = f32x4.add(a0, f32x4.mul(v128.load(q + o), x));
      a1 = f32x4.add(a1, f32x4.mul(v128.load(q1 + o), x));
      a2 = f32x4.add(a2, f32x4.mul(v128.load(q2 + o), x));
      a3 = f32x4.add(a3, f32x4.mul(v128.load(q3 + o), x));
    }
    let sa = sums4(a0, a1, a2, a3);
    if (rest) sa = f32x4.add(sa, tails4(q, stride, r, f4, f));
    v128.store(d, sa);
  }
}

/**
 * The k best unrated items of `used` users (≤ 32): users holds their rows (f f32 each), padded with
 * zero rows to `lanes` = used rounded up to 4; rows, norms, order: the `count` items of norm > 0 in
 * descending norm order (wasm-rows.ts sortedRows, sortedNorms, order); rated: a u32 per item, bit u
 * set when user u rated it. User u's list goes to items/scores at u·k (u32/f32), best first, items
 * past the last 0xffffffff. dots: TILE·lanes f32 of scratch; state: lanes i32 (heap sizes), lanes
 * i32 (done) and lanes f64 (|user|), 8-byte aligned.
 */
export function userLists(items: usize, scores: usize, k: i32, users: usize, used: i32, rows: usize, norms: usize, order: usize, count: i32, f: i32, rated: usize, dots: usize, state: usize): void {
  const lanes = (used + 3) & ~3, stride = <usize>f << 2, heap = <usize>k << 2;
  const sizes = state, done = sizes + (<usize>lanes << 2), lengths = done + (<usize>lanes << 2);
  for (let u = 0; u < lanes; u++) {
    const o = <usize>u << 2;
    let ss: f64 = 0;
    for (let a = 0; a < f; a++) {
      const x = <f64>load<f32>(users + <usize>u * stride + (<usize>a << 2));
      ss += x * x;
    }
    store<f64>(lengths + (<usize>u << 3), sqrt<f64>(ss));
    store<i32>(sizes + o, 0);
    store<i32>(done + o, u < used ? 0 : 1); // the padding lanes
  }
  let live = used;
  for (let j0 = 0; j0 < count; j0 += TILE) {
    const bound = <f64>load<f32>(norms + (<usize>j0 << 2)) * SLACK;
    for (let u = 0; u < used; u++) {
      const o = <usize>u << 2;
      if (load<i32>(done + o) == 0 && load<i32>(sizes + o) == k && load<f64>(lengths + (<usize>u << 3)) * bound < <f64>load<f32>(scores + <usize>u * heap)) {
        store<i32>(done + o, 1);
        live--;
      }
    }
    if (live == 0) break;
    const j1 = count - j0 < TILE ? count : j0 + TILE;
    for (let g = 0; g < lanes; g += 4) {
      if (load<i32>(done + (<usize>g << 2)) & load<i32>(done + (<usize>g << 2), 4) & load<i32>(done + (<usize>g << 2), 8) & load<i32>(done + (<usize>g << 2), 12)) continue;
      groupDots(dots + (<usize>g << 2), lanes, users + <usize>g * stride, rows, f, j0, j1);
    }
    for (let u = 0; u < used; u++) {
      const o = <usize>u << 2;
      if (load<i32>(done + o)) continue;
      const bit: u32 = 1 << u, hi = items + <usize>u * heap, hs = scores + <usize>u * heap;
      let size = load<i32>(sizes + o);
      for (let j = j0; j < j1; j++) {
        const s = load<f32>(dots + ((<usize>(j - j0) * <usize>lanes + <usize>u) << 2));
        if (size == k && s < load<f32>(hs)) continue; // most items, once the heap is full
        const item = load<u32>(order + (<usize>j << 2));
        if (load<u32>(rated + (<usize>item << 2)) & bit) continue;
        size = offer(hi, hs, size, k, s, item);
      }
      store<i32>(sizes + o, size);
    }
  }
  for (let u = 0; u < used; u++) {
    const size = load<i32>(sizes + (<usize>u << 2)), hi = items + <usize>u * heap;
    sortHeap(hi, scores + <usize>u * heap, size);
    for (let p = size; p < k; p++) store<u32>(hi + (<usize>p << 2), 0xffffffff);
  }
}
