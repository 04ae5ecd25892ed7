// What the training scheduler keeps in Redis: the queue of due tasks, each database's trainer lock,
// the queued-task markers (one waiting record per task name), failure counts, the databases with
// feedback no model has seen, and the ratings snapshot a run starts from (ratings-log.ts: the log since).
import type { Connection } from './redis.js';
import { randomUUID } from 'node:crypto';
import { partCount, PART_BYTES, readParts, writeParts } from './blob-parts.js';
import { keys } from './keys.js';

// The lock renewed; 2 when its run is in progress (the marker is the owner's): the caller then extends
// the run's queue entry lease as long.
const RENEW = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local run = redis.call('GET', KEYS[2])
if run and string.sub(run, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then return 2 end
return 1`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
// A run that lost the lock to another trainer leaves the queue entry and its run marker to that one
// (-1). Else its marker goes, and the answer says whether a trigger queued another run meanwhile.
const SETTLE = `local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return -1 end
local run = redis.call('GET', KEYS[3])
if run and string.sub(run, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then redis.call('DEL', KEYS[3]) end
return redis.call('EXISTS', KEYS[1])`;
const BEGIN_RUN = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[1] .. ' ' .. ARGV[2]) return 1 end return 0`;
const TAKE_ABANDONED = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local run = redis.call('GET', KEYS[2])
if run then redis.call('DEL', KEYS[2]) end
return run`;
const TAKE_QUEUED = `local id = redis.call('GETDEL', KEYS[1]) redis.call('DEL', KEYS[2]) return id`;
const HURRY = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SET', KEYS[2], '1') return 1 end return 0`;
const LEASE_IF_DUE = `local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) <= tonumber(ARGV[2]) then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) return 1 end
return 0`;

export class TrainingStore {
  constructor(private readonly redis: Connection) {}

  // Marks `name` queued for the database with the record `taskId`; false when one is queued already.
  async markQueued(db: string, name: string, taskId: string): Promise<boolean> {
    return (await this.redis.set(keys.queuedTask(db, name), taskId, 'NX')) === 'OK';
  }

  // The queued record's id, no longer queued (undefined when none was); a hurry set for it goes with it.
  async takeQueued(db: string, name: string): Promise<string | undefined> {
    return ((await this.redis.eval(TAKE_QUEUED, 2, keys.queuedTask(db, name), keys.taskHurry(db, name))) as string | null) ?? undefined;
  }

  // An explicit request joined or queued a run of `name`: while it is queued, a run in progress is
  // asked to hurry (keys.taskHurry). Nothing when no run is queued any more (one took it meanwhile).
  async hurry(db: string, name: string): Promise<void> {
    await this.redis.eval(HURRY, 2, keys.queuedTask(db, name), keys.taskHurry(db, name));
  }

  // Whether an explicit request waits behind the run in progress of `name`.
  async hurried(db: string, name: string): Promise<boolean> {
    return (await this.redis.exists(keys.taskHurry(db, name))) === 1;
  }

  async queuedId(db: string, name: string): Promise<string | undefined> {
    return (await this.redis.get(keys.queuedTask(db, name))) ?? undefined;
  }

  // Due no earlier than notBefore (ms); an earlier due time already queued is kept.
  async enqueue(db: string, name: string, notBefore: number): Promise<void> {
    await this.redis.zadd(keys.trainingQueue(), 'LT', notBefore, `${name} ${db}`);
  }

  // A run takes its queue entry as a lease, if the entry is still due at `now`: should the process die,
  // the entry falls due again at `until` (renewed with the lock). False when it is not due (another process ran it after this
  // one read the queue, or a retry's backoff moved it later): then there is nothing to run.
  async leaseIfDue(db: string, name: string, now: number, until: number): Promise<boolean> {
    return (await this.redis.eval(LEASE_IF_DUE, 1, keys.trainingQueue(), `${name} ${db}`, now, until)) === 1;
  }

  // After a run of `owner` (the lock's value): its run marker goes; the entry is due now if a trigger
  // queued another run meanwhile, else out of the queue. False, touching nothing, when another trainer
  // holds the lock: this run stalled past the lock's TTL and that trainer has taken it over.
  // The training queue is global and the rest the database's (two slots on a cluster), so the script
  // settles the database's side and the queue is updated after it. Dropping the entry races a trigger
  // that queues a run between the script and the ZREM (its marker set, its ZADD before the ZREM): the
  // marker is looked at again after the ZREM, and a queued run is put back.
  async settle(db: string, name: string, owner: string): Promise<boolean> {
    const queued = (await this.redis.eval(
      SETTLE,
      3,
      keys.queuedTask(db, name),
      keys.trainerLock(db),
      keys.trainingRun(db),
      owner,
    )) as number;
    if (queued === -1) return false;
    const entry = `${name} ${db}`;
    if (queued === 1) {
      await this.redis.zadd(keys.trainingQueue(), Date.now(), entry);
      return true;
    }
    await this.redis.zrem(keys.trainingQueue(), entry);
    if ((await this.redis.exists(keys.queuedTask(db, name))) === 1) await this.redis.zadd(keys.trainingQueue(), 'LT', Date.now(), entry);
    return true;
  }

  // Marks the run of task record `taskId` in progress under the lock `owner` holds; false when it does not.
  async beginRun(db: string, owner: string, taskId: string): Promise<boolean> {
    return (await this.redis.eval(BEGIN_RUN, 2, keys.trainerLock(db), keys.trainingRun(db), owner, taskId)) === 1;
  }

  // For a new holder of the lock: the run marker a previous holder left behind (its process died or
  // stalled past the lock's TTL before settling), removed; undefined when there is none.
  async takeAbandoned(db: string, owner: string): Promise<{ name: string; taskId: string } | undefined> {
    const run = (await this.redis.eval(TAKE_ABANDONED, 2, keys.trainerLock(db), keys.trainingRun(db), owner)) as string | null;
    if (!run) return undefined;
    const [, name = '', taskId = ''] = run.split(' ');
    return { name, taskId };
  }

  // Due at `at` (a retry's backoff), whatever was set before.
  async schedule(db: string, name: string, at: number): Promise<void> {
    await this.redis.zadd(keys.trainingQueue(), at, `${name} ${db}`);
  }

  async due(now: number, max: number): Promise<{ db: string; name: string }[]> {
    const members = await this.redis.zrangebyscore(keys.trainingQueue(), '-inf', now, 'LIMIT', 0, max);
    return members.map((m) => {
      const [name, db] = m.split(' ') as [string, string];
      return { db, name };
    });
  }

  // The database's trainer lock, held by `owner` for ttlMs unless renewed.
  async lock(db: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(keys.trainerLock(db), owner, 'PX', ttlMs, 'NX')) === 'OK';
  }

  // The lock for ttlMs more, and the lease of the run's queue entry (`name`) as long.
  // The lease is extended after the script (the queue is in another slot on a cluster), and only for
  // an entry still there (XX): should the lock be lost or the run settle in between, the entry falls
  // due at most one TTL later than it would have; an entry settled away is not brought back.
  async renew(db: string, name: string, owner: string, ttlMs: number): Promise<boolean> {
    const held = (await this.redis.eval(RENEW, 2, keys.trainerLock(db), keys.trainingRun(db), owner, ttlMs)) as number;
    if (held === 2) await this.redis.zadd(keys.trainingQueue(), 'XX', Date.now() + ttlMs, `${name} ${db}`);
    return held > 0;
  }

  async unlock(db: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, keys.trainerLock(db), owner);
  }

  // "<process token> <task name>" of the trainer holding the lock.
  async holder(db: string): Promise<string | undefined> {
    return (await this.redis.get(keys.trainerLock(db))) ?? undefined;
  }

  async failed(db: string, name: string): Promise<number> {
    return this.redis.incr(keys.taskFailures(db, name));
  }

  async succeeded(db: string, name: string): Promise<void> {
    await this.redis.del(keys.taskFailures(db, name));
  }

  // Databases that received feedback (flushed by each process about once a second).
  async noteFeedback(dbs: string[], now: number): Promise<void> {
    if (dbs.length === 0) return;
    const members = dbs.flatMap((db) => [now, db]);
    await this.redis.zadd(keys.unmodelledFeedback(), 'NX', ...members);
    await this.redis.zadd(keys.lastFeedback(), 'GT', ...members);
  }

  // When the database's last feedback write was noted (ms), if any.
  async lastFeedback(db: string): Promise<number | undefined> {
    const at = await this.redis.zscore(keys.lastFeedback(), db);
    return at === null ? undefined : Number(at);
  }

  // A queued entry due no earlier than `at` (ms): only an entry still queued, only later.
  async postpone(db: string, name: string, at: number): Promise<void> {
    await this.redis.zadd(keys.trainingQueue(), 'XX', 'GT', at, `${name} ${db}`);
  }

  // A run is about to read the ratings: what arrives from now on is new again.
  async feedbackSeen(db: string): Promise<void> {
    await this.redis.zrem(keys.unmodelledFeedback(), db);
  }

  async staleFeedback(olderThan: number, max: number): Promise<string[]> {
    return this.redis.zrangebyscore(keys.unmodelledFeedback(), '-inf', olderThan, 'LIMIT', 0, max);
  }

  async forgetDatabase(db: string, taskNames: readonly string[]): Promise<void> {
    await this.redis.zrem(keys.unmodelledFeedback(), db);
    await this.redis.zrem(keys.lastFeedback(), db);
    await this.redis.zrem(keys.trainingQueue(), ...taskNames.map((name) => `${name} ${db}`));
  }

  // The index high-water marks: factor matrices cover every user and item known so far.
  async sizes(db: string): Promise<{ users: number; items: number }> {
    const [users, items] = await this.redis.mget(keys.entityNext(db, 'user'), keys.entityNext(db, 'item'));
    return { users: Number(users ?? 0), items: Number(items ?? 0) };
  }

  async snapshot(db: string): Promise<{ blob: Uint8Array | undefined; after: string }> {
    const [pointer, after] = await this.redis.mget(keys.ratingsSnapshotParts(db), keys.ratingsSnapshotId(db));
    if (!pointer) return { blob: (await this.redis.getBuffer(keys.ratingsSnapshot(db))) ?? undefined, after: after ?? '0-0' };
    const { generation, parts, bytes } = parsePointer(pointer);
    const blob = await readParts(this.redis, snapshotParts(db, generation, parts), new Uint8Array(bytes));
    if (!blob) throw new Error(`ratings snapshot ${generation}: a part is missing`);
    return { blob, after: after ?? '0-0' };
  }

  // The compacted ratings replace the snapshot (written whole under a new generation, then made
  // current with the log entry it covers); the log entries they cover are trimmed. A generation is
  // listed from before its parts are written until they are removed, so that deleting the database
  // finds them should this process die in between.
  async compact(db: string, blob: Uint8Array, last: string, partBytes = PART_BYTES): Promise<void> {
    const generation = randomUUID();
    const parts = partCount(blob.byteLength, partBytes);
    const generations = keys.ratingsSnapshotGenerations(db);
    await this.redis.hset(generations, generation, parts);
    await writeParts(this.redis, (k) => keys.ratingsSnapshotPart(db, generation, k), blob, 0, partBytes);
    const old = await this.redis.get(keys.ratingsSnapshotParts(db));
    await this.redis
      .multi()
      .set(keys.ratingsSnapshotParts(db), `${generation} ${parts} ${blob.byteLength}`)
      .set(keys.ratingsSnapshotId(db), last)
      .unlink(keys.ratingsSnapshot(db))
      .exec();
    if (old !== null) {
      const o = parsePointer(old);
      await this.redis
        .multi()
        .unlink(...snapshotParts(db, o.generation, o.parts))
        .hdel(generations, o.generation)
        .exec();
    }
    if (last !== '0-0') await this.redis.xtrim(keys.ratingsLog(db), 'MINID', last);
  }
}

const snapshotParts = (db: string, generation: string, parts: number): string[] =>
  Array.from({ length: parts }, (_, k) => keys.ratingsSnapshotPart(db, generation, k));

function parsePointer(pointer: string): { generation: string; parts: number; bytes: number } {
  const [generation = '', parts, bytes] = pointer.split(' ');
  return { generation, parts: Number(parts), bytes: Number(bytes) };
}
