// What a process holds in memory about one database: its item and user property definitions, its
// columnar views and settings (interaction rules), all kept current by tailing the database's
// change stream.
// Writers wait (`reached`) until the tail has handled their change, so a process reads its own
// writes; other processes see them as soon as their tail does (milliseconds). A Catalogue that may
// have missed changes (trimmed from the stream while its tail was away) discards itself; the next
// request starts a fresh one.
import type { Logger } from 'pino';
import { compareChangeIds, type ChangeTail } from '../../store/change-tail.js';
import { changeOf, type Change, type EntitiesStore, type EntityKind } from '../../store/entities-store.js';
import type { PropertiesStore, PropertyDef } from '../../store/properties-store.js';
import { SharedReads } from '../../store/shared-reads.js';
import { CatalogueView } from './catalogue-view.js';

export type Defs = ReadonlyMap<string, PropertyDef>; // lower-cased name -> definition, in creation order

const REACH_TIMEOUT_MS = 2000;

export class Catalogue {
  private applied: string | undefined; // last change handled; undefined until the tail is set up
  private readonly started: Promise<void>;
  private readonly defs = new Map<EntityKind, Defs>();
  private readonly generation = { item: 0, user: 0 };
  private readonly settings = new Map<string, unknown>(); // database settings (op config), by name
  private settingsGeneration = 0;
  // Reads of definitions and settings under way: a change of what is being read forgets its read,
  // so no request asking after the change gets a read made before it.
  private readonly reading = new SharedReads<unknown>();
  private readonly views: Record<EntityKind, CatalogueView>;
  private readonly changes: string; // the database's catalogue change stream
  private waiters: { id: string; resolve: () => void }[] = [];
  disposed = false;

  constructor(
    private readonly db: string,
    private readonly tail: ChangeTail,
    entities: EntitiesStore,
    private readonly properties: PropertiesStore,
    private readonly onDropped: () => void,
  ) {
    this.changes = entities.changeStream(db);
    this.views = { item: new CatalogueView(entities, db, 'item'), user: new CatalogueView(entities, db, 'user') };
    this.started = this.start();
    this.started.catch(() => undefined);
  }

  // Definitions if held (synchronous answers); undefined when they must be read (`definitions`).
  cachedDefinitions(kind: EntityKind): Defs | undefined {
    return this.defs.get(kind);
  }

  // undefined: no such database.
  definitions(kind: EntityKind): Promise<Defs | undefined> {
    const held = this.defs.get(kind);
    if (held) return Promise.resolve(held);
    return this.reading.get(`defs ${kind}`, () => this.readDefinitions(kind)) as Promise<Defs | undefined>;
  }

  private async readDefinitions(kind: EntityKind): Promise<Defs | undefined> {
    await this.started;
    const generation = this.generation[kind];
    const list = await this.properties.list(this.db, kind);
    if (list === undefined) {
      this.dispose();
      this.onDropped();
      return undefined;
    }
    const defs = new Map(list.map((d) => [d.property_name.toLowerCase(), d]));
    // A definition change handled while reading means this list may be stale: use it, keep none.
    if (generation === this.generation[kind] && !this.disposed) this.defs.set(kind, defs);
    return defs;
  }

  // A database setting (written with a `config` change naming it), read once and then held.
  cachedSetting<T>(name: string): T | undefined {
    return this.settings.get(name) as T | undefined;
  }

  setting<T>(name: string, read: () => Promise<T>): Promise<T> {
    if (this.settings.has(name)) return Promise.resolve(this.settings.get(name) as T);
    return this.reading.get(`setting ${name}`, () => this.readSetting(name, read)) as Promise<T>;
  }

  private async readSetting<T>(name: string, read: () => Promise<T>): Promise<T> {
    await this.started;
    const generation = this.settingsGeneration;
    const value = await read();
    if (generation === this.settingsGeneration && !this.disposed) this.settings.set(name, value);
    return value;
  }

  // The view, once built (its first use starts the build); undefined while it is being built.
  readyView(kind: EntityKind): CatalogueView | undefined {
    const view = this.views[kind];
    if (view.state === 'ready') return view;
    if (this.applied !== undefined) void view.ready().catch(() => undefined);
    return undefined;
  }

  async view(kind: EntityKind): Promise<CatalogueView> {
    await this.started;
    await this.views[kind].ready();
    return this.views[kind];
  }

  // Resolves once the tail has handled the change `id` (or after a timeout, logged by the caller's
  // metrics rather than failing a write that did happen).
  async reached(id: string | undefined): Promise<void> {
    if (id === undefined || this.disposed) return;
    await this.started;
    if (compareChangeIds(this.applied!, id) >= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REACH_TIMEOUT_MS);
      this.waiters.push({
        id,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.tail.unwatch(this.changes);
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }

  private async start(): Promise<void> {
    const after = await this.tail.last(this.changes);
    if (this.disposed) return;
    this.applied = after;
    this.tail.watch(this.changes, after, (entries, behind) => this.handle(entries.map(changeOf), behind));
  }

  private async handle(changes: Change[], behind: boolean): Promise<void> {
    // Changes trimmed away before this process read them would leave its state stale for good:
    // when the stream's oldest kept change is newer than the last one handled, start afresh.
    if (behind && this.applied !== '0-0') {
      const first = await this.tail.first(this.changes);
      if (first !== undefined && compareChangeIds(first, this.applied!) > 0) {
        this.dispose();
        this.onDropped();
        return;
      }
    }
    const touched: Record<EntityKind, Set<number>> = { item: new Set(), user: new Set() };
    for (const c of changes) {
      if (c.op === 'config') {
        this.settings.delete(c.kind);
        this.reading.forget(`setting ${c.kind}`);
        this.settingsGeneration++;
      } else if (c.kind === 'item' || c.kind === 'user') {
        if (c.op === 'defs') {
          this.defs.delete(c.kind);
          this.reading.forget(`defs ${c.kind}`);
          this.generation[c.kind]++;
        } else for (const i of c.idxs) touched[c.kind].add(i);
      }
    }
    await Promise.all([this.views.item.changed(touched.item), this.views.user.changed(touched.user)]);
    this.applied = changes[changes.length - 1]!.id;
    this.waiters = this.waiters.filter((w) => (compareChangeIds(this.applied!, w.id) >= 0 ? (w.resolve(), false) : true));
  }
}

// One Catalogue per database this process serves, the least recently used dropped past `max`.
export class Catalogues {
  private readonly held = new Map<string, Catalogue>();
  private newest: Catalogue | undefined;

  constructor(
    readonly tail: ChangeTail, // shared with the other state this process tails (feedback-changes.ts)
    private readonly entities: EntitiesStore,
    private readonly properties: PropertiesStore,
    readonly logger: Logger,
    private readonly max = 64,
  ) {}

  get(db: string): Catalogue {
    let cat = this.held.get(db);
    // Already the most recent (a service busy with one database): nothing to reorder.
    if (cat !== undefined && cat === this.newest) return cat;
    if (cat) {
      this.held.delete(db);
    } else {
      cat = new Catalogue(db, this.tail, this.entities, this.properties, () => this.held.get(db) === cat && this.held.delete(db));
    }
    this.held.set(db, cat);
    this.newest = cat;
    if (this.held.size > this.max) {
      const [oldest, evicted] = this.held.entries().next().value!;
      this.held.delete(oldest);
      evicted.dispose();
    }
    return cat;
  }

  // After a write in this process: wait until this process's state includes it.
  async reached(db: string, change: string | undefined): Promise<void> {
    if (change !== undefined) await this.held.get(db)?.reached(change);
  }

  // The database was deleted (here or, through pub/sub, in another process).
  drop(db: string): void {
    this.held.get(db)?.dispose();
    this.held.delete(db);
  }

  // Drop notices may have been missed (the subscriber reconnected): hold nothing that could be stale.
  dropAll(): void {
    for (const cat of this.held.values()) cat.dispose();
    this.held.clear();
  }

  stop(): Promise<void> {
    this.dropAll();
    return this.tail.stop();
  }
}
