// A seeded random ratings matrix for kernel tests: each cell present with probability `density`,
// valued 1 .. maxValue.
import { csrFromTriples, type Csr } from '../../native-free-kernels/csr.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

export function randomMatrix(seed: number, rows: number, cols: number, density: number, maxValue = 10): Csr {
  const rand = mulberry32(seed);
  const r: number[] = [],
    c: number[] = [],
    v: number[] = [];
  for (let u = 0; u < rows; u++) {
    for (let i = 0; i < cols; i++) {
      if (rand() >= density) continue;
      r.push(u);
      c.push(i);
      v.push(1 + Math.floor(rand() * maxValue));
    }
  }
  return csrFromTriples(rows, cols, Uint32Array.from(r), Uint32Array.from(c), Float32Array.from(v));
}
