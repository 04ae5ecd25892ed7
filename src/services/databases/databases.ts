// Databases of an organisation: creation with identifier types, listing, status, deletion; task records.
import { randomUUID } from 'node:crypto';
import { duplicated, notFound, wrongData } from '../../errors/api-error.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import type { CountsStore, DatabaseCounts } from '../../store/counts-store.js';
import type { Database, DatabasesStore } from '../../store/databases-store.js';
import type { TaskRecord, TasksStore } from '../../store/tasks-store.js';
import { RECORDED_TASKS } from '../../engine/training/scheduler.js';
import { ID_TYPE_NAMES, idType } from '../ids/id-types.js';
import { mergePatch } from '../merge-patch.js';
import { UNLIMITED, type Quotas } from '../../config/quotas.js';

export interface DatabaseInput {
  name: string;
  description: string;
  item_id_type: string;
  user_id_type: string;
  session_id_type?: string;
  metadata?: Record<string, unknown>;
}

export const DEFAULT_SESSION_ID_TYPE = 'uuid';

// What every view of a database shows.
const databaseFields = (d: Database) => ({
  id: d.id,
  name: d.name,
  description: d.description,
  item_id_type: d.item_id_type,
  user_id_type: d.user_id_type,
  session_id_type: d.session_id_type,
});

// GET databases/ (the spec: records without status).
export const publicDatabase = (d: Database) => ({ ...databaseFields(d), metadata: d.metadata });

// GET databases/current/: everything.
export const currentDatabase = (d: Database) => ({ ...publicDatabase(d), status: d.status });

// Login responses: the spec's fields exactly.
export const loginDatabase = (d: Database) => ({ ...databaseFields(d), status: d.status });

export class DatabaseService {
  constructor(
    private readonly store: DatabasesStore,
    private readonly catalogues: Catalogues,
    private readonly tasks: TasksStore,
    private readonly countsStore: CountsStore,
    private readonly quotas: Quotas = UNLIMITED,
  ) {}

  async create(org: string, input: DatabaseInput): Promise<string> {
    const session = input.session_id_type ?? DEFAULT_SESSION_ID_TYPE;
    for (const [field, value] of [
      ['item_id_type', input.item_id_type],
      ['user_id_type', input.user_id_type],
      ['session_id_type', session],
    ] as const) {
      if (!idType(value))
        throw wrongData('WRONG_DATA_TYPE', `${field} ${JSON.stringify(value)} is not an identifier type; use one of ${ID_TYPE_NAMES}`, {
          field,
        });
    }
    const id = randomUUID();
    if (!(await this.store.claimName(org, input.name, id))) throw duplicated('DUPLICATED_DATABASE', 'database', input.name);
    await this.store.create({
      id,
      org,
      name: input.name,
      description: input.description,
      item_id_type: input.item_id_type,
      user_id_type: input.user_id_type,
      session_id_type: session,
      status: 'pending',
      metadata: input.metadata ?? {},
      created: Date.now(),
    });
    return id;
  }

  async page(org: string, page: number, amt: number) {
    const { databases, hasNext } = await this.store.page(org, page, amt);
    return { databases: databases.map(publicDatabase), has_next: hasNext, next_page: hasNext ? page + 1 : null };
  }

  // The database a token names, if it still exists in the token's organisation.
  async get(org: string, id: string): Promise<Database> {
    const db = await this.store.get(id);
    if (!db || db.org !== org) throw notFound('DATABASE_NOT_FOUND', 'database', id);
    return db;
  }

  async byName(org: string, name: string): Promise<Database> {
    const id = await this.store.idByName(org, name);
    const db = id && (await this.store.get(id));
    if (!db || db.org !== org) throw notFound('DATABASE_NOT_FOUND', 'database', name);
    return db;
  }

  // What PATCH databases/current/ would make of the description and metadata; stores nothing.
  async preview(org: string, id: string, patch: { description?: string; metadata?: Record<string, unknown>; preserve?: boolean }) {
    const db = await this.get(org, id);
    const before = { description: db.description, metadata: db.metadata ?? {} };
    const after = {
      description: patch.description ?? db.description,
      metadata:
        patch.metadata === undefined
          ? before.metadata
          : (mergePatch(before.metadata, patch.metadata, patch.preserve) as Record<string, unknown>),
    };
    return { metadata_old: before, metadata_new: after };
  }

  // metadata is deep-merged into the stored one (merge-patch.ts), as the hosted service's Python client expects.
  async patch(
    org: string,
    id: string,
    patch: { name?: string; description?: string; metadata?: Record<string, unknown>; preserve?: boolean },
  ): Promise<void> {
    const db = await this.get(org, id);
    const oldName = db.name;
    const renamed = patch.name !== undefined && patch.name.toLowerCase() !== oldName.toLowerCase();
    if (renamed && !(await this.store.claimName(org, patch.name!, id))) throw duplicated('DUPLICATED_DATABASE', 'database', patch.name);
    if (patch.name !== undefined) db.name = patch.name;
    if (patch.description !== undefined) db.description = patch.description;
    if (patch.metadata !== undefined)
      db.metadata = mergePatch(db.metadata ?? {}, patch.metadata, patch.preserve) as Record<string, unknown>;
    if (!(await this.store.update(db))) {
      // Deleted meanwhile: give the new name back.
      if (renamed) await this.store.releaseName(org, patch.name!);
      throw notFound('DATABASE_NOT_FOUND', 'database', id);
    }
    if (renamed) await this.store.releaseName(org, oldName);
  }

  async remove(org: string, id: string): Promise<void> {
    await this.store.remove(await this.get(org, id), RECORDED_TASKS);
    this.catalogues.drop(id);
  }

  // What the database holds, from counts its stores keep as they write (no scan).
  async counts(org: string, id: string): Promise<DatabaseCounts> {
    await this.get(org, id);
    return this.countsStore.of(id);
  }

  // The database's quotas and what it uses of each (GET databases/current/usage/).
  async usage(org: string, id: string) {
    await this.get(org, id);
    const [u, [lastRun]] = await Promise.all([this.countsStore.usage(id), this.tasks.recent(id, 'ml_model_retrain', 0, 1)]);
    const q = this.quotas;
    const ran = lastRun?.end_time != null ? Math.max(0, Math.round(lastRun.end_time - lastRun.start_time)) : null;
    return {
      items: { used: u.items, limit: q.items },
      users: { used: u.users, limit: q.users },
      ratings: { used: u.ratings, limit: q.ratings },
      interactions: { used: u.interactions, limit: q.interactions },
      item_properties: { used: u.itemProperties, limit: q.properties },
      user_properties: { used: u.userProperties, limit: q.properties },
      record_bytes: { used: null, limit: q.recordBytes },
      training_seconds: { used: ran, limit: q.trainingSeconds },
      requests_per_second: { used: null, limit: q.requestsPerSecond },
    };
  }

  async recentTasks(org: string, id: string, name: string, page: number, amt: number): Promise<TaskRecord[]> {
    await this.get(org, id);
    return this.tasks.recent(id, name, (page - 1) * amt, amt);
  }
}
