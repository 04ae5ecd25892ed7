// How many of a session's longest rows each upper bound on query · row leaves to score exactly, on
// ml-latest-small trained by the production trainer (the choice behind native-free-kernels/
// quantized-rows.ts): the scan of candidates.ts (the session's list candidates fill a heap of 32, then
// the 2,048 longest rows in norm order, stopping by Cauchy–Schwarz), where a row is scored only when
// its bound reaches the heap's k-th best. Bounds: the rows rotated to the principal axes of the
// longest rows (eigenvectors of YᵀY over them), the first d coordinates' dot plus |u_rest|·|v_rest|;
// int8 rows with an int16 query plus their rounding errors (quantized-rows.ts); and the exact dot
// itself, the floor any bound can reach (the rows that do beat the k-th best as the scan goes). A
// simulation in f64, not the kernels: it counts rows, it does not time them.
//   npm run build && RECD_DATASETS=/path/to/datasets node dist/bench/kernels/session-bounds.js
import { foldIn } from '../../src/engine/scoring/fold-in.js';
import { gatherCandidates, SESSION_CANDIDATES } from '../../src/engine/scoring/candidates.js';
import { heapOffer } from '../../native-free-kernels/top-k.js';
import { quantBound, quantizeQueryTo, quantizeRowsTo, quantStride } from '../../native-free-kernels/quantized-rows.js';
import { sessionFixture } from './session-fixture.js';

const F = 64,
  K = 32,
  SESSIONS = 1000;
const L = SESSION_CANDIDATES.longest;
const { views, m, sessions } = await sessionFixture(F);
const order = m.rows.normOrder,
  Y = views.itemFactors,
  norms = m.rows.norms;
const rows = new Float32Array(L * F);
for (let p = 0; p < L; p++) rows.set(Y.subarray(order[p]! * F, (order[p]! + 1) * F), p * F);

// Eigenvectors of a symmetric f × f matrix (cyclic Jacobi), by eigenvalue descending.
function eigen(a: Float64Array, f: number): { values: number[]; vectors: Float64Array[] } {
  const v = new Float64Array(f * f);
  for (let i = 0; i < f; i++) v[i * f + i] = 1;
  const rotate = (x: Float64Array, i: number, j: number, c: number, s: number, rowWise: boolean) => {
    for (let k = 0; k < f; k++) {
      const [pi, pj] = rowWise ? [i * f + k, j * f + k] : [k * f + i, k * f + j];
      const xi = x[pi]!,
        xj = x[pj]!;
      x[pi] = c * xi - s * xj;
      x[pj] = s * xi + c * xj;
    }
  };
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let i = 0; i < f; i++) for (let j = i + 1; j < f; j++) off += a[i * f + j]! ** 2;
    if (off < 1e-20) break;
    for (let i = 0; i < f; i++)
      for (let j = i + 1; j < f; j++) {
        const aij = a[i * f + j]!;
        if (aij === 0) continue;
        const theta = (a[j * f + j]! - a[i * f + i]!) / (2 * aij);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        rotate(a, i, j, c, s, false);
        rotate(a, i, j, c, s, true);
        rotate(v, i, j, c, s, false);
      }
  }
  const by = Array.from({ length: f }, (_, i) => i).sort((x, y) => a[y * f + y]! - a[x * f + x]!);
  return { values: by.map((i) => a[i * f + i]!), vectors: by.map((i) => Float64Array.from({ length: f }, (_, k) => v[k * f + i]!)) };
}

const gram = new Float64Array(F * F);
for (let p = 0; p < L; p++)
  for (let a = 0; a < F; a++) for (let b = 0; b < F; b++) gram[a * F + b] = gram[a * F + b]! + rows[p * F + a]! * rows[p * F + b]!;
const { values, vectors } = eigen(gram, F);
const total = values.reduce((x, y) => x + y, 0);
const share = (d: number) => values.slice(0, d).reduce((x, y) => x + y, 0) / total;
const rotated = (x: ArrayLike<number>, at: number) => vectors.map((e) => e.reduce((s, ea, a) => s + ea * x[at + a]!, 0));
const rotatedRows = Array.from({ length: L }, (_, p) => rotated(rows, p * F));
const q8 = {
  rows: new Int8Array(L * quantStride(F)),
  scales: new Float32Array(L),
  errorTerms: new Float32Array(L),
  lengthTerms: new Float32Array(L),
};
quantizeRowsTo(q8, rows, L, F);
const DIMS = [8, 16, 32];

console.log(
  `ml-latest-small, ${views.dims.items} items × ${F} factors, the ${L} longest rows, heap of ${K}, ${SESSIONS} sessions of 5 items each kind; ${new Date().toISOString()}`,
);
console.log(`share of Σ|v|² on the first 8 / 16 / 32 principal axes: ${DIMS.map((d) => share(d).toFixed(2)).join(' / ')}`);
console.log(`| sessions | rows scanned | ${DIMS.map((d) => `principal ${d} + rest`).join(' | ')} | int8 | exact dot (floor) |`);
console.log(`|---|---:|${DIMS.map(() => '---:|').join('')}---:|---:|`);
for (const kind of ['uniform', 'user'] as const) {
  const counts: number[][] = [[], ...DIMS.map(() => []), [], []];
  for (const s of sessions(kind, SESSIONS)) {
    const u = foldIn(m, s.items, s.values),
      un = Math.hypot(...u);
    const dot = (p: number) => u.reduce((x, ua, a) => x + ua * rows[p * F + a]!, 0);
    const c = gatherCandidates(views, m.rows, s.items, SESSION_CANDIDATES);
    const items = new Uint32Array(K),
      scores = new Float32Array(K);
    let filled = 0;
    for (let j = 0; j < c.count; j++)
      filled = heapOffer(
        items,
        scores,
        filled,
        K,
        u.reduce((x, ua, a) => x + ua * Y[c.items[j]! * F + a]!, 0),
        c.items[j]!,
      );
    const ur = rotated(u, 0);
    const uq = quantizeQueryTo(new Int16Array(quantStride(F)), u, F)!;
    const principal = (d: number) => {
      const rest = Math.sqrt(Math.max(0, un * un - ur.slice(0, d).reduce((x, y) => x + y * y, 0)));
      return (p: number) => {
        const v = rotatedRows[p]!;
        return v.slice(0, d).reduce((x, y, a) => x + y * ur[a]!, 0) + rest * Math.hypot(...v.slice(d)) + 2e-4 * un * norms[order[p]!]!;
      };
    };
    const bounds: ((p: number) => number)[] = [
      () => Infinity,
      ...DIMS.map(principal),
      (p) => quantBound(uq, q8, p, quantStride(F), un),
      dot,
    ];
    bounds.forEach((bound, b) => {
      const it = items.slice(),
        sc = scores.slice();
      let size = filled,
        scored = 0;
      for (let p = 0; p < L; p++) {
        if (size === K && sc[0]! >= un * norms[order[p]!]! * (1 + 1e-4)) break;
        if (size === K && bound(p) < sc[0]!) continue;
        scored++;
        size = heapOffer(it, sc, size, K, dot(p), order[p]!);
      }
      counts[b]!.push(scored);
    });
  }
  const mean = (xs: number[]) => Math.round(xs.reduce((x, y) => x + y, 0) / xs.length);
  console.log(`| ${kind} | ${counts.map(mean).join(' | ')} |`);
}
