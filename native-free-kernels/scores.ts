// Scores of factor rows against a query, the inner loops of the rankings: cosine similarity with
// one row, a group's blended dot products, and dot products with unit rows at given positions.
// NaN marks a row that must not be ranked (topKTo skips NaN).

import { checkIndex, checkPositionScores, checkScoreArgs } from './checks.js';
import { dotAt } from './dot.js';

/**
 * dst[i] (n) = cosine similarity of rows `item` and i: dot / (norms[i] · norms[item]), the dot by
 * dotAt. NaN for i = item, for rows of norm 0, and for every row when `item` has norm 0.
 */
export function cosineScoresTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, n: number, f: number, item: number): void {
  checkScoreArgs('cosineScoresTo', dst, factors, norms, n, f);
  checkIndex('cosineScoresTo', 'item', item, n);
  const x = item * f,
    nx = norms[item]!;
  for (let i = 0; i < n; i++) {
    const ni = norms[i]!;
    if (ni === 0 || nx === 0 || i === item) {
      dst[i] = NaN;
      continue;
    }
    dst[i] = dotAt(factors, x, factors, i * f, f) / (ni * nx);
  }
}

/**
 * dst[i] (n) = (1 − consensus) · (mean over the queries of query · row i) + consensus · (the lowest
 * of those dots): the dots summed in query order, each by dotAt. NaN for rows of norm 0. A single
 * query with consensus 0 gives plain dot products. Each query has length f.
 */
export function groupScoresTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  queries: readonly Float32Array[],
  consensus: number,
): void {
  checkScoreArgs('groupScoresTo', dst, factors, norms, n, f, queries);
  const count = queries.length;
  for (let i = 0; i < n; i++) {
    if (norms[i] === 0) {
      dst[i] = NaN;
      continue;
    }
    const y = i * f;
    let sum = 0,
      low = Infinity;
    for (let q = 0; q < count; q++) {
      const dot = dotAt(queries[q]!, 0, factors, y, f);
      sum += dot;
      if (dot < low) low = dot;
    }
    dst[i] = (1 - consensus) * (sum / count) + consensus * low;
  }
}

/**
 * dst[c] (positions.length) = query · row positions[c] of `rows` (count × f; unit rows in the
 * rankings, so this is cosine similarity with a unit query), by dotAt; NaN where
 * members[positions[c]] = skip (the query's own row). members maps a row position to its item.
 */
export function positionScoresTo(
  dst: Float32Array,
  query: Float32Array,
  rows: Float32Array,
  count: number,
  f: number,
  members: Uint32Array,
  positions: Uint32Array,
  skip: number,
): void {
  checkPositionScores(dst, query, rows, count, f, members, positions);
  for (let c = 0; c < positions.length; c++) {
    const p = positions[c]!;
    dst[c] = members[p] === skip ? NaN : dotAt(query, 0, rows, p * f, f);
  }
}

// dst[c] = the cosine of row `row` of `factors` (n × f, norms: each row's) with row items[c],
// dotAt over the norms' product, stored in f32, c < items.length (the ranking of a round of
// neighbours of neighbours, refine-lists.ts).
export function rowCosinesTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  row: number,
  items: Uint32Array,
): void {
  if (!(Number.isInteger(row) && row >= 0 && row < n)) throw new Error(`rowCosinesTo: row ${row} outside [0, ${n})`);
  if (dst.length < items.length) throw new Error(`rowCosinesTo: dst length ${dst.length} < items length ${items.length}`);
  const x = row * f,
    nr = norms[row]!;
  for (let c = 0; c < items.length; c++) {
    const i = items[c]!;
    if (!(i < n)) throw new Error(`rowCosinesTo: item ${i} (at ${c}) outside [0, ${n})`);
    dst[c] = dotAt(factors, x, factors, i * f, f) / (nr * norms[i]!);
  }
}

// dst[c] = query · row items[c] of `factors` (n × f), stored in f32, c < items.length.
export function rowDotsTo(dst: Float32Array, query: Float32Array, factors: Float32Array, n: number, f: number, items: Uint32Array): void {
  if (query.length !== f) throw new Error(`rowDotsTo: query length ${query.length}, expected f = ${f}`);
  if (dst.length < items.length) throw new Error(`rowDotsTo: dst length ${dst.length} < items length ${items.length}`);
  for (let c = 0; c < items.length; c++) {
    const i = items[c]!;
    if (!(i < n)) throw new Error(`rowDotsTo: item ${i} (at ${c}) outside [0, ${n})`);
    dst[c] = dotAt(query, 0, factors, i * f, f);
  }
}
