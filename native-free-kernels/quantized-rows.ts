// The rows in norm order as int8, with what each lost, so a scan can skip a row without its exact
// dot: the int8 dot (a quarter of the bytes, 8 multiply-adds per SIMD instruction) plus the rows'
// and the query's rounding errors bounds the dot from above, and a row whose bound is below the
// k-th best found cannot enter the top. Only the rows left are scored exactly, by the same f32 dot
// as before, so the ranking is the same. A random session of 5 items scores ~100 of its 2,048
// longest rows exactly (bench/kernels/session-pruned-scan.ts), where principal axes (a prefix of
// rotated coordinates plus the rest's norm) left ~1,960: the spectrum of trained rows is too flat.
//
// Per row v (scale s = max|v_a| / 127 in f32, q = round(v / s) in [-127, 127], e = v − s·q) and
// query u (scale t = max|u_a| / 32767, r = round(u / t), d = u − t·r):
//   u · v = t·s·(r · q) + u · e + d · (s·q)  ≤  t·s·(r · q) + |u|·|e| + |d|·(|v| + |e|)
// r · q is exact in i32 for f ≤ QUANT_MAX_F. Each row keeps s, |e| + 2·SLACK·|v| (its error term,
// times |u|) and |v| + |e| (its length term, times |d|), rounded up: SLACK·|u|·|v| covers how far
// the computed f32 dot may exceed the exact one (bounded-top.ts), the other SLACK·|u|·|v| the
// rounding of the bound itself when the kernel sums it in f32 (a few ulps of |u|·|v|).
import { hitsOf, type Hits } from './bounded-top.js';

// Past this many factors an i32 sum of int16 × int8 products could overflow: no int8 rows.
export const QUANT_MAX_F = 512;
// Bytes of one int8 row: f rounded up to 16, zeros after f, so SIMD loads need no tail.
export const quantStride = (f: number) => Math.ceil(f / 16) * 16;
const SLACK = 1e-4; // bounded-top.ts SLACK − 1: the f32 dot's rounding against the exact dot
const QUERY_STEPS = 32767;
const ROW_STEPS = 127;

export interface QuantizedRows {
  rows: Int8Array; // count × quantStride(f)
  scales: Float32Array; // s of each row
  errorTerms: Float32Array; // |e| + 2·SLACK·|v| of each row, rounded up
  lengthTerms: Float32Array; // |v| + |e| of each row, rounded up
}
// Up from a non-negative f64 to an f32 at least as large.
const up = (x: number) => Math.fround(x * (1 + 2 ** -20));

/**
 * The first `count` rows of `rows` (count × f f32, in norm order) into `dst` (rows of
 * quantStride(f) bytes). Returns the rows quantised: count, or 0 when f > QUANT_MAX_F.
 */
export function quantizeRowsTo(dst: QuantizedRows, rows: Float32Array, count: number, f: number): number {
  const stride = quantStride(f);
  if (rows.length < count * f) throw new Error(`quantizeRowsTo: rows length ${rows.length} < count*f = ${count * f}`);
  if (f > QUANT_MAX_F) return 0;
  if (dst.rows.length < count * stride || dst.scales.length < count || dst.errorTerms.length < count || dst.lengthTerms.length < count)
    throw new Error(`quantizeRowsTo: room for fewer than ${count} rows`);
  for (let p = 0; p < count; p++) {
    let max = 0;
    for (let a = 0; a < f; a++) max = Math.max(max, Math.abs(rows[p * f + a]!));
    const s = Math.fround(max / ROW_STEPS);
    let e2 = 0,
      v2 = 0;
    for (let a = 0; a < f; a++) {
      const v = rows[p * f + a]!;
      v2 += v * v;
      const q = s > 0 ? Math.max(-ROW_STEPS, Math.min(ROW_STEPS, Math.round(v / s))) : 0;
      dst.rows[p * stride + a] = q;
      e2 += (v - q * s) ** 2;
    }
    dst.rows.fill(0, p * stride + f, (p + 1) * stride);
    dst.scales[p] = s;
    // NaN (rows of NaN or ∞) bounds nothing: such a row is always scored.
    const e = Math.sqrt(e2),
      v = Math.sqrt(v2);
    dst.errorTerms[p] = up(e + 2 * SLACK * v);
    dst.lengthTerms[p] = up(v + e);
  }
  return count;
}

// The query as int16 (r, stride entries, zeros after f) with its scale t and |d|, or undefined when
// it cannot bound anything (all zeros, NaN or ∞): the scan then scores every row.
export interface QuantizedQuery {
  r: Int16Array;
  scale: number;
  error: number;
}

export function quantizeQueryTo(r: Int16Array, query: Float32Array, f: number): QuantizedQuery | undefined {
  let max = 0;
  for (let a = 0; a < f; a++) max = Math.max(max, Math.abs(query[a]!));
  if (!(max > 0 && max < Infinity)) return undefined;
  const scale = max / QUERY_STEPS,
    inverse = QUERY_STEPS / max;
  let e2 = 0;
  for (let a = 0; a < f; a++) {
    // floor(x + 0.5), as the kernel rounds (Math.round and f64.nearest differ at halves).
    const q = Math.max(-QUERY_STEPS, Math.min(QUERY_STEPS, Math.floor(query[a]! * inverse + 0.5)));
    r[a] = q;
    e2 += (query[a]! - q * scale) ** 2;
  }
  r.fill(0, f);
  return { r, scale, error: Math.sqrt(e2) };
}

/** The bound above on query · row p: at least the exact dot and the f32 dot of either kernel. */
export function quantBound(q: QuantizedQuery, qr: QuantizedRows, p: number, stride: number, queryNorm: number): number {
  let d = 0;
  for (let a = p * stride, b = 0; b < stride; a++, b++) d += q.r[b]! * qr.rows[a]!;
  return q.scale * qr.scales[p]! * d + queryNorm * qr.errorTerms[p]! + q.error * qr.lengthTerms[p]!;
}

/**
 * dotsOf for boundedTopTo (hitsOf's) that computes `dot` only for rows whose quantBound reaches
 * `floor`; the others cannot be hits.
 */
export function prunedHitsOf(
  dot: (row: number) => number,
  qr: QuantizedRows,
  quantized: number,
  f: number,
  query: Float32Array,
  queryNorm: number,
): (from: number, count: number, floor: number) => Hits {
  const stride = quantStride(f);
  const q = quantized > 0 ? quantizeQueryTo(new Int16Array(stride), query, f) : undefined;
  if (q === undefined) return hitsOf(dot);
  return hitsOf(dot, (p, floor) => p < quantized && quantBound(q, qr, p, stride, queryNorm) < floor);
}
