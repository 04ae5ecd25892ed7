// The models this process serves: for each database, the current model's buffer copied once from
// Redis into a SharedArrayBuffer (so pool workers read it without a copy) and its typed views.
// A new version replaces the entry; requests that still hold the old one keep it alive until they
// finish, after which nothing references it and it is freed.
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import type { ModelMeta, ModelsStore } from '../../store/models-store.js';
import { SharedReads } from '../../store/shared-reads.js';
import { modelViews, type ModelViews } from './layout.js';
import { rowIndexOf, rowIndexOfSlices, type RowIndex } from './row-index.js';
import { scorable, type Scorable } from '../scoring/rankings.js';

export interface LoadedModel extends Scorable {
  id: string;
  meta: ModelMeta;
  buffer: SharedArrayBuffer;
  views: ModelViews;
  itemIds: string[]; // canonical id of each item row ('' for none)
  itemIndex: RowIndex;
  userIndex: RowIndex; // canonical id -> row of every user the model covers
}

// Canonical ids of the rows [from, to) of a kind, from the catalogue's index.
export type IdTable = (db: string, kind: 'item' | 'user', from: number, to: number) => Promise<string[]>;

// Databases whose announced models are loaded ahead of need: those served recently.
const HELD = 64;

export class ModelRegistry {
  private readonly models = new LRUCache<string, LoadedModel>({ max: HELD });
  private readonly loading = new SharedReads<LoadedModel | undefined>();

  constructor(
    private readonly store: ModelsStore,
    private readonly ids: IdTable,
    private readonly logger: Logger,
  ) {}

  // The database's current model, loaded if needed; undefined when none was published.
  // A held model is current: every newer one is announced and loaded in its place (and a lost
  // subscription drops every held model), so only a database not held asks Redis.
  async current(db: string): Promise<LoadedModel | undefined> {
    const held = this.models.get(db);
    if (held) return held;
    const id = await this.store.current(db);
    if (id === undefined) return undefined;
    return this.load(db, id);
  }

  // The model Redis says is current, loaded when this process does not hold it yet: what a task that
  // makes a model from the current one must start from. `current` answers with the one before while
  // its successor loads (seconds for a model of a million users), so ml_new_items right after a
  // training could extend the model before it and publish that over the training's.
  async latest(db: string): Promise<LoadedModel | undefined> {
    const id = await this.store.current(db);
    if (id === undefined) return undefined;
    const held = this.models.peek(db);
    return held?.id === id ? held : this.load(db, id);
  }

  // The model this process holds for the database, without asking Redis.
  held(db: string): LoadedModel | undefined {
    return this.models.peek(db);
  }

  // Another process published a model: load it now if the database was served recently.
  announced(db: string, id: string): void {
    if (!this.models.has(db) || this.models.peek(db)!.id === id) return;
    this.load(db, id).catch((err) => this.logger.warn({ err, db, model: id }, 'announced model not loaded'));
  }

  // The models this process holds, by database.
  heldModels(): IterableIterator<[string, LoadedModel]> {
    return this.models.entries();
  }

  drop(db: string): void {
    this.models.delete(db);
  }

  dropAll(): void {
    this.models.clear();
  }

  private load(db: string, id: string): Promise<LoadedModel | undefined> {
    return this.loading.get(`${db} ${id}`, () => this.read(db, id));
  }

  private async read(db: string, id: string): Promise<LoadedModel | undefined> {
    const meta = await this.store.meta(db, id);
    const buffer = meta && (await this.store.buffer(db, meta));
    if (!meta || !buffer) return undefined; // superseded and trimmed meanwhile
    const views = modelViews(buffer);
    // Ids never move to another row, so the model's rows of users stay right for as long as it serves.
    const [itemIds, userIndex] = await Promise.all([
      this.ids(db, 'item', 0, views.dims.items),
      rowIndexOfSlices(views.dims.users, (from, to) => this.ids(db, 'user', from, to)),
    ]);
    const itemIndex = await rowIndexOf(itemIds);
    const loaded = { id, meta, buffer, itemIds, itemIndex, userIndex, ...scorable(views) };
    // A slower load of an older version must not replace a newer one.
    const now = this.models.peek(db);
    if (!now || now.meta.timestamp <= meta.timestamp) this.models.set(db, loaded);
    return loaded;
  }
}
