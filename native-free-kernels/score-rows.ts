// A model's item rows as the rankings score them: norms, the item index's unit list rows, and the
// three score kernels over them. The WebAssembly SIMD kernels (wasm-rows.ts) where the engine runs
// them, else the TypeScript ones (scores.ts), which are also their twins in tests. Either form is
// built once per model and shared with scoring threads through `shared`.
import { rowNormsTo, unitRowsTo } from './rows.js';
import { cosineScoresTo, groupScoresTo, positionScoresTo } from './scores.js';
import { WasmRows } from './wasm-rows.js';

export interface ScoreRows {
  readonly factors: Float32Array; // the item rows the kernels read: the model's own, or their copy in wasm memory
  readonly norms: Float32Array; // each item row's norm (0: no factors)
  readonly listRows: Float32Array; // the listed items' unit rows in list order (empty without an index)
  readonly shared: SharedRows; // what another thread passes to scoreRows to score the same rows
  cosineScoresTo(dst: Float32Array, item: number): void;
  groupScoresTo(dst: Float32Array, queries: readonly Float32Array[], consensus: number): void;
  positionScoresTo(dst: Float32Array, query: Float32Array, positions: Uint32Array, skip: number): void;
}

// Posted to scoring threads: the wasm memory, or (TypeScript kernels) the norms' and list rows' buffers.
export type SharedRows = WebAssembly.Memory | { norms: SharedArrayBuffer; listRows: SharedArrayBuffer };

/**
 * The rows of `factors` (n × f; members: the item index's members in list order, empty without
 * one), built here, or attached to those another thread built (`shared`, for the same factors).
 */
export function scoreRows(factors: Float32Array, n: number, f: number, members: Uint32Array, shared?: SharedRows): ScoreRows {
  if (factors.length !== n * f) throw new Error(`scoreRows: factors length ${factors.length}, expected n*f = ${n * f}`);
  if (shared instanceof WebAssembly.Memory) return new SimdRows(WasmRows.attach(shared)!, factors, members);
  if (shared) return new TsRows(factors, n, f, members, new Float32Array(shared.norms), new Float32Array(shared.listRows));
  const wasm = WasmRows.allocate(n, f, members.length);
  if (wasm) {
    wasm.factors.set(factors);
    wasm.members.set(members);
    fill(wasm.norms, wasm.listRows, factors, n, f, members);
    return new SimdRows(wasm, factors, members);
  }
  const norms = new Float32Array(new SharedArrayBuffer(n * 4)), listRows = new Float32Array(new SharedArrayBuffer(members.length * f * 4));
  fill(norms, listRows, factors, n, f, members);
  return new TsRows(factors, n, f, members, norms, listRows);
}

function fill(norms: Float32Array, listRows: Float32Array, factors: Float32Array, n: number, f: number, members: Uint32Array): void {
  rowNormsTo(norms, factors, n, f);
  unitRowsTo(listRows, factors, norms, n, f, members);
}

// The TypeScript kernels over the model's own factors.
class TsRows implements ScoreRows {
  constructor(
    readonly factors: Float32Array,
    private readonly n: number,
    private readonly f: number,
    private readonly members: Uint32Array,
    readonly norms: Float32Array,
    readonly listRows: Float32Array,
  ) {}

  get shared(): SharedRows {
    return { norms: this.norms.buffer as SharedArrayBuffer, listRows: this.listRows.buffer as SharedArrayBuffer };
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
  ) {
    this.factors = wasm.factors;
    this.norms = wasm.norms;
    this.listRows = wasm.listRows;
    // The model's own rows (the same values): the fallback needs no view of the wasm memory's.
    this.ts = new TsRows(factors, wasm.n, wasm.f, members, this.norms, this.listRows);
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
}
