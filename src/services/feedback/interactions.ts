// Interactions of users and anonymous sessions: writes (each also sets the inferred rating of its
// (user, item) pair, for sessions once they are resolved), listings, session resolution, and the
// background removal of users' interactions and ratings.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { notFound, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { InteractionBatch, Owner, StoredInteraction } from '../../store/interaction-rows.js';
import type { InteractionsStore } from '../../store/interactions-store.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import { unpack } from '../../store/msgpack-values.js';
import { withinDeadline } from '../../store/redis.js';
import type { TasksStore } from '../../store/tasks-store.js';
import type { TrainingScheduler } from '../../engine/training/scheduler.js';
import { decodeCursor, encodeCursor } from '../ids/cursors.js';
import { parseId, pathOwner, shownId, type Parsed } from '../ids/request-ids.js';
import type { InteractionLanes } from './interaction-lanes.js';
import { check, checkIdempotencyKey, checkRow, OWNER_FIELD, Unknown } from './interaction-checks.js';
import type { InteractionRule, InteractionRuleService } from './interaction-rules.js';
import type { Ingested } from '../usage/ingested.js';
import { retrainOnFeedback } from '../../engine/training/retrain-on-feedback.js';
import { checkTimestamp } from './ratings.js';

export type { Owner };

type Answer = { warnings: string[] };

// Entries of the stream of all interactions one time-filtered page looks at, at most.
const SCAN_PER_PAGE = 10_000;
const DELETION_TASK = 'interactions_ratings_deletion';

export interface TimeFilter {
  start?: number;
  end?: number;
}

export class InteractionService {
  constructor(
    private readonly store: InteractionsStore,
    private readonly ratings: RatingsStore,
    private readonly rules: InteractionRuleService,
    private readonly lanes: InteractionLanes,
    private readonly tasks: TasksStore,
    private readonly training: TrainingScheduler,
    private readonly logger: Logger,
    private readonly ingested: Ingested,
  ) {}

  // POST users/<u>/interactions/<i>/ and sessions/<s>/items/<i>/interactions/. idempotencyKey: the
  // request's Idempotency-Key header ('' or undefined: none), on every write of interactions.
  addOne(
    auth: Claims,
    db: string,
    owner: Owner,
    rawOwner: string,
    rawItem: string,
    body: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<Answer> {
    const o = pathOwner(auth, owner, rawOwner, true);
    const i = parseId(auth, 'item', rawItem, true);
    const once = checkIdempotencyKey(idempotencyKey);
    const unknown = new Unknown();
    const row = checkRow(body, '', unknown, undefined);
    return this.write(auth, db, owner, { owners: [o.key], items: [i.key], rows: [row] }, [row.type], unknown.warnings(), once, false);
  }

  // POST users/<u>/interactions-bulk/ and sessions/<s>/interactions-bulk/.
  addOwned(auth: Claims, db: string, owner: Owner, rawOwner: string, rows: unknown[], idempotencyKey?: string): Promise<Answer> {
    return this.add(auth, db, owner, rows, idempotencyKey, pathOwner(auth, owner, rawOwner, true));
  }

  // rows carry their owner (user_id or session_id) unless `ownerId` (a path's) is given.
  add(auth: Claims, db: string, owner: Owner, rows: unknown[], idempotencyKey?: string, ownerId?: Parsed): Promise<Answer> {
    const once = checkIdempotencyKey(idempotencyKey);
    const { batch, types, warnings } = check(auth, owner, rows, ownerId);
    return this.write(auth, db, owner, batch, types, warnings, once, true);
  }

  // Rates the rows by the database's rules (held in memory once read) and stores them, answering
  // 503 once the whole write (the rules' read included) has waited the Redis command timeout.
  // bulk: counted in the metrics' bulk rows, unless an Idempotency-Key had applied it before.
  private write(
    auth: Claims,
    db: string,
    owner: Owner,
    batch: InteractionBatch,
    types: Iterable<string>,
    warnings: string[],
    once: string | undefined,
    bulk: boolean,
  ): Promise<Answer> {
    const store = (rules: Map<string, InteractionRule>, waitMs: number) => {
      rate(batch, rules);
      const stored = (resolved: string[], repeated: boolean) => {
        if (bulk && !repeated) this.ingested.interactions += batch.rows.length;
        return answer(auth, resolved, warnings, repeated ? once : undefined);
      };
      return this.lanes.write(db, owner, batch, stored, once, waitMs);
    };
    const timeoutMs = this.store.timeoutMs;
    const rules = this.rules.resolveNow(db, types);
    if (rules) return store(rules, timeoutMs);
    const started = Date.now();
    // What reading the rules took comes off the lane's wait.
    return withinDeadline(this.rules.resolve(db, types), timeoutMs).then((r) => store(r, Math.max(0, timeoutMs - (Date.now() - started))));
  }

  // One user's or session's interactions in the order they were received.
  async listOwn(auth: Claims, db: string, owner: Owner, rawOwner: string, amt: number, cursor: string | undefined) {
    const id = pathOwner(auth, owner, rawOwner, false);
    await this.exists(db);
    const from = cursor ? decodeCursor(OWN_CURSOR, cursor, 1, Number.MAX_SAFE_INTEGER)[0]! : 0;
    const page = await this.store.own(db, owner, id.key, from, amt);
    return {
      interactions: page.list.map((e) => this.shown(auth, owner, e)),
      has_next: page.more,
      next_cursor: page.more ? encodeCursor(OWN_CURSOR, [from + amt]) : '',
      warnings: [] as string[],
    };
  }

  // Every user's (or session's) interactions in the order they were received, those with a timestamp
  // in [start, end); a page looks at a bounded number of interactions, so it can come back short.
  async listAll(auth: Claims, db: string, owner: Owner, amt: number, cursor: string | undefined, window: TimeFilter) {
    if (window.start !== undefined && window.end !== undefined && window.start >= window.end) {
      throw wrongData('WRONG_PARAMETER', 'start_timestamp must be before end_timestamp', { field: 'start_timestamp' });
    }
    await this.exists(db);
    const out: Record<string, unknown>[] = [];
    const inWindow = (t: number) => (window.start === undefined || t >= window.start) && (window.end === undefined || t < window.end);
    let [seq, row] = cursor ? decodeCursor(ALL_CURSOR, cursor, 2, Number.MAX_SAFE_INTEGER) : [1, 0];
    let scanned = 0;
    let more = true;
    while (out.length < amt && more && scanned < SCAN_PER_PAGE) {
      const got = await this.store.all(db, owner, seq!, row!, Math.min(1000, SCAN_PER_PAGE - scanned));
      scanned += got.scanned;
      more = got.more;
      [seq, row] = got.next;
      for (let k = 0; k < got.list.length; k++) {
        const e = got.list[k]!;
        if (!inWindow(e.timestamp)) continue;
        out.push(this.shown(auth, owner, e));
        if (out.length === amt) {
          // The next page starts right after the last one shown.
          [seq, row] = [e.at[0], e.at[1] + 1];
          more ||= k < got.list.length - 1;
          break;
        }
      }
    }
    return { interactions: out, has_next: more, next_cursor: more ? encodeCursor(ALL_CURSOR, [seq!, row!]) : '', warnings: [] as string[] };
  }

  // Links a session to a user (once); the session's interactions so far become the user's.
  async resolve(auth: Claims, db: string, rawSession: string, rawUser: unknown, timestamp: unknown) {
    const session = pathOwner(auth, 'session', rawSession, true);
    const user = parseId(auth, 'user', rawUser, true);
    const r = await this.link(db, session.key, user.key, checkTimestamp(timestamp, 'timestamp'));
    if (r !== 'resolved')
      throw wrongData('WRONG_PARAMETER', `session ${JSON.stringify(session.value)} is already resolved`, { field: 'session_id' });
    return { warnings: [] as string[] };
  }

  // Also used by a frontend login naming both a user and a session. `already-same`: it was resolved
  // to this user before; `already-other`: to another one.
  async link(db: string, session: string, user: string, timestamp: number): Promise<'resolved' | 'already-same' | 'already-other'> {
    const { rules, defaults } = await this.rules.get(db);
    const all = new Map(Object.entries(defaults));
    for (const [type, rule] of Object.entries(rules)) all.set(type, rule);
    const r = await this.store.resolve(
      db,
      session,
      user,
      timestamp,
      [...all].map(([type, rule]) => [type, rule.rating, rule.combine === 'replace']),
    );
    if (r === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
    if (r === 'already') return (await this.store.links(db, [session]))[0]?.user === user ? 'already-same' : 'already-other';
    await retrainOnFeedback(this.training, db, r);
    return 'resolved';
  }

  async resolvedSessions(auth: Claims, db: string, rawUsers: unknown[] | undefined, amt: number, cursor: string | undefined) {
    const users = rawUsers?.map((u) => parseId(auth, 'user', u, false).key);
    await this.exists(db);
    const from = cursor ? decodeCursor('v1', cursor, 1)[0]! : 0;
    const page = await this.store.resolvedPage(db, from, amt, users);
    return {
      resolved_sessions: page.sessions.map((s) => ({
        session_id: shownId(auth, 'session', s.session),
        user_id: shownId(auth, 'user', s.user),
        timestamp: s.timestamp,
      })),
      has_next: page.next !== undefined,
      next_cursor: page.next !== undefined ? encodeCursor('v1', [page.next]) : '',
      warnings: [] as string[],
    };
  }

  // DELETE interactions-ratings-bulk/: a background task; its record shows the progress.
  async forgetUsers(auth: Claims, db: string, rawUsers: unknown[]) {
    const users = [...new Set(rawUsers.map((u) => parseId(auth, 'user', u, false).key))];
    await this.exists(db);
    const task = {
      task_id: randomUUID(),
      name: DELETION_TASK,
      start_time: Date.now() / 1000,
      end_time: null as number | null,
      status: 'RUNNING' as const,
      progress: `0/${users.length} users`,
      error: null as string | null,
    };
    await this.tasks.put(db, task);
    void (async () => {
      try {
        for (let k = 0; k < users.length; k++) {
          await this.forgetUser(db, users[k]!);
          if ((k + 1) % 100 === 0) await this.tasks.put(db, { ...task, progress: `${k + 1}/${users.length} users` });
        }
        await this.tasks.put(db, {
          ...task,
          status: 'COMPLETED',
          end_time: Date.now() / 1000,
          progress: `${users.length}/${users.length} users`,
        });
      } catch (err) {
        this.logger.error({ err, db }, 'interactions and ratings deletion failed');
        await this.tasks.put(db, { ...task, status: 'FAILED', end_time: Date.now() / 1000, error: String(err) }).catch(() => undefined);
      }
    })();
    return { task_id: task.task_id, warnings: [] as string[] };
  }

  // A user's interactions and ratings (explicit and inferred).
  async forgetUser(db: string, user: string): Promise<void> {
    await this.store.forget(db, 'user', user);
    await this.store.unlinkUser(db, user);
    if ((await this.ratings.remove(db, user, undefined)) === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
  }

  private shown(auth: Claims, owner: Owner, e: StoredInteraction) {
    return {
      [OWNER_FIELD[owner]]: shownId(auth, owner, e.owner),
      item_id: shownId(auth, 'item', e.item),
      interaction_type: e.type,
      timestamp: e.timestamp,
      properties: e.properties ? unpack<Record<string, unknown>>(e.properties) : {},
    };
  }

  private async exists(db: string): Promise<void> {
    await this.rules.get(db); // DATABASE_NOT_FOUND for a deleted database
  }
}

// The answer of a write: the request's warnings, and one per session of it that is resolved; for a
// write not applied because its Idempotency-Key (`repeatOf`) was applied before, a warning saying so.
function answer(auth: Claims, resolved: string[], warnings: string[], repeatOf: string | undefined): Answer {
  if (resolved.length === 0 && warnings.length === 0 && repeatOf === undefined) return STORED;
  for (const s of resolved)
    warnings.push(`session ${JSON.stringify(shownId(auth, 'session', s))} is resolved: its interactions also count for its user`);
  if (repeatOf !== undefined)
    warnings.push(`a write with Idempotency-Key ${JSON.stringify(repeatOf)} was applied before: this one was not applied again`);
  return { warnings };
}

// The usual answer, shared (and so encoded once per codec).
const STORED: Answer = Object.freeze({ warnings: Object.freeze([]) as unknown as string[] });

// Each row's inferred rating by its type's rule.
function rate(batch: InteractionBatch, rules: Map<string, InteractionRule>): void {
  for (const row of batch.rows) {
    const rule = rules.get(row.type.toLowerCase())!;
    row.rating = rule.rating;
    row.replace = rule.combine === 'replace';
  }
}

// Cursors: a position in one owner's list of interactions; a chunk and a row in the chunks of all.
const OWN_CURSOR = 'o1';
const ALL_CURSOR = 'a1';
