// The share of the exact lists' items that `got`'s lists hold (n a row, rows of norm 0 left out):
// what the item-list kernels' tests (refine-lists, the bench's probe-lists) measure an approximation by.
export function listRecall(got: Uint32Array, exact: Uint32Array, norms: Float32Array, items: number, n: number): number {
  let hit = 0,
    all = 0;
  for (let r = 0; r < items; r++) {
    if (norms[r] === 0) continue;
    const want = new Set(exact.subarray(r * n, r * n + n));
    for (const i of got.subarray(r * n, r * n + n)) if (want.has(i)) hit++;
    all += n;
  }
  return hit / all;
}
