// Precomputed recommendation tables: named item_to_items / profile_to_items tables a background
// task (`precomputed_tables`) builds from the current model, and the precomputed endpoints that
// read them. A table read once stays in this process until it is rebuilt or deleted (announced),
// so warm reads answer in the same tick.
import type { Explanation } from './explanations.js';
import { LRUCache } from 'lru-cache';
import { ApiError, notFound, wrongData } from '../../../errors/api-error.js';
import type { ModelRegistry } from '../../../engine/model/registry.js';
import type { TrainingScheduler } from '../../../engine/training/scheduler.js';
import type { Claims } from '../../../contract/claims.js';
import type { EntitiesStore } from '../../../store/entities-store.js';
import type { TableDef, TableKind, TablesStore } from '../../../store/tables-store.js';
import type { IdValue } from '../../ids/id-types.js';
import { shownId, type Parsed } from '../../ids/request-ids.js';

const KINDS: readonly TableKind[] = ['item_to_items', 'profile_to_items'];
const NONE = 0xffffffff;
const HELD_TABLES = 32;
const HELD_USER_INDICES = 100_000;

interface Loaded {
  def: TableDef;
  rows: Uint32Array; // rows × amt
}

type Keep = (item: number) => boolean;

export type PrecomputedAnswer = {
  items_id: IdValue[];
  explanations?: Explanation[];
  warnings: string[];
};

export class TableService {
  private readonly loaded = new LRUCache<string, Loaded>({ max: HELD_TABLES });
  // Dense indices never change, so a user's index, once read, can be kept.
  private readonly userIndex = new LRUCache<string, number>({ max: HELD_USER_INDICES });

  constructor(
    private readonly store: TablesStore,
    private readonly scheduler: TrainingScheduler,
    private readonly registry: ModelRegistry,
    private readonly entities: EntitiesStore,
  ) {}

  // PUT precomputed-tables/<name>/: defines (or redefines) a table and queues its build.
  async define(db: string, name: string, recoType: unknown, amt: unknown) {
    if (typeof recoType !== 'string' || !(KINDS as readonly string[]).includes(recoType)) {
      throw wrongData('WRONG_PARAMETER', `reco_type must be one of ${KINDS.join(', ')}`, { field: 'reco_type' });
    }
    const rows = amt === undefined ? 64 : amt;
    if (typeof rows !== 'number' || !Number.isInteger(rows) || rows < 1 || rows > 64)
      throw wrongData('WRONG_PARAMETER', 'amt must be an integer from 1 to 64', { field: 'amt' });
    await this.store.define(db, { name, reco_type: recoType as TableKind, amt: rows, created: Date.now() / 1000, built: null });
    this.changed(db, name); // other processes learn it when the rebuild is announced
    const r = await this.scheduler.trigger(db, 'precomputed_tables', `table ${name} defined: waiting for a trainer`);
    if (r === undefined)
      throw new ApiError(
        'ServerUnavailable',
        'STORAGE_UNAVAILABLE',
        `table ${name} is defined but its build could not be queued (runs were starting): define it again`,
      );
    return { task_id: r.taskId, warnings: [] as string[] };
  }

  async list(db: string) {
    return { tables: await this.store.list(db), warnings: [] as string[] };
  }

  async remove(db: string, name: string): Promise<void> {
    const removed = await this.store.remove(db, name);
    this.changed(db, name); // at once here; other processes by the announcement
    if (!removed) throw notFound('TABLE_NOT_FOUND', 'table', name);
  }

  // A table was rebuilt or deleted somewhere.
  changed(db: string, name: string): void {
    this.loaded.delete(`${db} ${name}`);
  }

  // GET recommendation/precomputed/items/<item_id>/items/?table=
  // keep: which items may be answered; amt: how many at most.
  forItem(
    auth: Claims,
    db: string,
    item: Parsed,
    table: string | undefined,
    keep?: Keep,
    amt?: number,
  ): PrecomputedAnswer | Promise<PrecomputedAnswer> {
    const t = this.loaded.get(`${db} ${table}`);
    const model = this.registry.held(db);
    const idx = model?.itemIndex.get(item.key);
    if (t && model && idx !== undefined && t.def.reco_type === 'item_to_items') return this.answer(auth, db, t, idx, keep, amt);
    return this.later(auth, db, table, 'item_to_items', keep, amt, async () => {
      const i = (await this.registry.current(db))?.itemIndex.get(item.key) ?? (await this.entities.indexOf(db, 'item', item.key));
      if (i === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value);
      return i;
    });
  }

  // GET recommendation/precomputed/users/<user_id>/items/?table=
  forUser(
    auth: Claims,
    db: string,
    user: Parsed,
    table: string | undefined,
    keep?: Keep,
    amt?: number,
  ): PrecomputedAnswer | Promise<PrecomputedAnswer> {
    const t = this.loaded.get(`${db} ${table}`);
    const idx = this.userIndex.get(`${db} ${user.key}`);
    if (t && idx !== undefined && t.def.reco_type === 'profile_to_items' && this.registry.held(db))
      return this.answer(auth, db, t, idx, keep, amt);
    return this.later(auth, db, table, 'profile_to_items', keep, amt, async () => {
      const u = await this.entities.indexOf(db, 'user', user.key);
      if (u === undefined) throw notFound('USER_NOT_FOUND', 'user', user.value);
      this.userIndex.set(`${db} ${user.key}`, u);
      return u;
    });
  }

  private async later(
    auth: Claims,
    db: string,
    table: string | undefined,
    kind: TableKind,
    keep: Keep | undefined,
    amt: number | undefined,
    row: () => Promise<number>,
  ): Promise<PrecomputedAnswer> {
    if (table === undefined || table === '')
      throw wrongData('WRONG_PARAMETER', 'table is required: the name of a precomputed table', { field: 'table' });
    const t = await this.load(db, table);
    if (t.def.reco_type !== kind)
      throw wrongData('WRONG_DATA_TYPE', `table ${JSON.stringify(table)} holds ${t.def.reco_type}, not ${kind}`, { field: 'table' });
    const idx = await row();
    await this.registry.current(db); // item ids come from the served model
    return this.answer(auth, db, t, idx, keep, amt);
  }

  private async load(db: string, name: string): Promise<Loaded> {
    const held = this.loaded.get(`${db} ${name}`);
    if (held) return held;
    const def = await this.store.get(db, name);
    const blob = def?.built ? await this.store.rows(db, name) : undefined;
    if (!def?.built || !blob)
      throw notFound('TABLE_NOT_FOUND', 'table', name, def ? `table ${JSON.stringify(name)} is not built yet` : undefined);
    const rows = new Uint32Array(new Uint8Array(blob).buffer); // copied: a reply's bytes may be unaligned
    const t = { def, rows };
    this.loaded.set(`${db} ${name}`, t);
    return t;
  }

  private answer(auth: Claims, db: string, t: Loaded, row: number, keep: Keep | undefined, most = Infinity): PrecomputedAnswer {
    const model = this.registry.held(db);
    const { amt } = t.def;
    if (row >= t.def.built!.rows)
      return { items_id: [], warnings: ['newer than the table: it has no row for this id until it is rebuilt'] };
    const out: IdValue[] = [];
    for (let k = row * amt; k < (row + 1) * amt && out.length < most; k++) {
      const i = t.rows[k]!;
      if (i === NONE) break;
      const id = model?.itemIds[i];
      if (id && (!keep || keep(i))) out.push(shownId(auth, 'item', id));
    }
    return { items_id: out, warnings: [] };
  }
}
