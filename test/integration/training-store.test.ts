// The ratings snapshot is stored in parts under a generation: it reads back byte for byte, a new
// one replaces the old and removes its parts, and a snapshot stored whole (before parts) still reads.
// A run in progress is asked to hurry only while an explicit request's run is queued behind it.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { TrainingStore } from '../../src/store/training-store.js';
import { storeRedis } from '../helpers/stack.js';

const redis = await storeRedis(t, 'training-store-test');
const store = new TrainingStore(redis);
const db = 'db1';
const PART = 1000;
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, k) => (k * 13 + seed) & 0xff);
const same = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b));

t.test('no snapshot yet: nothing, from the log start', async (t) => {
  t.same(await store.snapshot(db), { blob: undefined, after: '0-0' });
});

t.test('a snapshot stored whole before parts existed still reads', async (t) => {
  const old = bytes(1500, 1);
  await redis.set(keys.ratingsSnapshot(db), Buffer.from(old));
  await redis.set(keys.ratingsSnapshotId(db), '5-0');
  const s = await store.snapshot(db);
  t.ok(same(s.blob, old), 'the same bytes');
  t.equal(s.after, '5-0');
});

t.test('snapshots in parts read back whole; each replaces the last and its parts', async (t) => {
  for (const [n, seed, last] of [
    [2500, 2, '7-0'],
    [1000, 3, '9-0'],
    [10, 4, '9-0'],
    [3001, 5, '12-0'],
  ] as const) {
    const blob = bytes(n, seed);
    await store.compact(db, blob, last, PART);
    const s = await store.snapshot(db);
    t.ok(same(s.blob, blob), `${n} bytes: the same bytes`);
    t.equal(s.after, last);
    const left = await redis.keys(`{db:${db}}:ratings:snapshot*`);
    t.same(
      left.filter((k) => k.startsWith(`{db:${db}}:ratings:snapshot:`)).length,
      Math.ceil(n / PART),
      `${n} bytes: only its own parts are left`,
    );
    t.notOk(left.includes(keys.ratingsSnapshot(db)), 'the whole-value key is gone');
    const generation = (await redis.get(keys.ratingsSnapshotParts(db)))!.split(' ')[0]!;
    t.same(
      await redis.hgetall(keys.ratingsSnapshotGenerations(db)),
      { [generation]: String(Math.ceil(n / PART)) },
      `${n} bytes: only its generation is listed (what a delete finds parts by)`,
    );
  }
});

t.test('a part gone missing fails the read rather than giving a short snapshot', async (t) => {
  const parts = await redis.keys(`{db:${db}}:ratings:snapshot:*`);
  await redis.del(parts[0]!);
  await t.rejects(store.snapshot(db), /missing/);
});

t.test('a run is asked to hurry while a requested run is queued, never by one already taken', async (t) => {
  const name = 'ml_model_retrain';
  t.notOk(await store.hurried(db, name), 'nothing asked at first');
  await store.hurry(db, name);
  t.notOk(await store.hurried(db, name), 'no run queued: nothing to hurry for');
  t.ok(await store.markQueued(db, name, 'task-1'));
  await store.hurry(db, name);
  t.ok(await store.hurried(db, name), 'a run queued and requested: the one in progress hurries');
  t.notOk(await store.hurried(db, 'ml_new_items'), 'only runs of that name');
  t.equal(await store.takeQueued(db, name), 'task-1', 'the next run takes the record');
  t.notOk(await store.hurried(db, name), 'and the hurry with it: the run that took it does not cut itself short');
  t.equal(await store.takeQueued(db, name), undefined, 'nothing left queued');
});
