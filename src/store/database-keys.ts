// Every key of a database, listed from the database's own records (never a SCAN of the keyspace, which
// costs as much as every database's keys together, nor a node-local listing of a cluster slot), and
// their removal in batches. Each family of keys.ts is listed from the record that names its members;
// the records themselves come last, once what they name is listed.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { readLuaFrame, type LuaValue } from './lua.js';
import { unpack } from './msgpack-values.js';
import type { ModelMeta } from './models-store.js';
import { REPLAY_TASK } from './tasks-store.js';

type Key = string | Buffer;

// Keys per UNLINK: one command's reply (and Redis' time on it) stays small.
export const UNLINK_BATCH = 1000;
const UNLINKS_IN_FLIGHT = 4;
// Hash fields (or sorted-set members) asked for per HSCAN or ZRANGE; a user yields five keys.
const PAGE = 1000;
// Interaction chunks hold up to CHUNK_ROWS rows each: fewer per HSCAN.
const CHUNK_PAGE = 20;

// The keys.ts entries naming keys that are listed from records (each by a generator below); every other
// key of a database is one of fixedKeys (test/unit/database-keys.test.ts holds keys.ts to this).
export const LISTED_FROM_RECORDS = [
  'userRatingsPrefix',
  'interactionRefsPrefix',
  'userSessionsPrefix',
  'task',
  'modelBlob',
  'modelPart',
  'ratingsSnapshotPart',
  'tableBlob',
  'idempotencyKey',
  'impressionCreditsPrefix',
  'shownPrefix',
  'outcomesPrefix',
  'replayResult',
] as const;

// Unlinks every key of database `db`; taskNames: the task names its records may be filed under. The
// database's record should be gone first, so that no write script adds keys meanwhile (they all check
// it). O(keys of the database): nothing else is read. Returns how many keys were removed.
export async function unlinkDatabase(redis: Connection, db: string, taskNames: readonly string[], batch = UNLINK_BATCH): Promise<number> {
  let pending: Key[] = [];
  let removed = 0;
  const inFlight = new Set<Promise<void>>();
  // A few UNLINKs in flight: the next batch is listed and encoded while Redis removes the last.
  const flush = async () => {
    const out = pending;
    pending = [];
    if (out.length === 0) return;
    const sent: Promise<void> = redis.unlink(...out).then((n) => {
      removed += n;
      inFlight.delete(sent);
    });
    // Failures surface through the race or the final wait; this keeps one seen while neither waits.
    sent.catch(() => undefined);
    inFlight.add(sent);
    if (inFlight.size >= UNLINKS_IN_FLIGHT) await Promise.race(inFlight);
  };
  for await (const page of databaseKeys(redis, db, taskNames)) {
    for (const key of page) {
      pending.push(key);
      if (pending.length >= batch) await flush();
    }
  }
  await flush();
  await Promise.all(inFlight);
  return removed;
}

// The database's keys, page by page (a database of millions of users is never held whole). A key may
// come twice (HSCAN may return a field twice; a session has rows in several chunks) or name a key that
// does not exist (a user without ratings): unlinking it again or in vain is harmless.
export async function* databaseKeys(redis: Connection, db: string, taskNames: readonly string[]): AsyncGenerator<Key[]> {
  yield* userKeys(redis, db);
  yield* sessionRefs(redis, db);
  for (const name of taskNames) yield* taskRecords(redis, db, name);
  yield* modelBlobs(redis, db);
  yield* modelsBeingWritten(redis, db);
  yield await currentSnapshotParts(redis, db);
  yield* snapshotGenerations(redis, db);
  for await (const pairs of hashPairs(redis, keys.tables(db), PAGE)) yield pairs.map(([name]) => keys.tableBlob(db, name.toString()));
  yield* idempotencyKeys(redis, db);
  yield* registered(redis, keys.outcomeKeys(db));
  yield* registered(redis, keys.shownViewers(db), keys.shownPrefix(db));
  yield* registered(redis, keys.impressionOrder(db), keys.impressionCreditsPrefix(db), (m) => m.slice(0, m.indexOf(' ')));
  yield fixedKeys(db, taskNames);
}

// The keys whose names do not depend on the data: the records the families above are listed from
// among them, so they go last.
export function fixedKeys(db: string, taskNames: readonly string[]): string[] {
  const both = <T extends string>(f: (db: string, kind: T) => string, kinds: T[]) => kinds.map((k) => f(db, k));
  return [
    keys.database(db),
    keys.scenarios(db),
    keys.scenarioDefaults(db),
    keys.scenariosVersion(db),
    keys.abTests(db),
    ...both(keys.properties, ['item', 'user']),
    ...both(keys.propertyOrder, ['item', 'user']),
    keys.propertySeq(db),
    ...both(keys.entityIndex, ['item', 'user']),
    ...both(keys.entityIds, ['item', 'user']),
    ...both(keys.entityNext, ['item', 'user']),
    ...both(keys.entityRecords, ['item', 'user']),
    keys.catalogueChanges(db),
    keys.ratingsLog(db),
    keys.ratingsCount(db),
    keys.ratingsNextThreshold(db),
    keys.interactionRules(db),
    ...both(keys.interactionChunks, ['user', 'session']),
    ...both(keys.interactionChunkSeq, ['user', 'session']),
    keys.interactionCounts(db),
    keys.idempotencyKeys(db),
    keys.resolvedSessions(db),
    keys.resolvedOrder(db),
    keys.resolvedSeq(db),
    ...taskNames.flatMap((name) => [
      keys.tasksByName(db, name),
      keys.queuedTask(db, name),
      keys.taskHurry(db, name),
      keys.taskFailures(db, name),
    ]),
    keys.trainerLock(db),
    keys.trainingRun(db),
    keys.ratingsSnapshot(db),
    keys.ratingsSnapshotId(db),
    keys.ratingsSnapshotParts(db),
    keys.ratingsSnapshotGenerations(db),
    keys.models(db),
    keys.modelOrder(db),
    keys.modelsWriting(db),
    keys.currentModel(db),
    keys.tables(db),
    keys.impressionBatches(db),
    keys.impressionOrder(db),
    keys.impressionCount(db),
    keys.shownViewers(db),
    keys.outcomeKeys(db),
  ];
}

// Per user, from the users' ids (index -> id; an index is never removed once given): its ratings (by
// index), its interaction references and the set of sessions resolved to it (by id).
async function* userKeys(redis: Connection, db: string): AsyncGenerator<Key[]> {
  const ratings = keys.userRatingsPrefix(db);
  const refs = Buffer.from(keys.interactionRefsPrefix(db, 'user'));
  const sessions = Buffer.from(keys.userSessionsPrefix(db));
  for await (const pairs of hashPairs(redis, keys.entityIds(db, 'user'), PAGE)) {
    yield pairs.flatMap(([index, id]) => [
      `${ratings}${index}:t`,
      `${ratings}${index}:v`,
      Buffer.concat([refs, id]),
      Buffer.concat([sessions, id]),
    ]);
  }
}

// Sessions are not indexed, but a session holding interaction references owns live rows in the
// sessions' chunks (rows are blanked, owner included, only when their owner's references go): the
// chunks' owners name every session with references. Reading the chunks costs the delete about what
// removing them does, where a registry of sessions would cost every write and its memory.
async function* sessionRefs(redis: Connection, db: string): AsyncGenerator<Key[]> {
  const prefix = Buffer.from(keys.interactionRefsPrefix(db, 'session'));
  for await (const pairs of hashPairs(redis, keys.interactionChunks(db, 'session'), CHUNK_PAGE)) {
    const owners = new Set<string>();
    for (const [, chunk] of pairs) {
      for (const owner of (readLuaFrame(chunk) as LuaValue[])[0] as Uint8Array[])
        if (owner.length > 0) owners.add(Buffer.from(owner).toString('latin1'));
    }
    yield [...owners].map((o) => Buffer.concat([prefix, Buffer.from(o, 'latin1')]));
  }
}

// Task records of one name (the store keeps the last hundred or so per name).
async function* taskRecords(redis: Connection, db: string, name: string): AsyncGenerator<Key[]> {
  const byName = keys.tasksByName(db, name);
  for (let from = 0; ; from += PAGE) {
    const ids = await redis.zrange(byName, String(from), String(from + PAGE - 1));
    yield ids.flatMap((id) => (name === REPLAY_TASK ? [keys.task(db, id), keys.replayResult(db, id)] : [keys.task(db, id)]));
    if (ids.length < PAGE) return;
  }
}

// Each model's buffer and its parts (how many: its metadata). Buffers are kept for the newest models
// only, whose metadata outlives them; unlinking the parts of a trimmed buffer again is harmless.
async function* modelBlobs(redis: Connection, db: string): AsyncGenerator<Key[]> {
  for await (const pairs of hashPairs(redis, keys.models(db), PAGE)) {
    yield pairs.flatMap(([rawId, meta]) => {
      const id = rawId.toString();
      const parts = unpack<ModelMeta>(meta)?.parts ?? 1;
      return [keys.modelBlob(db, id), ...Array.from({ length: Math.max(0, parts - 1) }, (_, k) => keys.modelPart(db, id, k + 1))];
    });
  }
}

// The parts of models whose publication did not finish (parts after the first: the first is written by
// the script that publishes).
async function* modelsBeingWritten(redis: Connection, db: string): AsyncGenerator<Key[]> {
  for await (const pairs of hashPairs(redis, keys.modelsWriting(db), PAGE)) {
    yield pairs.flatMap(([id, parts]) =>
      Array.from({ length: Math.max(0, Number(parts) - 1) }, (_, k) => keys.modelPart(db, id.toString(), k + 1)),
    );
  }
}

// The parts of the current ratings snapshot ("<generation> <parts> <bytes>"; a snapshot written before
// generations were listed is named by this pointer only).
async function currentSnapshotParts(redis: Connection, db: string): Promise<string[]> {
  const pointer = await redis.get(keys.ratingsSnapshotParts(db));
  if (!pointer) return [];
  const [generation = '', parts] = pointer.split(' ');
  return snapshotParts(db, generation, Number(parts));
}

// The parts of every snapshot generation listed: the current one, and any a compaction left behind.
async function* snapshotGenerations(redis: Connection, db: string): AsyncGenerator<Key[]> {
  for await (const pairs of hashPairs(redis, keys.ratingsSnapshotGenerations(db), PAGE)) {
    yield pairs.flatMap(([generation, parts]) => snapshotParts(db, generation.toString(), Number(parts)));
  }
}

const snapshotParts = (db: string, generation: string, parts: number): string[] =>
  Array.from({ length: Number.isInteger(parts) && parts > 0 ? parts : 0 }, (_, k) => keys.ratingsSnapshotPart(db, generation, k));

// The Idempotency-Key records still remembered (their registry holds their key names).
function idempotencyKeys(redis: Connection, db: string): AsyncGenerator<Key[]> {
  return registered(redis, keys.idempotencyKeys(db));
}

// The keys a sorted set registers: its members (their names, or what `name` makes of them) after a prefix.
async function* registered(redis: Connection, registry: string, prefix = '', name = (m: string) => m): AsyncGenerator<Key[]> {
  for (let from = 0; ; from += PAGE) {
    const members = await redis.zrange(registry, String(from), String(from + PAGE - 1));
    yield members.map((m) => prefix + name(m));
    if (members.length < PAGE) return;
  }
}

// A hash's fields and values, a page at a time (HSCAN walks the one hash, not the keyspace).
async function* hashPairs(redis: Connection, key: string, count: number): AsyncGenerator<[Buffer, Buffer][]> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscanBuffer(key, cursor, 'COUNT', count);
    cursor = next.toString();
    const pairs: [Buffer, Buffer][] = [];
    for (let k = 0; k + 1 < flat.length; k += 2) pairs.push([flat[k]!, flat[k + 1]!]);
    yield pairs;
  } while (cursor !== '0');
}
