// Items and users, one or many at a time: identifiers checked against the database's ID types,
// property values against their definitions, then written atomically (one store call per request).
import type { Logger } from 'pino';
import { ApiError, notFound } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import { isColumnar, type Rows } from '../../contract/columnar.js';
import type { EntitiesStore, EntityKind, EntityWrite, WriteResult } from '../../store/entities-store.js';
import { decodeRecord, type EntityRecord } from '../../store/entity-record.js';
import type { TrainingScheduler } from '../../engine/training/scheduler.js';
import type { Catalogues, Defs } from './catalogues.js';
import { compileFilters, LISTING_OPS } from './filters.js';
import { decodeCursor, encodeCursor } from '../ids/cursors.js';
import { parseId, shownId, type Parsed } from '../ids/request-ids.js';
import {
  applyM2m,
  checkValues,
  listValues,
  NAMES,
  ownValue,
  storedRecord,
  columnarValues,
  type M2m,
  type Values,
} from './entity-values.js';
import type { Ingested } from '../usage/ingested.js';

// What one listing page looks at and holds at most: a filter is checked per index (~1 µs), and a page's
// records are encoded on the event loop every tenant shares (500 records of up to 64 KiB would be a
// 32 MiB answer).
const LISTING_SCAN = 20_000;
const LISTING_BYTES = 4 * 1024 * 1024;

export type { EntityKind };

type Answer = Record<string, unknown>;

export interface BulkInput {
  records: Rows;
  m2m: M2m[] | undefined;
  mode: 'replace' | 'merge';
  createIfMissing: boolean;
  wait: boolean;
}

const CAS_ATTEMPTS = 20;
const EMPTY = new Uint8Array(0);

export class EntityService {
  constructor(
    private readonly store: EntitiesStore,
    private readonly training: TrainingScheduler,
    private readonly catalogues: Catalogues,
    private readonly logger: Logger,
    private readonly ingested: Ingested,
  ) {}

  // From this process's view when it is built (an answer in the same tick), else from storage.
  get(auth: Claims, db: string, kind: EntityKind, rawId: string): Answer | Promise<Answer> {
    const id = parseId(auth, kind, rawId, false);
    const cat = this.catalogues.get(db);
    const defs = cat.cachedDefinitions(kind);
    const view = cat.readyView(kind);
    if (defs && view) {
      const idx = view.indexOf(id.key);
      if (idx === undefined) throw notFound(NAMES[kind].notFound, kind, id.value);
      // Frozen and kept per record version, so the HTTP layer also reuses its encoding.
      return view.memo(idx, defs, (record) => Object.freeze(this.answer(auth, kind, defs, id, record)));
    }
    return (async () => {
      const [defs, [stored]] = await Promise.all([this.definitions(db, kind), this.store.read(db, kind, [id.key])]);
      return this.answer(auth, kind, defs, id, stored && decodeRecord(stored.blob));
    })();
  }

  private answer(auth: Claims, kind: EntityKind, defs: Defs, id: Parsed, record: EntityRecord | undefined): Answer {
    if (!record) throw notFound(NAMES[kind].notFound, kind, id.value);
    return { [kind]: present(auth, kind, defs, record, undefined), warnings: [] as string[] };
  }

  // Records of the ids that exist, in request order; `properties` limits the fields shown.
  async list(auth: Claims, db: string, kind: EntityKind, rawIds: unknown[], properties: string[] | undefined) {
    const ids = rawIds.map((raw) => parseId(auth, kind, raw, false));
    const defs = await this.definitions(db, kind);
    const view = this.catalogues.get(db).readyView(kind);
    const records = view
      ? ids.map((id) => view.byId(id.key))
      : (
          await this.store.read(
            db,
            kind,
            ids.map((i) => i.key),
          )
        ).map((r) => r && decodeRecord(r.blob));
    const { only, warnings } = projection(kind, defs, properties);
    const out = records.filter((r): r is EntityRecord => r !== undefined).map((r) => present(auth, kind, defs, r, only));
    return { [`${kind}s`]: out, warnings };
  }

  // One page of the listing in index order, from this process's view. A page costs what it holds, not
  // what the catalogue does: it looks at LISTING_SCAN indices at most (a filter matching few items
  // gives short pages, even empty ones with has_next true) and ends once its records reach
  // LISTING_BYTES. has_next is true while indices remain past the page (one more look, within the
  // budget, for a record that passes the filters).
  async page(auth: Claims, db: string, kind: EntityKind, q: { amt: number; cursor?: string; properties?: string[]; filters?: string[] }) {
    const defs = await this.definitions(db, kind);
    const keep = q.filters && q.filters.length > 0 ? compileFilters(q.filters, defs, LISTING_OPS, NAMES[kind].propertyNotFound) : undefined;
    const { only, warnings } = projection(kind, defs, q.properties);
    const from = q.cursor === undefined || q.cursor === '' ? 0 : decodeCursor(CURSOR, q.cursor, 1)[0]!;
    const view = await this.catalogues.get(db).view(kind);
    const passes = (i: number) => view.has(i) && (keep === undefined || keep(view.at(i)));
    const out: Record<string, unknown>[] = [];
    const end = Math.min(view.size, from + LISTING_SCAN);
    let at = from;
    let bytes = 0;
    for (; at < end && out.length < q.amt && bytes < LISTING_BYTES; at++) {
      if (!passes(at)) continue;
      out.push(present(auth, kind, defs, view.record(at)!, only));
      bytes += view.recordBytes(at);
    }
    while (at < end && !passes(at)) at++;
    const hasNext = at < view.size;
    return { [`${kind}s`]: out, has_next: hasNext, next_cursor: hasNext ? encodeCursor(CURSOR, [at]) : '', warnings };
  }

  // PUT: replaces every value. wait=false answers once the values are checked, and writes after.
  async put(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, wait: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const write = { id: id.key, blob: storedRecord(kind, defs, id, checkValues(auth, kind, defs, id, values, 'replace', warnings)) };
    if (!wait) {
      this.background(this.replace(db, kind, [write], [id]), db, kind, 1);
      return { accepted: true, warnings };
    }
    await this.replace(db, kind, [write], [id]);
    return { accepted: false, warnings };
  }

  // PATCH: changes the listed values only; null removes a value.
  async patch(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, createIfMissing: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const patch = checkValues(auth, kind, defs, id, values, 'merge', warnings);
    storedRecord(kind, defs, id, patch); // a patch past the size cap is refused before anything is read
    const r = await this.merge(db, kind, defs, [patch], [id], createIfMissing);
    return { [NAMES[kind].created]: r.created[0], [NAMES[kind].modified]: r.modified[0], warnings };
  }

  // Bulk PUT/PATCH: every record checked before anything is written; one atomic write.
  async bulk(auth: Claims, db: string, kind: EntityKind, input: BulkInput) {
    const defs = await this.definitions(db, kind);
    const warnings: string[] = [];
    const { ids, values } = isColumnar(input.records)
      ? columnarValues(auth, kind, defs, input.records, input.mode, warnings)
      : listValues(auth, kind, defs, input.records, input.mode, warnings);
    if (input.m2m) applyM2m(kind, defs, input.m2m, values, ids, ownValue(input.records));
    // Every record's size is checked before anything is written (a merge's again once merged): a
    // merged record holds at least the values its patch sets, so a patch past the cap is refused now,
    // also when the write happens after the answer.
    const blobs = values.map((v, i) => storedRecord(kind, defs, ids[i]!, v));
    const write = () =>
      (input.mode === 'replace'
        ? this.replace(
            db,
            kind,
            blobs.map((blob, i) => ({ id: ids[i]!.key, blob })),
            ids,
          )
        : this.merge(db, kind, defs, values, ids, input.createIfMissing)
      ).then((r) => {
        this.ingested[kind === 'item' ? 'items' : 'users'] += ids.length;
        return r;
      });
    if (!input.wait) {
      this.background(write(), db, kind, ids.length);
      return { accepted: true, body: { warnings: dedupe(warnings) } };
    }
    const r = await write();
    const nCreated = r.created.filter(Boolean).length;
    const body: Record<string, unknown> = {
      n_created: nCreated,
      n_modified: r.modified.filter(Boolean).length,
      warnings: dedupe(warnings),
    };
    if (kind === 'item' && nCreated > 0) body.ml_task_id = await this.newItemsTask(db);
    return { accepted: false, body };
  }

  // Removes the property values; entities stay known (their ratings and interactions are kept).
  async remove(auth: Claims, db: string, kind: EntityKind, rawIds: unknown[]): Promise<void> {
    const ids = rawIds.map((raw) => parseId(auth, kind, raw, false));
    await this.definitions(db, kind); // DATABASE_NOT_FOUND for a deleted database
    const r = await this.store.remove(
      db,
      kind,
      ids.map((i) => i.key),
    );
    await this.catalogues.reached(db, r.change);
  }

  private background(work: Promise<unknown>, db: string, kind: EntityKind, n: number): void {
    work.catch((err) => this.logger.error({ err, db, kind, n }, 'background write failed'));
  }

  private async replace(db: string, kind: EntityKind, writes: EntityWrite[], ids: Parsed[]) {
    return this.written(db, kind, await this.store.write(db, kind, 'replace', writes), ids);
  }

  // Merges are computed here from the records as read, then written only if none of them changed
  // meanwhile (compare-and-set in the write script); a conflict reads and merges again. A merged record
  // past the size cap refuses the whole request before anything is written.
  private async merge(db: string, kind: EntityKind, defs: Defs, patches: Values[], ids: Parsed[], createIfMissing: boolean) {
    for (let attempt = 1; ; attempt++) {
      const olds = await this.store.read(
        db,
        kind,
        ids.map((i) => i.key),
      );
      if (!createIfMissing) {
        const missing = olds.indexOf(undefined);
        if (missing >= 0) throw notFound(NAMES[kind].notFound, kind, ids[missing]!.value);
      }
      const writes = patches.map((patch, i) => {
        const merged = olds[i] ? decodeRecord(olds[i]!.blob).values : {};
        for (const field in patch) {
          if (patch[field] === null) delete merged[field];
          else merged[field] = patch[field];
        }
        return { id: ids[i]!.key, blob: storedRecord(kind, defs, ids[i]!, merged), expected: olds[i]?.blob ?? EMPTY };
      });
      const r = await this.store.write(db, kind, 'cas', writes);
      if (r.kind !== 'conflict' || attempt === CAS_ATTEMPTS) return this.written(db, kind, r, ids);
    }
  }

  private async written(db: string, kind: EntityKind, r: WriteResult, ids: Parsed[]) {
    if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
    if (r.kind === 'conflict') {
      throw new ApiError(
        'ServerUnavailable',
        'STORAGE_UNAVAILABLE',
        `these ${kind}s are being changed by other requests at the same time; retry`,
        { [`${kind}s`]: ids.length },
      );
    }
    await this.catalogues.reached(db, r.change);
    return r;
  }

  // The engine gives new items factors from their properties (one queued run covers every new item).
  private async newItemsTask(db: string): Promise<string> {
    const r = await this.training.trigger(db, 'ml_new_items', 'items created: waiting for a trainer');
    if (r === undefined)
      throw new ApiError(
        'ServerUnavailable',
        'STORAGE_UNAVAILABLE',
        'the items are stored but their ml_new_items run could not be queued (runs were starting): send the request again',
      );
    return r.taskId;
  }

  private async definitions(db: string, kind: EntityKind): Promise<Defs> {
    const cat = this.catalogues.get(db);
    const defs = cat.cachedDefinitions(kind) ?? (await cat.definitions(kind));
    if (defs === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return defs;
  }
}

// A record as clients see it: the id, then values under their defined names, in definition order
// (values kept for properties deleted since are not shown).
function present(auth: Claims, kind: EntityKind, defs: Defs, record: EntityRecord, only: Set<number> | undefined) {
  const out: Record<string, unknown> = { [NAMES[kind].idField]: shownId(auth, kind, record.id) };
  for (const def of defs.values()) {
    const value = record.values[def.seq];
    if (value !== undefined && (only === undefined || only.has(def.seq))) out[def.property_name] = value;
  }
  return out;
}

// The `properties` parameter: the storage fields to show (all when absent), and a warning naming
// names that are not defined.
function projection(kind: EntityKind, defs: Defs, names: string[] | undefined): { only: Set<number> | undefined; warnings: string[] } {
  if (names === undefined) return { only: undefined, warnings: [] };
  const only = new Set<number>();
  const unknown: string[] = [];
  for (const n of names) {
    const def = defs.get(n.toLowerCase());
    if (def) only.add(def.seq);
    else unknown.push(n);
  }
  return { only, warnings: unknown.length > 0 ? [`not defined as ${kind} properties, ignored: ${unknown.join(', ')}`] : [] };
}

const dedupe = (warnings: string[]) => [...new Set(warnings)];

// The next dense index.
const CURSOR = 'i1';
