// A model's item rows as the rankings score them: norms, the item index's unit list rows, the rows
// in descending norm order (bounded-top.ts), and the score kernels over them. The WebAssembly SIMD kernels (wasm-rows.ts) where the engine runs
// them, else the TypeScript ones (scores.ts), which are also their twins in tests. Either form is
// built once per model and shared with scoring threads through `shared`.
import { boundedTopTo, hitsOf } from './bounded-top.js';
import { normOrderTo, userListsScratchLength, userListsTo, type NormOrder } from './lists.js';
import { prunedHitsOf, quantizeRowsTo, quantStride, type QuantizedRows } from './quantized-rows.js';
import { dotAt } from './dot.js';
import { rowNormsTo, unitRowsTo } from './rows.js';
import { cosineScoresTo, groupScoresTo, positionScoresTo, rowCosinesTo, rowDotsTo } from './scores.js';
import { WasmRows } from './wasm-rows.js';
import { userListsSlotBytes, wasmUserListsTo } from './wasm-user-lists.js';

export interface ScoreRows {
  readonly factors: Float32Array; // the item rows the kernels read: the model's own, or their copy in wasm memory
  readonly norms: Float32Array; // each item row's norm (0: no factors)
  readonly listRows: Float32Array; // the listed items' unit rows in list order (empty without an index)
  readonly shared: SharedRows; // what another thread passes to scoreRows to score the same rows
  cosineScoresTo(dst: Float32Array, item: number): void;
  groupScoresTo(dst: Float32Array, queries: readonly Float32Array[], consensus: number): void;
  positionScoresTo(dst: Float32Array, query: Float32Array, positions: Uint32Array, skip: number): void;
  // dst[c] = query · the row of items[c] (distinct rows), summed as the vector rankings sum them.
  rowDotsTo(dst: Float32Array, query: Float32Array, items: Uint32Array): void;
  // dst[c] = the cosine of row `row` with row items[c] (up to n items), the same f32 in either
  // kernel (scores.ts rowCosinesTo, refine-lists.ts's ranking).
  rowCosinesTo(dst: Float32Array, row: number, items: Uint32Array): void;
  // boundedTopTo over the rows: the best k by query · row, -1 past maxRows rows scored (filled and
  // partial as boundedTopTo takes them).
  vectorTopTo(
    items: Uint32Array,
    scores: Float32Array,
    k: number,
    query: Float32Array,
    maxRows?: number,
    filled?: number,
    partial?: boolean,
  ): number;
  // userListsTo (lists.ts) over the rows in norm order: users' best n unrated items (in the SIMD
  // kernels, with the dots vectorTopTo sums, so a user's list and their later pages rank alike).
  userListsTo(
    dst: Uint32Array,
    n: number,
    users: Uint32Array,
    userFactors: Float32Array,
    userRows: number,
    ratedIndptr: Uint32Array,
    ratedIndices: Uint32Array,
    packed?: boolean,
  ): void;
  // The rows in the order vectorTopTo scans them (descending norm, ties by row; rows of norm 0 left out).
  readonly normOrder: Uint32Array;
  // Rows the last vectorTopTo on this thread scored exactly (benchmarks, tests).
  readonly rescored: number;
}

// prune: false scans without the int8 rows (every row scored exactly), to compare with. listLength:
// the users' lists to be made over the rows (userListsTo), which the SIMD kernels' scratch makes room for.
export interface ScoreRowsOptions {
  prune?: boolean;
  listLength?: number;
}

// Posted to scoring threads: the wasm memory, or (TypeScript kernels) the buffers of the rows' norms,
// list rows and norm order, and of the int8 rows when made (quantized of them, quantized-rows.ts).
export type SharedRows =
  | WebAssembly.Memory
  | {
      norms: SharedArrayBuffer;
      listRows: SharedArrayBuffer;
      order: SharedArrayBuffer;
      sortedNorms: SharedArrayBuffer;
      sortedRows: SharedArrayBuffer;
      count: number;
      quant?: SharedQuant;
    };
type SharedQuant = {
  rows: SharedArrayBuffer;
  scales: SharedArrayBuffer;
  errorTerms: SharedArrayBuffer;
  lengthTerms: SharedArrayBuffer;
  quantized: number;
};
// The int8 rows of the first `quantized` rows in norm order.
type Quant = QuantizedRows & { quantized: number };

/**
 * The rows of `factors` (n × f; members: the item index's members in list order, empty without
 * one), built here, or attached to those another thread built (`shared`, for the same factors).
 */
export function scoreRows(
  factors: Float32Array,
  n: number,
  f: number,
  members: Uint32Array,
  shared?: SharedRows,
  options: ScoreRowsOptions = {},
): ScoreRows {
  if (factors.length !== n * f) throw new Error(`scoreRows: factors length ${factors.length}, expected n*f = ${n * f}`);
  const prune = options.prune ?? true;
  if (shared instanceof WebAssembly.Memory) return new SimdRows(WasmRows.attach(shared)!, factors, members, prune);
  if (shared) {
    const o = {
      order: new Uint32Array(shared.order),
      norms: new Float32Array(shared.sortedNorms),
      rows: new Float32Array(shared.sortedRows),
      count: shared.count,
    };
    const sq = shared.quant;
    const q = prune
      && sq && {
        rows: new Int8Array(sq.rows),
        scales: new Float32Array(sq.scales),
        errorTerms: new Float32Array(sq.errorTerms),
        lengthTerms: new Float32Array(sq.lengthTerms),
        quantized: sq.quantized,
      };
    return new TsRows(factors, n, f, members, new Float32Array(shared.norms), new Float32Array(shared.listRows), o, q || undefined);
  }
  const wasm = WasmRows.allocate(n, f, members.length, userListsSlotBytes(n, f, options.listLength ?? 0));
  if (wasm) {
    wasm.factors.set(factors);
    wasm.members.set(members);
    const sorted = wasm.sorted;
    sorted.count = fill(wasm.norms, wasm.listRows, sorted, factors, n, f, members);
    quantizeRowsTo(wasm.quantRows, sorted.rows, sorted.count, f);
    wasm.sortedCount = sorted.count;
    return new SimdRows(wasm, factors, members, prune);
  }
  const buffer = (floats: number) => new Float32Array(new SharedArrayBuffer(floats * 4));
  const norms = buffer(n),
    listRows = buffer(members.length * f);
  const o = { order: new Uint32Array(new SharedArrayBuffer(n * 4)), norms: buffer(n), rows: buffer(n * f), count: 0 };
  o.count = fill(norms, listRows, o, factors, n, f, members);
  const q = {
    rows: new Int8Array(new SharedArrayBuffer(o.count * quantStride(f))),
    scales: buffer(o.count),
    errorTerms: buffer(o.count),
    lengthTerms: buffer(o.count),
    quantized: 0,
  };
  q.quantized = quantizeRowsTo(q, o.rows, o.count, f);
  return new TsRows(factors, n, f, members, norms, listRows, o, q, prune);
}

// The rows in norm order the vector rankings scan (bounded-top.ts).
type Sorted = Pick<NormOrder, 'order' | 'norms' | 'rows' | 'count'>;

function fill(
  norms: Float32Array,
  listRows: Float32Array,
  sorted: Sorted,
  factors: Float32Array,
  n: number,
  f: number,
  members: Uint32Array,
): number {
  rowNormsTo(norms, factors, n, f);
  unitRowsTo(listRows, factors, norms, n, f, members);
  return normOrderTo(sorted.order, sorted.norms, sorted.rows, factors, norms, n, f);
}

// |query| as the bound of bounded-top.ts takes it.
export const normOf = (q: Float32Array) => Math.sqrt(dotAt(q, 0, q, 0, q.length));

// The TypeScript kernels over the model's own factors.
class TsRows implements ScoreRows {
  constructor(
    readonly factors: Float32Array,
    private readonly n: number,
    private readonly f: number,
    private readonly members: Uint32Array,
    readonly norms: Float32Array,
    readonly listRows: Float32Array,
    private readonly sorted: Sorted,
    private readonly quant?: Quant,
    private readonly prune = true,
  ) {}
  private readonly stats = { scored: 0 };
  get rescored(): number {
    return this.stats.scored;
  }

  get shared(): SharedRows {
    const buffer = (a: ArrayBufferView) => a.buffer as SharedArrayBuffer;
    const { order, norms, rows, count } = this.sorted;
    const tq = this.quant;
    const q = tq && {
      rows: buffer(tq.rows),
      scales: buffer(tq.scales),
      errorTerms: buffer(tq.errorTerms),
      lengthTerms: buffer(tq.lengthTerms),
      quantized: tq.quantized,
    };
    return {
      norms: buffer(this.norms),
      listRows: buffer(this.listRows),
      order: buffer(order),
      sortedNorms: buffer(norms),
      sortedRows: buffer(rows),
      count,
      ...(q && { quant: q }),
    };
  }
  cosineScoresTo(dst: Float32Array, item: number): void {
    cosineScoresTo(dst, this.factors, this.norms, this.n, this.f, item);
  }
  groupScoresTo(dst: Float32Array, queries: readonly Float32Array[], consensus: number): void {
    groupScoresTo(dst, this.factors, this.norms, this.n, this.f, queries, consensus);
  }
  positionScoresTo(dst: Float32Array, query: Float32Array, positions: Uint32Array, skip: number): void {
    positionScoresTo(dst, query, this.listRows, this.members.length, this.f, this.members, positions, skip);
  }
  rowDotsTo(dst: Float32Array, query: Float32Array, items: Uint32Array): void {
    rowDotsTo(dst, query, this.factors, this.n, this.f, items);
  }
  rowCosinesTo(dst: Float32Array, row: number, items: Uint32Array): void {
    rowCosinesTo(dst, this.factors, this.norms, this.n, this.f, row, items);
  }
  vectorTopTo(
    items: Uint32Array,
    scores: Float32Array,
    k: number,
    query: Float32Array,
    maxRows?: number,
    filled?: number,
    partial?: boolean,
  ): number {
    const f = this.f,
      rows = this.sorted.rows;
    if (query.length !== f) throw new Error(`vectorTopTo: query length ${query.length}, expected f = ${f}`);
    const stats = this.stats,
      queryNorm = normOf(query),
      q = this.quant;
    stats.scored = 0;
    const dot = (p: number) => (stats.scored++, dotAt(query, 0, rows, p * f, f));
    const dotsOf = q && this.prune && q.quantized > 0 ? prunedHitsOf(dot, q, q.quantized, f, query, queryNorm) : hitsOf(dot);
    return boundedTopTo(items, scores, k, queryNorm, this.sorted, dotsOf, maxRows, filled, partial);
  }
  userListsTo(
    dst: Uint32Array,
    n: number,
    users: Uint32Array,
    userFactors: Float32Array,
    userRows: number,
    ratedIndptr: Uint32Array,
    ratedIndices: Uint32Array,
    packed = false,
  ): void {
    const { order, norms, rows, count } = this.sorted,
      f = this.f;
    const byNorm = {
      items: this.n,
      count,
      order: order.subarray(0, count),
      norms: norms.subarray(0, count),
      rows: rows.subarray(0, count * f),
    };
    userListsTo(
      dst,
      n,
      users,
      userFactors,
      userRows,
      byNorm,
      f,
      ratedIndptr,
      ratedIndices,
      new Float32Array(userListsScratchLength(f, n)),
      undefined,
      packed,
    );
  }
  // Made once: a session's ranking reads it several times a request.
  get normOrder(): Uint32Array {
    return (this.scanOrder ??= this.sorted.order.subarray(0, this.sorted.count));
  }
  private scanOrder: Uint32Array | undefined;
}

// The SIMD kernels over the rows' copy in wasm memory; a call that finds no scratch slot (more calls
// at once than wasm-rows.ts allows, or the memory at its maximum) scores with the TypeScript kernel.
class SimdRows implements ScoreRows {
  private readonly ts: TsRows;
  readonly factors: Float32Array;
  readonly norms: Float32Array;
  readonly listRows: Float32Array;

  constructor(
    private readonly wasm: WasmRows,
    factors: Float32Array,
    members: Uint32Array,
    prune: boolean,
  ) {
    wasm.pruned = prune;
    this.factors = wasm.factors;
    this.norms = wasm.norms;
    this.listRows = wasm.listRows;
    // The model's own rows (the same values): the fallback needs no view of the wasm memory's.
    this.ts = new TsRows(
      factors,
      wasm.n,
      wasm.f,
      members,
      this.norms,
      this.listRows,
      wasm.sorted,
      { ...wasm.quantRows, quantized: wasm.quantized },
      prune,
    );
  }

  get shared(): SharedRows {
    return this.wasm.memory;
  }
  cosineScoresTo(dst: Float32Array, item: number): void {
    if (!this.wasm.cosineScoresTo(dst, item)) this.ts.cosineScoresTo(dst, item);
  }
  groupScoresTo(dst: Float32Array, queries: readonly Float32Array[], consensus: number): void {
    if (!this.wasm.groupScoresTo(dst, queries, consensus)) this.ts.groupScoresTo(dst, queries, consensus);
  }
  positionScoresTo(dst: Float32Array, query: Float32Array, positions: Uint32Array, skip: number): void {
    if (!this.wasm.positionScoresTo(dst, query, positions, skip)) this.ts.positionScoresTo(dst, query, positions, skip);
  }
  rowDotsTo(dst: Float32Array, query: Float32Array, items: Uint32Array): void {
    if (!this.wasm.rowDotsTo(dst, query, items)) this.ts.rowDotsTo(dst, query, items);
  }
  rowCosinesTo(dst: Float32Array, row: number, items: Uint32Array): void {
    if (!this.wasm.rowCosinesTo(dst, row, items)) this.ts.rowCosinesTo(dst, row, items);
  }
  vectorTopTo(
    items: Uint32Array,
    scores: Float32Array,
    k: number,
    query: Float32Array,
    maxRows?: number,
    filled?: number,
    partial?: boolean,
  ): number {
    const got = this.wasm.vectorTopTo(items, scores, k, query, normOf(query), maxRows, filled, partial);
    this.fellBack = got === undefined;
    return got === undefined ? this.ts.vectorTopTo(items, scores, k, query, maxRows, filled, partial) : got;
  }
  userListsTo(
    dst: Uint32Array,
    n: number,
    users: Uint32Array,
    userFactors: Float32Array,
    userRows: number,
    ratedIndptr: Uint32Array,
    ratedIndices: Uint32Array,
    packed = false,
  ): void {
    if (!wasmUserListsTo(this.wasm, dst, n, users, userFactors, userRows, ratedIndptr, ratedIndices, packed))
      this.ts.userListsTo(dst, n, users, userFactors, userRows, ratedIndptr, ratedIndices, packed);
  }
  get normOrder(): Uint32Array {
    return this.ts.normOrder;
  }
  get rescored(): number {
    return this.fellBack ? this.ts.rescored : this.wasm.rescored;
  }
  private fellBack = false;
}
