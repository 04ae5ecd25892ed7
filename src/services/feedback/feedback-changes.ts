// Whose feedback changed since the data of the model a database is served from: those users' lists
// in the model no longer hold (they rated since), and their held profiles are read again once per
// change. Changes come from the ratings log — read once from the model's end of data when the model
// is first served here, then tailed — and, at once, from this process's own writes.
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { ChangeTail, StreamEntry } from '../../store/change-tail.js';
import { entryUsers, type RatingsLog } from '../../store/ratings-log.js';
import type { ProfileCache } from './profile-cache.js';
import type { Maybe } from '../reco/maybe.js';

// Databases whose changes are followed: as many as models are held (engine/model/registry.ts).
const FOLLOWED = 64;

// The changes since one model's data.
export class ChangesSince {
  ready = false; // the log since the model is read: until then every user counts as changed
  reading: Promise<void> | undefined; // while it is read
  epoch = 0; // raised when the tail may have missed entries: every held profile is read again
  private readonly rows = new Map<number, number>(); // user row -> changes seen
  private readonly keys = new Set<string>(); // users this process wrote whose row it did not know

  constructor(readonly model: string) {}

  changed(row: number, key: string): boolean {
    return !this.ready || this.rows.has(row) || this.keys.has(key);
  }

  // Changes to the user seen so far: a profile read at one count is current while it stays.
  // undefined until the log since the model is read.
  version(row: number): number | undefined {
    return this.ready ? this.epoch * 2 ** 32 + (this.rows.get(row) ?? 0) : undefined;
  }

  mark(rows: Iterable<number>): void {
    for (const r of rows) this.rows.set(r, (this.rows.get(r) ?? 0) + 1);
  }

  markKey(key: string): void {
    this.keys.add(key);
  }
}

export class FeedbackChanges {
  // Told of the users (dense rows) of every change the log brings, from any process
  // (reco/request/fresh-profiles.ts prepares their next answers).
  onChanged: ((db: string, rows: Iterable<number>) => void) | undefined;
  private readonly followed = new LRUCache<string, ChangesSince>({
    max: FOLLOWED,
    dispose: (_, db, reason) => reason !== 'set' && this.tail.unwatch(this.log.stream(db)),
  });

  constructor(
    private readonly tail: ChangeTail,
    private readonly log: RatingsLog,
    private readonly rowOf: (db: string, user: string) => number | undefined, // from the held model, if any
    private readonly profiles: ProfileCache,
    private readonly logger: Logger,
  ) {}

  // The changes since the model's data, once they are read: the first request after a new model
  // waits for them, so that it answers as the next ones do. Starts following them when the model
  // is new here.
  since(db: string, model: LoadedModel): Maybe<ChangesSince> {
    let s = this.followed.get(db);
    if (s?.model !== model.id) {
      s = new ChangesSince(model.id);
      this.followed.set(db, s);
      const after = model.meta.ratings_log_id;
      if (after !== undefined) s.reading = this.follow(db, s, after).finally(() => (s!.reading = undefined));
    }
    return s.reading ? s.reading.then(() => s) : s;
  }

  // This process wrote feedback of these users (their keys): they count as changed at once.
  wrote(db: string, users: Iterable<string | number>): void {
    this.profiles.forget(db, users);
    const s = this.followed.peek(db);
    if (!s) return;
    for (const u of users) {
      const key = String(u);
      const row = this.rowOf(db, key);
      if (row === undefined) s.markKey(key);
      else s.mark([row]);
    }
  }

  private async follow(db: string, s: ChangesSince, after: string): Promise<void> {
    try {
      const { users, last } = await this.log.usersSince(db, after);
      if (this.followed.peek(db) !== s) return; // a newer model took over meanwhile
      s.mark(users);
      s.ready = true;
      this.tail.watch(this.log.stream(db), last, async (entries: StreamEntry[], behind: boolean) => {
        const now = this.followed.peek(db);
        if (!now) return;
        // A new model's own read covers what the log held before it; later entries count for it.
        if (behind) now.epoch++;
        for (const e of entries) {
          const users = entryUsers(e);
          now.mark(users);
          this.onChanged?.(db, users);
        }
      });
    } catch (err) {
      this.logger.warn({ err, db }, 'ratings log not read: lists serve no user until the next model');
      if (this.followed.peek(db) === s) this.followed.delete(db);
    }
  }
}
