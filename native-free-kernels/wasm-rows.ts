// A model's item rows in one shared WebAssembly memory, scored by the SIMD kernels (wasm.ts): the
// serving thread copies the rows in once and posts the memory to scoring threads, which score the
// same copy (a WebAssembly memory cannot wrap the model's own SharedArrayBuffer).
//
// Layout (byte offsets kept in the header, so a posted memory describes itself):
//   page 0      header: the Header fields below, then per scratch slot its state and offset
//   factors     n × f f32, the model's item factors
//   norms       n f32, each row's norm (0: no factors)
//   listRows    listed × f f32, the item index's unit rows in list order (rankings.ts Scorable)
//   members     listed u32, the item of each list row
//   order       n u32, the items in descending norm order (lists.ts normOrderOf; bounded-top.ts)
//   sortedNorms n f32, their norms in that order
//   sortedRows  n × f f32, their rows in that order (`count` of them have norm > 0)
//   quantRows   n × quantStride(f) i8, those rows as int8 (quantized-rows.ts), `count` of them
//               unless f > QUANT_MAX_F; quantScales, quantErrors, quantLengths: n f32 each, their
//               scales, error terms and length terms
//   slots       scratch for one call each, added by memory.grow when every slot is busy, so a slot
//               is claimed by a call (not a thread) and the memory grows to the peak number of
//               calls at once, not to the number of threads ever started:
//               dst n f32 | low n f32 (positions: listed u32) | QUERIES × f f32 queries | n u32
//               (a bounded scan's heap: its scores in `low`, its items here) | quantStride(f) i16
//               (a bounded scan's int16 query) | 2 × PRUNE_CHUNK u32 (the rows its bound leaves);
//               at least the bytes `allocate` is asked for (a training's users' lists,
//               wasm-user-lists.ts, lay out a slot their own way)
import { QUANT_MAX_F, quantStride, type QuantizedRows } from './quantized-rows.js';
import { scoreKernels, scoreModule, type ScoreKernels } from './wasm.js';

const PAGE = 65536;
const MAX_SLOTS = 64;
// Queries a slot holds: a larger group is folded in chunks of this many.
const QUERIES = 16;
// Rows a pruned scan bounds before scoring those left (wasm/assembly/scores.ts CHUNK).
const PRUNE_CHUNK = 64;
const Header = {
  n: 0,
  f: 1,
  listed: 2,
  factors: 3,
  norms: 4,
  listRows: 5,
  members: 6,
  slotBytes: 7,
  slots: 8,
  order: 9,
  sortedNorms: 10,
  sortedRows: 11,
  count: 12,
  quantRows: 13,
  quantScales: 14,
  quantErrors: 15,
  quantLengths: 16,
  state: 20,
  offset: 20 + MAX_SLOTS,
} as const;
const HEADER_WORDS = Header.offset + MAX_SLOTS;
// Slot states: 0 (absent) until its creator has stored its offset, so no other call claims it early.
const FREE = 1,
  BUSY = 2;
// wasm32 addresses: a model whose rows and one slot need more than 4 GiB is scored in TypeScript.
const MAX_PAGES = 65536;

const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

interface SlotViews {
  first: Float32Array;
  second: Uint32Array;
  secondScores: Float32Array; // `second` as f32
  query: Float32Array;
  third: Uint32Array;
}
// Byte offsets of a slot's parts from its start, and its size (`end`).
function slotParts(n: number, f: number) {
  const second = align(n * 4),
    query = 2 * align(n * 4),
    third = query + align(QUERIES * f * 4),
    quantQuery = third + align(n * 4);
  return { second, query, third, quantQuery, end: quantQuery + align(quantStride(f) * 2) + 2 * PRUNE_CHUNK * 4 };
}

export class WasmRows {
  readonly n: number;
  readonly f: number;
  readonly listed: number;
  private readonly header: Uint32Array;
  private readonly k: ScoreKernels;
  // Views made once rather than per call (a session's ranking made a dozen per request): of each
  // slot's scratch (slot views below), and of the rows in norm order, complete once
  // `sortedCount` is set, before any scoring.
  private readonly slotViews = new Map<number, SlotViews>();
  private scanned: { order: Uint32Array; norms: Float32Array; count: number } | undefined;
  private readonly parts: ReturnType<typeof slotParts>;

  private constructor(
    readonly memory: WebAssembly.Memory,
    module: WebAssembly.Module,
  ) {
    this.header = new Uint32Array(memory.buffer, 0, HEADER_WORDS);
    this.n = this.header[Header.n]!;
    this.f = this.header[Header.f]!;
    this.listed = this.header[Header.listed]!;
    this.k = scoreKernels(module, memory);
    this.parts = slotParts(this.n, this.f);
  }

  // A memory for n × f rows and `listed` list rows, filled in by the caller through the views; undefined
  // without WebAssembly SIMD or beyond wasm32's 4 GiB.
  static allocate(n: number, f: number, listed: number, minSlotBytes = 0): WasmRows | undefined {
    const module = scoreModule();
    if (!module) return undefined;
    const factors = PAGE,
      norms = factors + align(n * f * 4),
      listRows = norms + align(n * 4),
      members = listRows + align(listed * f * 4);
    const order = members + align(listed * 4),
      sortedNorms = order + align(n * 4),
      sortedRows = sortedNorms + align(n * 4);
    const quantRows = sortedRows + align(n * f * 4),
      quantScales = quantRows + align(n * quantStride(f)),
      quantErrors = quantScales + align(n * 4);
    // 16 bytes more: the scan reads the terms of four rows at once, up to three past the last.
    const quantLengths = quantErrors + align(n * 4),
      end = quantLengths + align(n * 4) + 16;
    const slotBytes = align(Math.max(slotParts(n, f).end, minSlotBytes));
    const initial = Math.ceil(end / PAGE),
      slotPages = Math.ceil(slotBytes / PAGE);
    if (initial + slotPages > MAX_PAGES) return undefined;
    const memory = new WebAssembly.Memory({ initial, maximum: Math.min(MAX_PAGES, initial + MAX_SLOTS * slotPages), shared: true });
    const h = new Uint32Array(memory.buffer, 0, HEADER_WORDS);
    h[Header.n] = n;
    h[Header.f] = f;
    h[Header.listed] = listed;
    h[Header.factors] = factors;
    h[Header.norms] = norms;
    h[Header.listRows] = listRows;
    h[Header.members] = members;
    h[Header.slotBytes] = slotBytes;
    h[Header.order] = order;
    h[Header.sortedNorms] = sortedNorms;
    h[Header.sortedRows] = sortedRows;
    h[Header.quantRows] = quantRows;
    h[Header.quantScales] = quantScales;
    h[Header.quantErrors] = quantErrors;
    h[Header.quantLengths] = quantLengths;
    return new WasmRows(memory, module);
  }

  // The rows another thread allocated (its `memory`, posted here).
  static attach(memory: WebAssembly.Memory): WasmRows | undefined {
    const module = scoreModule();
    return module && new WasmRows(memory, module);
  }

  // Views of the rows in the memory: written once by the allocating thread, read-only after.
  get factors(): Float32Array {
    return new Float32Array(this.memory.buffer, this.header[Header.factors]!, this.n * this.f);
  }
  get norms(): Float32Array {
    return new Float32Array(this.memory.buffer, this.header[Header.norms]!, this.n);
  }
  get listRows(): Float32Array {
    return new Float32Array(this.memory.buffer, this.header[Header.listRows]!, this.listed * this.f);
  }
  get members(): Uint32Array {
    return new Uint32Array(this.memory.buffer, this.header[Header.members]!, this.listed);
  }
  // The rows in norm order (lists.ts NormOrder's fields): views, filled by the allocating thread,
  // which sets `sortedCount` after.
  get sorted(): { order: Uint32Array; norms: Float32Array; rows: Float32Array; count: number } {
    const { buffer } = this.memory,
      h = this.header,
      n = this.n;
    return {
      order: new Uint32Array(buffer, h[Header.order]!, n),
      norms: new Float32Array(buffer, h[Header.sortedNorms]!, n),
      rows: new Float32Array(buffer, h[Header.sortedRows]!, n * this.f),
      count: h[Header.count]!,
    };
  }
  // Their int8 rows (quantized-rows.ts), as many as `quantized`: filled with the rows in norm order.
  get quantRows(): QuantizedRows {
    const { buffer } = this.memory,
      h = this.header,
      n = this.n;
    return {
      rows: new Int8Array(buffer, h[Header.quantRows]!, n * quantStride(this.f)),
      scales: new Float32Array(buffer, h[Header.quantScales]!, n),
      errorTerms: new Float32Array(buffer, h[Header.quantErrors]!, n),
      lengthTerms: new Float32Array(buffer, h[Header.quantLengths]!, n),
    };
  }
  get quantized(): number {
    return this.f <= QUANT_MAX_F ? this.header[Header.count]! : 0;
  }
  // Benchmarks compare the scan with and without its int8 rows.
  pruned = true;
  // Rows the last vectorTopTo on this thread scored exactly.
  get rescored(): number {
    return this.k.rescored.value as number;
  }
  set sortedCount(count: number) {
    this.header[Header.count] = count;
    this.scanned = undefined;
  }

  // A slot's scratch as typed arrays: `first` (n f32: scores, dots), `second` (n u32: positions,
  // rows; or f32), `query` (f f32) and `third` (n u32). A shared memory's buffer is never detached
  // by a grow, so the views stay valid.
  private views(at: number): SlotViews {
    let v = this.slotViews.get(at);
    if (v === undefined) {
      const buffer = this.memory.buffer,
        n = this.n,
        o = this.parts;
      v = {
        first: new Float32Array(buffer, at, n),
        second: new Uint32Array(buffer, at + o.second, n),
        secondScores: new Float32Array(buffer, at + o.second, n),
        query: new Float32Array(buffer, at + o.query, this.f),
        third: new Uint32Array(buffer, at + o.third, n),
      };
      this.slotViews.set(at, v);
    }
    return v;
  }

  // cosineScoresTo (scores.ts) over the rows; false when no scratch slot could be had (the caller
  // scores with the TypeScript kernel).
  cosineScoresTo(dst: Float32Array, item: number): boolean {
    const { n, f } = this;
    if (dst.length !== n) throw new Error(`cosineScoresTo: dst length ${dst.length}, expected n = ${n}`);
    if (!(Number.isInteger(item) && item >= 0 && item < n)) throw new Error(`cosineScoresTo: item ${item} outside [0, ${n})`);
    return this.withSlot((at) => {
      this.k.cosineScores(at, this.header[Header.factors]!, this.header[Header.norms]!, n, f, item);
      dst.set(new Float32Array(this.memory.buffer, at, n));
    });
  }

  // groupScoresTo (scores.ts) over the rows; false when no scratch slot could be had.
  groupScoresTo(dst: Float32Array, queries: readonly Float32Array[], consensus: number): boolean {
    const { n, f } = this;
    if (dst.length !== n) throw new Error(`groupScoresTo: dst length ${dst.length}, expected n = ${n}`);
    for (let q = 0; q < queries.length; q++)
      if (queries[q]!.length !== f) throw new Error(`groupScoresTo: query ${q} length ${queries[q]!.length}, expected f = ${f}`);
    return this.withSlot((at) => {
      const rows = this.header[Header.factors]!,
        low = at + this.parts.second,
        qs = at + this.parts.query;
      const count = queries.length;
      const buffer = this.memory.buffer;
      for (let from = 0; from < count; from += QUERIES) {
        const chunk = Math.min(QUERIES, count - from);
        for (let q = 0; q < chunk; q++) new Float32Array(buffer, qs + q * f * 4, f).set(queries[from + q]!);
        this.k.groupFold(at, count > 1 ? low : 0, qs, chunk, rows, n, f, from === 0 ? 1 : 0);
      }
      if (count === 0)
        new Float32Array(buffer, at, n).fill(NaN); // the mean of no dots, as in scores.ts
      else this.k.groupFinish(at, count > 1 ? low : 0, this.header[Header.norms]!, n, count, consensus);
      dst.set(new Float32Array(buffer, at, n));
    });
  }

  // positionScoresTo (scores.ts) over the list rows and their members; false when no scratch slot
  // could be had.
  positionScoresTo(dst: Float32Array, query: Float32Array, positions: Uint32Array, skip: number): boolean {
    const { listed, f } = this;
    if (query.length !== f) throw new Error(`positionScoresTo: query length ${query.length}, expected f = ${f}`);
    if (dst.length !== positions.length)
      throw new Error(`positionScoresTo: dst length ${dst.length}, expected positions length ${positions.length}`);
    for (let c = 0; c < positions.length; c++)
      if (!(positions[c]! < listed)) throw new Error(`positionScoresTo: position ${positions[c]} (at ${c}) outside [0, ${listed})`);
    return this.withSlot((at) => {
      const n = this.n,
        buffer = this.memory.buffer;
      const pos = at + this.parts.second,
        q = at + this.parts.query;
      new Float32Array(buffer, q, f).set(query);
      // A slot holds n positions (listed ≤ n); more, which repeat some, are scored n at a time.
      for (let from = 0; from < positions.length; from += n) {
        const chunk = Math.min(n, positions.length - from);
        new Uint32Array(buffer, pos, chunk).set(positions.subarray(from, from + chunk));
        this.k.positionScores(at, q, this.header[Header.listRows]!, f, this.header[Header.members]!, pos, chunk, skip >>> 0);
        dst.set(new Float32Array(buffer, at, chunk), from);
      }
    });
  }

  // boundedTopTo (bounded-top.ts, its twin) over the rows in norm order, dots and selection by the
  // kernel: the same arguments and result; undefined when no scratch slot could be had.
  vectorTopTo(
    items: Uint32Array,
    scores: Float32Array,
    k: number,
    query: Float32Array,
    queryNorm: number,
    maxRows = Infinity,
    filled = 0,
    partial = false,
  ): number | undefined {
    const { n, f } = this;
    if (query.length !== f) throw new Error(`vectorTopTo: query length ${query.length}, expected f = ${f}`);
    if (items.length < k || scores.length < k) throw new Error(`vectorTopTo: dst lengths ${items.length}/${scores.length} < k ${k}`);
    if (!(Number.isInteger(filled) && filled >= 0 && filled <= k)) throw new Error(`vectorTopTo: filled ${filled} outside [0, k = ${k}]`);
    const sorted = (this.scanned ??= this.sorted),
      h = this.header;
    // The heap lives in the slot (n entries): enough unless both k and the rows it may hold (the
    // filled ones and the scanned) exceed n.
    if (Math.min(k, filled + sorted.count) > n) return undefined;
    let got = 0;
    const done = this.withSlot((at) => {
      const v = this.views(at),
        o = this.parts;
      v.query.set(query);
      for (let j = 0; j < filled; j++) {
        v.secondScores[j] = scores[j]!;
        v.third[j] = items[j]!;
      }
      const scan = Math.min(maxRows, sorted.count);
      const quantized = this.pruned ? this.quantized : 0;
      got = this.k.boundedTop(
        at + o.third,
        at + o.second,
        k,
        filled,
        at + o.query,
        queryNorm,
        h[Header.sortedRows]!,
        h[Header.sortedNorms]!,
        h[Header.order]!,
        sorted.count,
        f,
        scan,
        partial ? 1 : 0,
        at,
        h[Header.quantRows]!,
        h[Header.quantScales]!,
        h[Header.quantErrors]!,
        h[Header.quantLengths]!,
        quantized,
        at + o.quantQuery,
      );
      for (let j = 0; j < got; j++) {
        items[j] = v.third[j]!;
        scores[j] = v.secondScores[j]!;
      }
    });
    return done ? got : undefined;
  }

  // dst[c] = the cosine of row `row` with row items[c] (up to n items), each to the bit as
  // refine-lists.ts scores it (wasm/assembly/row-cosines.ts); false when no scratch slot could be had.
  rowCosinesTo(dst: Float32Array, row: number, items: Uint32Array): boolean {
    const { n, f } = this;
    if (!(Number.isInteger(row) && row >= 0 && row < n)) throw new Error(`rowCosinesTo: row ${row} outside [0, ${n})`);
    if (dst.length < items.length) throw new Error(`rowCosinesTo: dst length ${dst.length} < items length ${items.length}`);
    if (items.length > n) throw new Error(`rowCosinesTo: ${items.length} items, a slot holds n = ${n}`);
    for (let c = 0; c < items.length; c++)
      if (!(items[c]! < n)) throw new Error(`rowCosinesTo: item ${items[c]} (at ${c}) outside [0, ${n})`);
    const h = this.header;
    return this.withSlot((at) => {
      const v = this.views(at);
      v.second.set(items);
      this.k.rowCosines(
        at,
        h[Header.factors]! + row * f * 4,
        this.norms[row]!,
        h[Header.factors]!,
        h[Header.norms]!,
        f,
        at + this.parts.second,
        items.length,
      );
      dst.set(v.first.subarray(0, items.length));
    });
  }

  // rowDotsTo (scores.ts) over the rows, for up to n items (distinct rows: a session's candidates);
  // false when no scratch slot could be had.
  rowDotsTo(dst: Float32Array, query: Float32Array, items: Uint32Array): boolean {
    const { n, f } = this;
    if (query.length !== f) throw new Error(`rowDotsTo: query length ${query.length}, expected f = ${f}`);
    if (dst.length < items.length) throw new Error(`rowDotsTo: dst length ${dst.length} < items length ${items.length}`);
    if (items.length > n) throw new Error(`rowDotsTo: ${items.length} items, a slot holds n = ${n}`);
    for (let c = 0; c < items.length; c++) if (!(items[c]! < n)) throw new Error(`rowDotsTo: item ${items[c]} (at ${c}) outside [0, ${n})`);
    return this.withSlot((at) => {
      const rows = at + this.parts.second,
        q = at + this.parts.query;
      const v = this.views(at);
      v.query.set(query);
      v.second.set(items);
      this.k.rowDots(at, q, this.header[Header.factors]!, f, rows, items.length);
      dst.set(v.first.subarray(0, items.length));
    });
  }

  // For kernels laid out in other files (wasm-user-lists.ts): the kernels over this memory, the byte
  // offsets of the rows in norm order, and the bytes of a scratch slot.
  get kernels(): ScoreKernels {
    return this.k;
  }
  get sortedAt(): { order: number; norms: number; rows: number; count: number } {
    const h = this.header;
    return { order: h[Header.order]!, norms: h[Header.sortedNorms]!, rows: h[Header.sortedRows]!, count: h[Header.count]! };
  }
  get slotBytes(): number {
    return this.header[Header.slotBytes]!;
  }

  // Runs `score` with a free scratch slot's byte offset, adding a slot when all are busy; false when
  // none could be had (MAX_SLOTS calls at once, or the memory at its maximum).
  withSlot(score: (at: number) => void): boolean {
    const h = this.header;
    let s = -1;
    const count = Math.min(MAX_SLOTS, Atomics.load(h, Header.slots));
    for (let c = 0; c < count && s < 0; c++) if (Atomics.compareExchange(h, Header.state + c, FREE, BUSY) === FREE) s = c;
    if (s < 0) {
      s = Atomics.add(h, Header.slots, 1);
      if (s >= MAX_SLOTS) return false;
      let at: number;
      try {
        at = this.memory.grow(Math.ceil(h[Header.slotBytes]! / PAGE)) * PAGE;
      } catch {
        return false; // slot s stays ABSENT: never claimed
      }
      Atomics.store(h, Header.offset + s, at);
      Atomics.store(h, Header.state + s, BUSY);
    }
    try {
      score(Atomics.load(h, Header.offset + s));
    } finally {
      Atomics.store(h, Header.state + s, FREE);
    }
    return true;
  }
}
