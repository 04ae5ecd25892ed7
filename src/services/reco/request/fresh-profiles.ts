// Users whose feedback changed get their profile read and folded in off the request path: users ask
// for recommendations right after they act, and that request paid for reading their ratings and
// folding them in (bench/http/learning.ts, "after a burst": 0.72× the steady state's throughput, p99
// 45 ms). Every process follows every change (feedback-changes.ts tails the ratings log), so each
// one prepares the users it may be asked for next. The work waits BATCH_MS (a user acting several
// times in a row is read once), then goes in batches whose fold-ins run at most SLICE_MS per
// event-loop turn, after the turn's requests: a request waits for one slice at most. A request that
// comes first reads and folds in as before (the fresh answer, never a stale one), and the refresh
// then finds the profile held. More than PENDING_MAX users waiting: the rest are left to requests.
import type { Logger } from 'pino';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { UserProfiles } from './user-profiles.js';

const BATCH_MS = 20;
const SLICE_MS = 1;
const PENDING_MAX = 50_000;
const USERS_PER_BATCH = 64;

export class FreshProfiles {
  // Users (dense rows) waiting, by database.
  private readonly pending = new Map<string, Set<number>>();
  private waiting = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  // Changed users' profiles by outcome (metrics): prepared here before any request asked, or found
  // done (a request came first).
  readonly counts = { prepared: 0, found: 0 };

  constructor(
    private readonly held: (db: string) => LoadedModel | undefined,
    // Users' canonical ids at dense rows ('' where none).
    private readonly idsOf: (db: string, rows: number[]) => Promise<string[]>,
    private readonly users: UserProfiles,
    private readonly logger: Logger,
  ) {}

  changed(db: string, rows: Iterable<number>): void {
    let set = this.pending.get(db);
    for (const row of rows) {
      if (this.waiting >= PENDING_MAX) break;
      if (!set) this.pending.set(db, (set = new Set()));
      if (!set.has(row)) {
        set.add(row);
        this.waiting++;
      }
    }
    if (this.waiting > 0 && !this.timer && !this.running) this.timer = setTimeout(this.start, BATCH_MS);
  }

  private readonly start = (): void => {
    this.timer = undefined;
    this.running = this.drain()
      .catch((err) => this.logger.warn({ err }, 'fresh profiles not prepared; requests read them'))
      .finally(() => {
        this.running = undefined;
        if (this.waiting > 0) this.timer = setTimeout(this.start, BATCH_MS);
      });
  };

  private async drain(): Promise<void> {
    for (const [db, set] of this.pending) {
      this.pending.delete(db);
      this.waiting -= set.size;
      const model = this.held(db);
      if (!model) continue;
      const rows = [...set];
      for (let k = 0; k < rows.length; k += USERS_PER_BATCH) await this.batch(db, model, rows.slice(k, k + USERS_PER_BATCH));
    }
  }

  private async batch(db: string, model: LoadedModel, rows: number[]): Promise<void> {
    const ids = await this.idsOf(db, rows);
    const changes = await this.users.changes(db, model);
    const profiles = await Promise.all(
      rows.map((row, k) =>
        ids[k] && changes.version(row) !== undefined
          ? this.users.profile(db, model, { key: ids[k], value: ids[k] }, row, changes)
          : undefined,
      ),
    );
    let slice = performance.now();
    for (const p of profiles) {
      if (!p) continue;
      if (p.vector) {
        this.counts.found++;
        continue;
      }
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((r) => setImmediate(r));
        slice = performance.now();
      }
      this.users.vector(model, p);
      this.counts.prepared++;
    }
  }
}
