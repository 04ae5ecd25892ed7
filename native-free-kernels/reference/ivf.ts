// Reference twin of ../ivf.ts: plain loops, arrays of arrays, full sorts.

const NO_LIST = 0xffffffff;

function row(factors: Float32Array, f: number, r: number): number[] {
  return Array.from(factors.subarray(r * f, (r + 1) * f));
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}

function nearest(x: number[], centroids: number[][]): number {
  let best = 0;
  for (let c = 1; c < centroids.length; c++) if (dot(x, centroids[c]!) > dot(x, centroids[best]!)) best = c;
  return best;
}

function unit(x: number[]): number[] {
  const len = Math.sqrt(dot(x, x));
  return x.map((v) => v / len);
}

export function assignTo(
  assign: Uint32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  centroids: Float32Array,
  lists: number,
): void {
  const cs = Array.from({ length: lists }, (_, c) => row(centroids, f, c));
  for (let r = 0; r < n; r++) assign[r] = norms[r] === 0 ? NO_LIST : nearest(row(factors, f, r), cs);
}

export function sphericalKMeansTo(
  centroids: Float32Array,
  lists: number,
  factors: Float32Array,
  _norms: Float32Array,
  _n: number,
  f: number,
  sample: Uint32Array,
  iterations: number,
): void {
  const xs = Array.from(sample, (r) => unit(row(factors, f, r)));
  let cs = xs.slice(0, lists);
  let reseed = lists;
  for (let it = 0; it < iterations; it++) {
    const members: number[][][] = cs.map(() => []);
    for (const x of xs) members[nearest(x, cs)]!.push(x);
    cs = members.map((ms) => {
      const sum = new Array<number>(f).fill(0);
      for (const x of ms) x.forEach((v, a) => (sum[a]! += v));
      return ms.length === 0 || dot(sum, sum) === 0 ? xs[reseed++ % xs.length]! : unit(sum);
    });
  }
  cs.forEach((c, k) => centroids.set(c, k * f));
}

export function listsFromAssignmentTo(offsets: Uint32Array, members: Uint32Array, assign: Uint32Array, n: number, lists: number): number {
  const byList: number[][] = Array.from({ length: lists }, () => []);
  for (let r = 0; r < n; r++) if (assign[r] !== NO_LIST) byList[assign[r]!]!.push(r);
  const flat = byList.flat();
  offsets[0] = 0;
  byList.forEach((l, c) => (offsets[c + 1] = offsets[c]! + l.length));
  members.fill(NO_LIST);
  members.set(flat);
  return flat.length;
}

export function listScoresTo(
  dst: Float64Array,
  factors: Float32Array,
  f: number,
  centroids: Float32Array,
  lists: number,
  query: number,
): void {
  const q = row(factors, f, query);
  for (let c = 0; c < lists; c++) dst[c] = dot(q, row(centroids, f, c));
}

export function gatherPositions(
  scores: Float64Array,
  taken: Uint8Array,
  lists: number,
  offsets: Uint32Array,
  minCandidates: number,
): Uint32Array {
  const order = Array.from({ length: lists }, (_, c) => c)
    .filter((c) => taken[c] === 0)
    .sort((a, b) => scores[b]! - scores[a]! || a - b);
  const positions: number[] = [];
  for (const c of order) {
    if (positions.length >= minCandidates) break;
    taken[c] = 1;
    for (let p = offsets[c]!; p < offsets[c + 1]!; p++) positions.push(p);
  }
  return Uint32Array.from(positions);
}
