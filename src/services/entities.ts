// Items and users, one or many at a time: identifiers checked against the database's ID types,
// property values against their definitions, then written atomically (one store call per request).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError, duplicated, notFound, wrongData } from '../errors/api-error.js';
import type { Claims } from '../http/types.js';
import type { EntitiesStore, EntityKind, EntityRecord, EntityWrite, WriteMode } from '../store/entities-store.js';
import type { PropertiesStore, PropertyDef } from '../store/properties-store.js';
import { pack, unpack } from '../store/records.js';
import type { TasksStore } from '../store/tasks-store.js';
import type { CatalogueViews } from './catalogue-view.js';
import { compileFilters, LISTING_OPS } from './filters.js';
import { idType, type IdValue } from './id-types.js';
import { valueType } from './value-types.js';

export type { EntityKind };

const NAMES = {
  item: {
    idField: 'item_id',
    indexField: 'item_index',
    idError: 'INCORRECT_ITEM_ID_TYPE',
    notFound: 'ITEM_NOT_FOUND',
    propertyNotFound: 'ITEM_PROPERTY_NOT_FOUND',
    duplicated: 'DUPLICATED_ITEM_ID',
    created: 'item_created',
    modified: 'item_modified',
  },
  user: {
    idField: 'user_id',
    indexField: 'user_index',
    idError: 'INCORRECT_USER_ID_TYPE',
    notFound: 'USER_NOT_FOUND',
    propertyNotFound: 'USER_PROPERTY_NOT_FOUND',
    duplicated: 'DUPLICATED_USER_ID',
    created: 'user_created',
    modified: 'user_modified',
  },
} as const;

interface Parsed {
  key: string; // canonical id as stored
  value: IdValue; // canonical id as JSON shows it
}

// Repeated values given column-wise: `{name, array: [{item_index, value_id}]}` (index into the request's list).
export interface M2m {
  name: string;
  array: Record<string, unknown>[];
}

export interface BulkInput {
  records: Record<string, unknown>[];
  m2m: M2m[] | undefined;
  mode: 'replace' | 'merge';
  createIfMissing: boolean;
  wait: boolean;
}

type Defs = Map<string, PropertyDef>;

export class EntityService {
  constructor(
    private readonly store: EntitiesStore,
    private readonly properties: PropertiesStore,
    private readonly tasks: TasksStore,
    private readonly views: CatalogueViews,
    private readonly logger: Logger,
  ) {}

  async get(auth: Claims, db: string, kind: EntityKind, rawId: string) {
    const id = parseId(auth, kind, rawId, false);
    const [defs, [record]] = await Promise.all([this.definitions(db, kind), this.store.read(db, kind, [id.key])]);
    if (!record) throw notFound(NAMES[kind].notFound, kind, id.value);
    return { [kind]: present(auth, kind, defs, record, undefined), warnings: [] as string[] };
  }

  // Records of the ids that exist, in request order; `properties` limits the fields shown.
  async list(auth: Claims, db: string, kind: EntityKind, rawIds: unknown[], properties: string[] | undefined) {
    const ids = rawIds.map((raw) => parseId(auth, kind, raw, false));
    const [defs, records] = await Promise.all([this.definitions(db, kind), this.store.read(db, kind, ids.map((i) => i.key))]);
    const { only, warnings } = projection(kind, defs, properties);
    const out = records.filter((r): r is EntityRecord => r !== undefined).map((r) => present(auth, kind, defs, r, only));
    return { [`${kind}s`]: out, warnings };
  }

  // One page of the listing, in index order; filters and `properties` as in the spec's bulk listing.
  async page(auth: Claims, db: string, kind: EntityKind, q: { amt: number; cursor?: string; properties?: string[]; filters?: string[] }) {
    const defs = await this.definitions(db, kind);
    const keep = q.filters && q.filters.length > 0 ? compileFilters(q.filters, defs, LISTING_OPS, NAMES[kind].propertyNotFound) : undefined;
    const { only, warnings } = projection(kind, defs, q.properties);
    let at = q.cursor === undefined || q.cursor === '' ? 0 : decodeCursor(q.cursor);
    if (keep) return this.filteredPage(auth, db, kind, defs, keep, at, q.amt, only, warnings);
    const out: Record<string, unknown>[] = [];
    let total = Infinity;
    while (out.length < q.amt && at < total) {
      const chunk = await this.store.scan(db, kind, at, Math.max(q.amt * 2, 256));
      total = chunk.total;
      at = chunk.next;
      for (const r of chunk.records) {
        out.push(present(auth, kind, defs, r, only));
        if (out.length === q.amt) {
          at = r.idx + 1;
          break;
        }
      }
    }
    const hasNext = at < total;
    return { [`${kind}s`]: out, has_next: hasNext, next_cursor: hasNext ? encodeCursor(at) : '', warnings };
  }

  // Filters run over this process's columnar view (brought up to date first); only the matching
  // records of the page are read from storage. has_next is exact: it looks for one more match.
  private async filteredPage(
    auth: Claims,
    db: string,
    kind: EntityKind,
    defs: Defs,
    keep: (values: ReadonlyMap<string, unknown>) => boolean,
    from: number,
    amt: number,
    only: Set<string> | undefined,
    warnings: string[],
  ) {
    const view = this.views.get(db, kind);
    await view.refresh(defs);
    const idxs: number[] = [];
    let at = from;
    for (; at < view.size && idxs.length < amt; at++) if (view.has(at) && keep(view.at(at))) idxs.push(at);
    let more = at;
    while (more < view.size && !(view.has(more) && keep(view.at(more)))) more++;
    const hasNext = more < view.size;
    const records = await this.store.readAt(db, kind, idxs);
    const out = records.filter((r): r is EntityRecord => r !== undefined).map((r) => present(auth, kind, defs, r, only));
    return { [`${kind}s`]: out, has_next: hasNext, next_cursor: hasNext ? encodeCursor(more) : '', warnings };
  }

  // PUT: replaces every value. wait=false answers once the values are checked, and writes after.
  async put(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, wait: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const write = { id: id.key, values: checkValues(auth, kind, defs, id, values, 'replace', warnings) };
    if (!wait) {
      this.background(db, kind, 'replace', [write]);
      return { accepted: true, warnings };
    }
    await this.written(db, kind, 'replace', [write], [id]);
    return { accepted: false, warnings };
  }

  // PATCH: changes the listed values only; null removes a value.
  async patch(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, createIfMissing: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const write = { id: id.key, values: checkValues(auth, kind, defs, id, values, 'merge', warnings) };
    const r = await this.written(db, kind, createIfMissing ? 'merge' : 'merge-existing', [write], [id]);
    return { [NAMES[kind].created]: r.created[0], [NAMES[kind].modified]: r.modified[0], warnings };
  }

  // Bulk PUT/PATCH: every record checked before anything is written; one atomic write.
  async bulk(auth: Claims, db: string, kind: EntityKind, input: BulkInput) {
    const names = NAMES[kind];
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const seen = new Set<string>();
    const ids: Parsed[] = [];
    const writes: EntityWrite[] = input.records.map((record, i) => {
      if (record[names.idField] === undefined) throw wrongData('WRONG_DATA_TYPE', `${kind}s[${i}] has no ${names.idField}`, { field: `${kind}s.${i}` });
      const id = parseId(auth, kind, record[names.idField], true);
      if (seen.has(id.key)) throw duplicated(names.duplicated, kind, id.value, `${names.idField} ${JSON.stringify(id.value)} appears twice in this request`);
      seen.add(id.key);
      ids.push(id);
      return { id: id.key, values: checkValues(auth, kind, defs, id, record, input.mode, warnings) };
    });
    if (input.m2m) applyM2m(kind, defs, input.m2m, writes, ids, input.records);
    const mode: WriteMode = input.mode === 'replace' ? 'replace' : input.createIfMissing ? 'merge' : 'merge-existing';
    if (!input.wait) {
      this.background(db, kind, mode, writes);
      return { accepted: true, body: { warnings: dedupe(warnings) } };
    }
    const r = await this.written(db, kind, mode, writes, ids);
    const nCreated = r.created.filter(Boolean).length;
    const body: Record<string, unknown> = { n_created: nCreated, n_modified: r.modified.filter(Boolean).length, warnings: dedupe(warnings) };
    if (kind === 'item' && nCreated > 0) body.ml_task_id = await this.newItemsTask(db);
    return { accepted: false, body };
  }

  // Removes the property values; entities stay known (their ratings and interactions are kept).
  async remove(auth: Claims, db: string, kind: EntityKind, rawIds: unknown[]): Promise<void> {
    const ids = rawIds.map((raw) => parseId(auth, kind, raw, false));
    await this.definitions(db, kind); // DATABASE_NOT_FOUND for a deleted database
    await this.store.remove(db, kind, ids.map((i) => i.key));
  }

  private background(db: string, kind: EntityKind, mode: WriteMode, writes: EntityWrite[]): void {
    this.store.write(db, kind, mode, writes).catch((err) => this.logger.error({ err, db, kind, n: writes.length }, 'background write failed'));
  }

  private async written(db: string, kind: EntityKind, mode: WriteMode, writes: EntityWrite[], ids: Parsed[]) {
    const r = await this.store.write(db, kind, mode, writes);
    if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
    if (r.kind === 'missing') throw notFound(NAMES[kind].notFound, kind, ids[r.position]!.value);
    return r;
  }

  // Factors for new items come from the engine once a model exists; until then the task has nothing to do.
  private async newItemsTask(db: string): Promise<string> {
    const now = Date.now() / 1000;
    const task_id = randomUUID();
    await this.tasks.put(db, { task_id, name: 'ml_new_items', start_time: now, end_time: now, status: 'COMPLETED', progress: 'no trained model yet', error: null });
    return task_id;
  }

  private async definitions(db: string, kind: EntityKind): Promise<Defs> {
    const defs = await this.properties.list(db, kind);
    if (defs === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return new Map(defs.map((d) => [d.property_name.toLowerCase(), d]));
  }
}

// A record as clients see it: the id, then values under their defined names, in definition order
// (values kept for properties deleted since are not shown).
function present(auth: Claims, kind: EntityKind, defs: Defs, record: EntityRecord, only: Set<string> | undefined) {
  const out: Record<string, unknown> = { [NAMES[kind].idField]: parseId(auth, kind, record.id, false).value };
  for (const def of defs.values()) {
    const bytes = record.values.get(def.field);
    if (bytes !== undefined && (only === undefined || only.has(def.field))) out[def.property_name] = unpack(bytes);
  }
  return out;
}

// The `properties` parameter: the storage fields to show (all when absent), and a warning naming
// names that are not defined.
function projection(kind: EntityKind, defs: Defs, names: string[] | undefined): { only: Set<string> | undefined; warnings: string[] } {
  if (names === undefined) return { only: undefined, warnings: [] };
  const only = new Set<string>();
  const unknown: string[] = [];
  for (const n of names) {
    const def = defs.get(n.toLowerCase());
    if (def) only.add(def.field);
    else unknown.push(n);
  }
  return { only, warnings: unknown.length > 0 ? [`not defined as ${kind} properties, ignored: ${unknown.join(', ')}`] : [] };
}

// Every value checked against its property; unknown fields are named in a warning.
function checkValues(auth: Claims, kind: EntityKind, defs: Defs, id: Parsed, values: Record<string, unknown>, mode: 'replace' | 'merge', warnings: string[]) {
  const fields = new Map<string, Buffer | null>();
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (name === NAMES[kind].idField) {
      if (parseId(auth, kind, value, false).key !== id.key) {
        throw wrongData('WRONG_PARAMETER', `${name} in the body differs from the one in the path`, { field: name });
      }
      continue;
    }
    const def = defs.get(name.toLowerCase());
    if (!def) {
      ignored.push(name);
      continue;
    }
    if (value === null) {
      if (mode === 'merge') fields.set(def.field, null);
      continue;
    }
    fields.set(def.field, pack(checkValue(def, value, kind, id)));
  }
  if (ignored.length > 0) warnings.push(`not defined as ${kind} properties, ignored: ${ignored.join(', ')}`);
  return fields;
}

function checkValue(def: PropertyDef, value: unknown, kind: EntityKind, id: Parsed): unknown {
  const type = valueType(def.value_type)!;
  const fail = (why: string) =>
    wrongData('WRONG_DATA_TYPE', `property ${def.property_name} of ${kind} ${JSON.stringify(id.value)}: ${why}`, {
      property: def.property_name,
      [NAMES[kind].idField]: id.value,
    });
  if (def.repeated) {
    if (!Array.isArray(value)) throw fail(`a repeated property takes a list of ${def.value_type} values`);
    return value.map((v) => {
      const r = type.check(v);
      if (!r.ok) throw fail(r.why);
      return r.value;
    });
  }
  if (Array.isArray(value)) throw fail(`takes one ${def.value_type} value, not a list`);
  const r = type.check(value);
  if (!r.ok) throw fail(r.why);
  return r.value;
}

// m2m rows append to the repeated property's list of the record they point at (after any list the
// record itself gives).
function applyM2m(kind: EntityKind, defs: Defs, m2m: M2m[], writes: EntityWrite[], ids: Parsed[], records: Record<string, unknown>[]): void {
  const indexField = NAMES[kind].indexField;
  for (const block of m2m) {
    const def = defs.get(block.name.toLowerCase());
    if (!def || !def.repeated) {
      throw wrongData('WRONG_DATA_TYPE', `${kind}s_m2m name ${JSON.stringify(block.name)} is not a repeated ${kind} property`, { field: `${kind}s_m2m` });
    }
    const field = def.field;
    const lists = new Map<number, unknown[]>();
    for (const row of block.array) {
      const at = row[indexField];
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= writes.length) {
        throw wrongData('WRONG_DATA_TYPE', `${kind}s_m2m ${block.name}: ${indexField} ${JSON.stringify(at)} does not point into ${kind}s`, { field: `${kind}s_m2m` });
      }
      let list = lists.get(at);
      if (!list) {
        const ownKey = Object.keys(records[at]!).find((k) => k.toLowerCase() === field.slice(0, field.lastIndexOf('#')));
        const own = ownKey === undefined ? undefined : records[at]![ownKey];
        lists.set(at, (list = Array.isArray(own) ? [...own] : []));
      }
      list.push(row.value_id);
    }
    for (const [at, list] of lists) writes[at]!.values.set(field, pack(checkValue(def, list, kind, ids[at]!)));
  }
}

const dedupe = (warnings: string[]) => [...new Set(warnings)];

// Cursors are opaque to clients: the next dense index, versioned so the format can change.
const encodeCursor = (idx: number) => Buffer.from(`i1:${idx}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^i1:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw wrongData('WRONG_PARAMETER', 'cursor is not one this service gave out', { field: 'cursor' });
  return Number(m[1]);
}

// Where properties are written, an identifier cannot be falsy (0 or empty).
function parseId(auth: Claims, kind: EntityKind, raw: unknown, writing: boolean): Parsed {
  const typeName = auth.dbt?.[kind === 'item' ? 0 : 1];
  const type = typeName === undefined ? undefined : idType(typeName);
  if (!type) throw new ApiError('ServerError', 'SERVER_ERROR', 'the token carries no identifier types for its database');
  const value = type.parse(raw);
  if (value === undefined) {
    throw wrongData(NAMES[kind].idError, `${NAMES[kind].idField} ${JSON.stringify(raw)} is not of type ${typeName}`, { field: NAMES[kind].idField });
  }
  if (writing && (value === 0 || value === '')) {
    throw wrongData(NAMES[kind].idError, `${NAMES[kind].idField} cannot be 0 or empty where properties are written`, { field: NAMES[kind].idField });
  }
  return { key: String(value), value };
}
