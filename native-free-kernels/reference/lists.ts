// Reference twin of ../lists.ts: one query at a time, every candidate scored with a plain loop, then
// a full sort. Same contracts, arguments checked the same way, except that scratch is not used (the
// twin allocates per query) and there is no block size.

const EMPTY = 0xffffffff;

interface Scored {
  item: number;
  score: number;
}

// One f64 sum in column order, as the fast kernel sums.
function dot(a: Float32Array, x: number, b: Float32Array, y: number, f: number): number {
  let s = 0;
  for (let k = 0; k < f; k++) s += a[x + k]! * b[y + k]!;
  return s;
}

// dst[row·n ..) = the best n candidates, score descending then item ascending, the rest EMPTY.
function writeBest(dst: Uint32Array, n: number, row: number, candidates: Scored[]): void {
  candidates.sort((a, b) => b.score - a.score || a.item - b.item);
  for (let p = 0; p < n; p++) dst[row * n + p] = p < candidates.length ? candidates[p]!.item : EMPTY;
}

function checkCounts(name: string, values: Record<string, number>): void {
  for (const [key, v] of Object.entries(values)) if (!(Number.isInteger(v) && v >= 0)) throw new Error(`${name}: ${key} must be an integer ≥ 0, got ${v}`);
}

export function itemListsTo(
  dst: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  count: number,
  f: number,
  rowStart: number,
  rowEnd: number,
  _scratch: Float32Array,
): void {
  const name = 'itemListsTo';
  checkCounts(name, { n, count, f });
  if (factors.length !== count * f) throw new Error(`${name}: factors length ${factors.length}, expected count*f = ${count * f}`);
  if (norms.length !== count) throw new Error(`${name}: norms length ${norms.length}, expected count = ${count}`);
  if (dst.length !== count * n) throw new Error(`${name}: dst length ${dst.length}, expected count*n = ${count * n}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= count)) {
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${count})`);
  }
  for (let i = rowStart; i < rowEnd; i++) {
    const candidates: Scored[] = [];
    for (let j = 0; j < count; j++) {
      if (j === i || norms[i] === 0 || norms[j] === 0) continue;
      const score = Math.fround(dot(factors, i * f, factors, j * f, f) / (norms[i]! * norms[j]!));
      if (!Number.isNaN(score)) candidates.push({ item: j, score });
    }
    writeBest(dst, n, i, candidates);
  }
}

export interface NormOrder {
  items: number;
  count: number;
  order: Uint32Array;
  norms: Float32Array;
  rows: Float32Array;
}

// Every item of norm > 0 scored (no early stop), from the same rows the fast kernel scans.
export function userListsTo(
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  byNorm: NormOrder,
  f: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  _scratch: Float32Array,
): void {
  const name = 'userListsTo';
  const { items, count, order, rows } = byNorm;
  checkCounts(name, { n, userRows, items, f });
  if (userFactors.length !== userRows * f) throw new Error(`${name}: userFactors length ${userFactors.length}, expected userRows*f = ${userRows * f}`);
  if (rows.length !== count * f) throw new Error(`${name}: byNorm rows length ${rows.length}, expected count*f = ${count * f}`);
  if (dst.length !== userRows * n) throw new Error(`${name}: dst length ${dst.length}, expected userRows*n = ${userRows * n}`);
  const rated = (u: number): number[] => (u + 1 < ratedIndptr.length ? Array.from(ratedIndices.subarray(ratedIndptr[u], ratedIndptr[u + 1])) : []);
  users.forEach((u, p) => {
    if (u >= userRows) throw new Error(`${name}: user ${u} (at ${p}) outside [0, ${userRows})`);
    if (u + 1 < ratedIndptr.length && !(ratedIndptr[u]! <= ratedIndptr[u + 1]! && ratedIndptr[u + 1]! <= ratedIndices.length)) {
      throw new Error(`${name}: user ${u}'s rated items [${ratedIndptr[u]}, ${ratedIndptr[u + 1]}) outside ratedIndices (length ${ratedIndices.length})`);
    }
    for (const i of rated(u)) if (i >= items) throw new Error(`${name}: user ${u} rated item ${i} outside [0, ${items})`);
  });
  for (const u of users) {
    const skip = new Set(rated(u));
    const candidates: Scored[] = [];
    for (let p = 0; p < count; p++) {
      if (skip.has(order[p]!)) continue;
      candidates.push({ item: order[p]!, score: Math.fround(dot(userFactors, u * f, rows, p * f, f)) });
    }
    writeBest(dst, n, u, candidates);
  }
}
