// A process's in-memory copy of one database's items (or users): every record's bytes, its id, and
// per property a column for filters — numbers and booleans in Float64Arrays (NaN where missing),
// strings dictionary-encoded in Int32Arrays (-1 where missing), repeated values as CSR (offsets into
// one values array). Reads served from it answer in the same tick; the owning Catalogue keeps it
// current from the change stream (catalogues.ts).
import { LRUCache } from 'lru-cache';
import type { EntitiesStore, EntityKind } from '../../store/entities-store.js';
import { decodeRecord, type EntityRecord } from '../../store/entity-record.js';
import { Segments } from './segments.js';

type Scalar = number | boolean | string;
type Kind = 'number' | 'bool' | 'text';

interface ScalarColumn {
  list: false;
  kind: Kind;
  values: Float64Array; // numbers, 0/1, or string codes; NaN where missing
}

interface ListColumn {
  list: true;
  kind: Kind | undefined; // of the elements; unknown while every list seen was empty
  values: Segments<Float64Array>;
}

type ViewColumn = ScalarColumn | ListColumn;

const SCAN_SPAN = 2000;
const MEMOS = 10_000;

export class CatalogueView {
  state: 'cold' | 'building' | 'ready' = 'cold';
  size = 0; // indices covered
  version = 0; // bumped by every change of a record: what derived caches (filter masks) check
  private readonly ids = new Map<string, number>();
  private records = new Segments(new Uint8Array(0), (n) => new Uint8Array(n));
  private readonly columns = new Map<number, ViewColumn>(); // property storage sequence -> column
  private readonly dict = new Map<string, number>();
  private readonly strings: string[] = [];
  private pending = new Set<number>(); // changed while building: read again once built
  private built: Promise<void> | undefined;
  // Values derived from one record (a presented answer), dropped when the record changes.
  private readonly memos = new LRUCache<number, { key: object; value: unknown }>({ max: MEMOS });

  constructor(
    private readonly store: EntitiesStore,
    private readonly db: string,
    private readonly kind: EntityKind,
  ) {}

  // Starts the first build (in the background) and tells when it is done.
  ready(): Promise<void> {
    this.built ??= this.build();
    return this.built;
  }

  // Indices changed in storage: read again (queued while the first build runs; ignored before it).
  async changed(idxs: Iterable<number>): Promise<void> {
    if (this.state === 'cold') return;
    if (this.state === 'building') {
      for (const i of idxs) this.pending.add(i);
      return;
    }
    await this.reload([...idxs]);
  }

  has(idx: number): boolean {
    return this.records.has(idx);
  }

  record(idx: number): EntityRecord | undefined {
    return this.records.has(idx) ? decodeRecord(this.records.get(idx)) : undefined;
  }

  // The bytes of an index's stored record (0: none).
  recordBytes(idx: number): number {
    return this.records.has(idx) ? this.records.get(idx).length : 0;
  }

  // The index of an id that has a record.
  indexOf(id: string): number | undefined {
    const idx = this.ids.get(id);
    return idx !== undefined && this.records.has(idx) ? idx : undefined;
  }

  byId(id: string): EntityRecord | undefined {
    const idx = this.indexOf(id);
    return idx === undefined ? undefined : this.record(idx);
  }

  // build(record) computed once per record version and `key` (what else the value depends on).
  memo<T>(idx: number, key: object, build: (record: EntityRecord) => T): T {
    const hit = this.memos.get(idx);
    if (hit && hit.key === key) return hit.value as T;
    const value = build(this.record(idx)!);
    this.memos.set(idx, { key, value });
    return value;
  }

  // A values accessor for the filter rules: `get(seq)` reads a property's column at one index.
  at(idx: number): ReadonlyMap<number, unknown> {
    return { get: (seq: number) => this.value(seq, idx) } as ReadonlyMap<number, unknown>;
  }

  // Every index's (property, value) pairs, numbered densely, as CSR: what ml_new_items averages over.
  features(): { indptr: Uint32Array; indices: Uint32Array; count: number } {
    const ids = new Map<string, number>();
    const id = (seq: number, v: number) => {
      const key = `${seq} ${v}`;
      let f = ids.get(key);
      if (f === undefined) ids.set(key, (f = ids.size));
      return f;
    };
    const indptr = new Uint32Array(this.size + 1);
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) {
      for (const [seq, col] of this.columns) {
        if (!col.list) {
          const v = col.values[i]!;
          if (!Number.isNaN(v)) out.push(id(seq, v));
        } else if (col.values.has(i)) {
          for (const v of col.values.get(i)) out.push(id(seq, v));
        }
      }
      indptr[i + 1] = out.length;
    }
    return { indptr, indices: Uint32Array.from(out), count: ids.size };
  }

  private value(seq: number, idx: number): unknown {
    const col = this.columns.get(seq);
    if (!col || idx >= this.size) return undefined;
    if (!col.list) {
      const v = col.values[idx]!;
      return Number.isNaN(v) ? undefined : this.scalar(col.kind, v);
    }
    if (!col.values.has(idx)) return undefined;
    return Array.from(col.values.get(idx), (v) => this.scalar(col.kind!, v));
  }

  private scalar(kind: Kind, v: number): Scalar {
    return kind === 'number' ? v : kind === 'bool' ? v === 1 : this.strings[v]!;
  }

  private async build(): Promise<void> {
    this.state = 'building';
    for (let at = 0; ; ) {
      const chunk = await this.store.scan(this.db, this.kind, at, SCAN_SPAN);
      this.grow(chunk.total);
      for (const r of chunk.records) this.put(r.idx, r.blob);
      if (chunk.next >= chunk.total) break;
      at = chunk.next;
    }
    while (this.pending.size > 0) {
      const idxs = [...this.pending];
      this.pending.clear();
      await this.reload(idxs);
    }
    this.state = 'ready';
  }

  private async reload(idxs: number[]): Promise<void> {
    const blobs = await this.store.readAt(this.db, this.kind, idxs);
    idxs.forEach((idx, i) => (blobs[i] ? this.put(idx, blobs[i]!) : this.drop(idx)));
  }

  private put(idx: number, blob: Uint8Array): void {
    this.grow(idx + 1);
    const { id, values } = decodeRecord(blob);
    this.records.set(idx, blob);
    this.version++;
    this.memos.delete(idx);
    this.ids.set(id, idx);
    for (const [seq, col] of this.columns) if (!(seq in values)) clearAt(col, idx);
    for (const seq in values) this.setValue(Number(seq), idx, values[seq]);
  }

  private drop(idx: number): void {
    if (idx >= this.size) return;
    this.records.clear(idx); // the id stays mapped: indices are never reused
    this.version++;
    this.memos.delete(idx);
    for (const col of this.columns.values()) clearAt(col, idx);
  }

  private setValue(seq: number, idx: number, v: unknown): void {
    let col = this.columns.get(seq);
    if (Array.isArray(v)) {
      if (!col)
        this.columns.set(
          seq,
          (col = { list: true, kind: undefined, values: new Segments(new Float64Array(0), (n) => new Float64Array(n)) }),
        );
      if (!col.list) return; // cannot happen: a property's type never changes
      col.values.grow(this.capacity());
      if (v.length > 0) col.kind ??= kindOf(v[0]);
      col.values.set(
        idx,
        v.map((x) => this.number(x as Scalar)),
      );
      return;
    }
    if (!col) {
      const values = new Float64Array(this.capacity()).fill(NaN);
      this.columns.set(seq, (col = { list: false, kind: kindOf(v), values }));
    }
    if (!col.list) col.values[idx] = this.number(v as Scalar);
  }

  private number(v: Scalar): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    let c = this.dict.get(v);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(v);
      this.dict.set(v, c);
    }
    return c;
  }

  private capacity(): number {
    return this.records.start.length;
  }

  private grow(n: number): void {
    if (n > this.capacity()) {
      const cap = Math.max(n, this.capacity() * 2, 1024);
      this.records.grow(cap);
      for (const col of this.columns.values()) {
        if (col.list) col.values.grow(cap);
        else {
          const values = new Float64Array(cap).fill(NaN);
          values.set(col.values);
          col.values = values;
        }
      }
    }
    if (n > this.size) this.size = n;
  }
}

function kindOf(v: unknown): Kind {
  return typeof v === 'string' ? 'text' : typeof v === 'boolean' ? 'bool' : 'number';
}

function clearAt(col: ViewColumn, idx: number): void {
  if (col.list) col.values.clear(idx);
  else col.values[idx] = NaN;
}
