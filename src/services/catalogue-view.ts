// A process's columnar view of one database's item (or user) values: numbers and booleans in
// Float64Arrays (NaN where missing), strings dictionary-encoded in Int32Arrays (-1 where missing),
// repeated values per index. Kept current from the catalogue change stream: `refresh()` applies
// every entry up to the stream's last one before a caller reads, so a process reads its own writes.
import type { EntitiesStore, EntityKind, EntityRecord } from '../store/entities-store.js';
import type { PropertyDef } from '../store/properties-store.js';
import { unpack } from '../store/records.js';
import { valueType } from './value-types.js';

interface Column {
  kind: 'number' | 'bool' | 'text' | 'list';
  nums: Float64Array; // number and bool
  codes: Int32Array; // text
  lists: (unknown[] | undefined)[]; // repeated
}

const SCAN_SPAN = 2000;

export class CatalogueView {
  private applied = '0-0';
  private built = false;
  size = 0; // indices covered
  private present = new Uint8Array(0);
  private readonly columns = new Map<string, Column>(); // storage field -> column
  private readonly dict = new Map<string, number>();
  private readonly strings: string[] = [];

  constructor(
    private readonly store: EntitiesStore,
    private readonly db: string,
    private readonly kind: EntityKind,
  ) {}

  private refreshing: Promise<void> | undefined;

  // Concurrent callers share one refresh; a caller arriving during a refresh waits for it and then
  // runs its own, so it still sees every write made before it asked.
  async refresh(defs: ReadonlyMap<string, PropertyDef>): Promise<void> {
    while (this.refreshing) await this.refreshing.catch(() => undefined);
    this.refreshing = this.update(defs);
    try {
      await this.refreshing;
    } finally {
      this.refreshing = undefined;
    }
  }

  private async update(defs: ReadonlyMap<string, PropertyDef>): Promise<void> {
    const fields = new Map([...defs.values()].map((d) => [d.field, d]));
    let c = await this.store.changes(this.db, this.applied);
    // Never built, or the stream's oldest entry is newer than what we applied (entries in between may
    // have been trimmed away): read everything again.
    if (!this.built || (c.first !== undefined && compareIds(c.first, this.applied) > 0)) {
      this.reset();
      const last = c.last ?? '0-0';
      for (let at = 0; ; ) {
        const chunk = await this.store.scan(this.db, this.kind, at, SCAN_SPAN);
        for (const r of chunk.records) this.put(r.idx, r, fields);
        this.grow(chunk.total);
        if (chunk.next >= chunk.total) break;
        at = chunk.next;
      }
      this.applied = last;
      this.built = true;
      c = await this.store.changes(this.db, this.applied);
    }
    const touched = new Set<number>();
    for (const e of c.entries) if (e.kind === this.kind) for (const i of e.idxs) touched.add(i);
    if (touched.size > 0) {
      const idxs = [...touched];
      const records = await this.store.readAt(this.db, this.kind, idxs);
      idxs.forEach((idx, i) => (records[i] ? this.put(idx, records[i]!, fields) : this.drop(idx)));
    }
    if (c.entries.length > 0) this.applied = c.entries[c.entries.length - 1]!.id;
  }

  has(idx: number): boolean {
    return this.present[idx] === 1;
  }

  // A values accessor for the filter rules: `get(field)` reads the column at one index.
  at(idx: number): ReadonlyMap<string, unknown> {
    const view = this;
    return {
      get(field: string) {
        return view.value(field, idx);
      },
    } as ReadonlyMap<string, unknown>;
  }

  private value(field: string, idx: number): unknown {
    const col = this.columns.get(field);
    if (!col || idx >= this.size) return undefined;
    switch (col.kind) {
      case 'number': {
        const v = col.nums[idx]!;
        return Number.isNaN(v) ? undefined : v;
      }
      case 'bool': {
        const v = col.nums[idx]!;
        return Number.isNaN(v) ? undefined : v === 1;
      }
      case 'text': {
        const code = col.codes[idx]!;
        return code < 0 ? undefined : this.strings[code];
      }
      case 'list':
        return col.lists[idx];
    }
  }

  private put(idx: number, record: EntityRecord, fields: ReadonlyMap<string, PropertyDef>): void {
    this.grow(idx + 1);
    this.present[idx] = 1;
    for (const col of this.columns.values()) clear(col, idx);
    for (const [field, bytes] of record.values) {
      const def = fields.get(field);
      if (!def) continue; // a deleted property's leftover value
      const col = this.column(field, def);
      const v = unpack<unknown>(bytes);
      if (col.kind === 'list') col.lists[idx] = v as unknown[];
      else if (col.kind === 'text') col.codes[idx] = this.code(v as string);
      else col.nums[idx] = col.kind === 'bool' ? (v ? 1 : 0) : (v as number);
    }
  }

  private drop(idx: number): void {
    if (idx >= this.size) return;
    this.present[idx] = 0;
    for (const col of this.columns.values()) clear(col, idx);
  }

  private column(field: string, def: PropertyDef): Column {
    let col = this.columns.get(field);
    if (!col) {
      const type = valueType(def.value_type)!;
      const kind = def.repeated ? 'list' : type.kind === 'unicode' ? 'text' : type.kind === 'bool' ? 'bool' : 'number';
      col = { kind, nums: new Float64Array(0), codes: new Int32Array(0), lists: [] };
      resize(col, this.present.length);
      this.columns.set(field, col);
    }
    return col;
  }

  private code(s: string): number {
    let c = this.dict.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(s);
      this.dict.set(s, c);
    }
    return c;
  }

  private grow(n: number): void {
    if (n > this.present.length) {
      const cap = Math.max(n, this.present.length * 2, 1024);
      const present = new Uint8Array(cap);
      present.set(this.present);
      this.present = present;
      for (const col of this.columns.values()) resize(col, cap);
    }
    if (n > this.size) this.size = n;
  }

  private reset(): void {
    this.size = 0;
    this.present = new Uint8Array(0);
    this.columns.clear();
    this.dict.clear();
    this.strings.length = 0;
  }
}

function resize(col: Column, cap: number): void {
  if (col.kind === 'number' || col.kind === 'bool') {
    const nums = new Float64Array(cap).fill(NaN);
    nums.set(col.nums.subarray(0, Math.min(col.nums.length, cap)));
    col.nums = nums;
  } else if (col.kind === 'text') {
    const codes = new Int32Array(cap).fill(-1);
    codes.set(col.codes.subarray(0, Math.min(col.codes.length, cap)));
    col.codes = codes;
  }
}

function clear(col: Column, idx: number): void {
  if (col.kind === 'list') col.lists[idx] = undefined;
  else if (col.kind === 'text') col.codes[idx] = -1;
  else col.nums[idx] = NaN;
}

// Stream ids are `<ms>-<seq>`.
function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am !== bm ? am - bm : as - bs;
}

// One view per database and kind in this process, the least recently used dropped past `max`.
export class CatalogueViews {
  private readonly views = new Map<string, CatalogueView>();

  constructor(
    private readonly store: EntitiesStore,
    private readonly max = 64,
  ) {}

  get(db: string, kind: EntityKind): CatalogueView {
    const key = `${db}:${kind}`;
    let view = this.views.get(key);
    if (view) this.views.delete(key);
    else view = new CatalogueView(this.store, db, kind);
    this.views.set(key, view);
    if (this.views.size > this.max) this.views.delete(this.views.keys().next().value!);
    return view;
  }
}
