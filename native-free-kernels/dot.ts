// The dot product of two factor rows, the inner loop of every ranking and of the item index.

// a[i .. i+f) · b[j .. j+f), four partial sums at a time (V8 keeps them in registers: about
// 1.5–2× a plain loop on this machine's rankings).
export function dotAt(a: Float32Array, i: number, b: Float32Array, j: number, f: number): number {
  let d0 = 0,
    d1 = 0,
    d2 = 0,
    d3 = 0;
  let k = 0;
  for (; k + 4 <= f; k += 4) {
    d0 += a[i + k]! * b[j + k]!;
    d1 += a[i + k + 1]! * b[j + k + 1]!;
    d2 += a[i + k + 2]! * b[j + k + 2]!;
    d3 += a[i + k + 3]! * b[j + k + 3]!;
  }
  for (; k < f; k++) d0 += a[i + k]! * b[j + k]!;
  return d0 + d1 + d2 + d3;
}
