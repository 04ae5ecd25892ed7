// Reference twin of ../scores.ts: plain dot products over rows copied out as arrays. Same contracts,
// arguments checked the same way.

function row(factors: Float32Array, f: number, r: number): number[] {
  return Array.from(factors.subarray(r * f, (r + 1) * f));
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
};

function check(name: string, factors: Float32Array, norms: Float32Array, n: number, f: number): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(f) || f < 0) throw new Error(`${name}: n and f must be integers ≥ 0, got ${n}, ${f}`);
  if (factors.length !== n * f) throw new Error(`${name}: factors length ${factors.length}, expected n*f = ${n * f}`);
  if (norms.length !== n) throw new Error(`${name}: norms length ${norms.length}, expected n = ${n}`);
}

export function cosineScoresTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, n: number, f: number, item: number): void {
  check('cosineScoresTo', factors, norms, n, f);
  if (dst.length !== n) throw new Error(`cosineScoresTo: dst length ${dst.length}, expected n = ${n}`);
  if (!(Number.isInteger(item) && item >= 0 && item < n)) throw new Error(`cosineScoresTo: item ${item} outside [0, ${n})`);
  const x = row(factors, f, item);
  for (let i = 0; i < n; i++) {
    const rankable = i !== item && norms[i] !== 0 && norms[item] !== 0;
    dst[i] = rankable ? dot(x, row(factors, f, i)) / (norms[i]! * norms[item]!) : NaN;
  }
}

export function groupScoresTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, n: number, f: number, queries: readonly Float32Array[], consensus: number): void {
  check('groupScoresTo', factors, norms, n, f);
  if (dst.length !== n) throw new Error(`groupScoresTo: dst length ${dst.length}, expected n = ${n}`);
  queries.forEach((q, k) => {
    if (q.length !== f) throw new Error(`groupScoresTo: query ${k} length ${q.length}, expected f = ${f}`);
  });
  for (let i = 0; i < n; i++) {
    if (norms[i] === 0) {
      dst[i] = NaN;
      continue;
    }
    const dots = queries.map((q) => dot(q, row(factors, f, i)));
    const meanDot = dots.reduce((s, d) => s + d, 0) / dots.length;
    dst[i] = (1 - consensus) * meanDot + consensus * Math.min(...dots);
  }
}

export function positionScoresTo(dst: Float32Array, query: Float32Array, rows: Float32Array, count: number, f: number, members: Uint32Array, positions: Uint32Array, skip: number): void {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(f) || f < 0) throw new Error(`positionScoresTo: count and f must be integers ≥ 0, got ${count}, ${f}`);
  if (rows.length !== count * f) throw new Error(`positionScoresTo: rows length ${rows.length}, expected count*f = ${count * f}`);
  if (query.length !== f) throw new Error(`positionScoresTo: query length ${query.length}, expected f = ${f}`);
  if (members.length < count) throw new Error(`positionScoresTo: members length ${members.length} < count ${count}`);
  if (dst.length !== positions.length) throw new Error(`positionScoresTo: dst length ${dst.length}, expected positions length ${positions.length}`);
  positions.forEach((p, c) => {
    if (!(p < count)) throw new Error(`positionScoresTo: position ${p} (at ${c}) outside [0, ${count})`);
  });
  positions.forEach((p, c) => (dst[c] = members[p] === skip ? NaN : dot(query, row(rows, f, p))));
}
