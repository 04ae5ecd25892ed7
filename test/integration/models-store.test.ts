// Model buffers larger than one part are stored in several Redis strings and read back whole; a
// publish without the trainer lock leaves no part behind; trimming old models removes every part.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { ModelsStore, type ModelMeta } from '../../src/store/models-store.js';
import { storeRedis } from '../helpers/stack.js';

const redis = await storeRedis(t, 'models-store-test');
const store = new ModelsStore(redis);
const db = 'db1';
const PART = 1000;
let published = 0; // publication order: models are ordered by timestamp

function model(id: string, bytes: number, seed: number): { meta: ModelMeta; buffer: Uint8Array } {
  const buffer = Uint8Array.from({ length: bytes }, (_, k) => (k * 31 + seed) & 0xff);
  const meta: ModelMeta = {
    model_id: id,
    timestamp: ++published,
    algorithm: 'als',
    n_users: 1,
    n_items: 1,
    n_ratings: 1,
    factors: 1,
    item_list: 0,
    user_list: 0,
    bytes,
    metrics: {},
    params: {},
  };
  return { meta, buffer };
}

const readBack = async (id: string) => {
  const meta = await store.meta(db, id);
  const buffer = meta && (await store.buffer(db, meta));
  return buffer && new Uint8Array(buffer);
};

t.test('a buffer of several parts reads back byte for byte, into shared memory', async (t) => {
  await redis.set(keys.trainerLock(db), 'me');
  for (const [id, bytes] of [
    ['one', 999],
    ['exact', 2000],
    ['three', 2001],
  ] as const) {
    const m = model(id, bytes, bytes);
    t.ok(await store.publish(db, 'me', m.meta, m.buffer, PART), `${id}: published`);
    const parts = Math.ceil(bytes / PART);
    t.equal((await store.meta(db, id))?.parts, parts > 1 ? parts : undefined, `${id}: ${parts} part(s) recorded`);
    const back = await readBack(id);
    t.ok(back?.buffer instanceof SharedArrayBuffer, `${id}: shared memory`);
    t.ok(back && Buffer.from(back).equals(Buffer.from(m.buffer)), `${id}: same bytes`);
    t.equal(await store.current(db), id, `${id}: current`);
    t.equal(await redis.hlen(keys.modelsWriting(db)), 0, `${id}: no longer listed as being written`);
  }
});

// A model past 4 GiB has no Uint8Array view (Node 20's longest typed array): it is given whole.
t.test('a whole shared buffer is stored as a view of it is', async (t) => {
  const m = model('whole', 2500, 5);
  const shared = new SharedArrayBuffer(m.buffer.byteLength);
  new Uint8Array(shared).set(m.buffer);
  t.ok(await store.publish(db, 'me', m.meta, shared, PART));
  t.equal((await store.meta(db, 'whole'))?.parts, 3);
  t.ok(Buffer.from((await readBack('whole'))!).equals(Buffer.from(m.buffer)), 'same bytes');
});

t.test('without the lock nothing is published and no part is left', async (t) => {
  const m = model('stolen', 2500, 7);
  t.notOk(await store.publish(db, 'someone else', m.meta, m.buffer, PART));
  t.equal(
    await redis.exists(keys.modelBlob(db, 'stolen'), keys.modelPart(db, 'stolen', 1), keys.modelPart(db, 'stolen', 2)),
    0,
    'no part stored',
  );
  t.equal(await store.meta(db, 'stolen'), undefined);
  t.equal(await redis.hlen(keys.modelsWriting(db)), 0, 'not listed as being written');
});

t.test('a part gone missing reads as no model rather than a short one', async (t) => {
  const m = model('torn', 2500, 9);
  t.ok(await store.publish(db, 'me', m.meta, m.buffer, PART));
  await redis.del(keys.modelPart(db, 'torn', 1));
  t.equal(await readBack('torn'), undefined);
});

t.test('trimming drops every part of the models beyond the last two', async (t) => {
  // Published so far: one, exact, three, whole, torn; two more push all but the last two out.
  for (const id of ['five', 'six']) {
    const m = model(id, 2100, 11);
    t.ok(await store.publish(db, 'me', m.meta, m.buffer, PART));
  }
  const left = await redis.keys(`{db:${db}}:models:blob:*`);
  t.same(
    left.sort(),
    [
      keys.modelBlob(db, 'five'),
      keys.modelBlob(db, 'six'),
      keys.modelPart(db, 'five', 1),
      keys.modelPart(db, 'five', 2),
      keys.modelPart(db, 'six', 1),
      keys.modelPart(db, 'six', 2),
    ].sort(),
  );
  t.ok(Buffer.from((await readBack('five'))!).equals(Buffer.from(model('five', 2100, 11).buffer)), 'the kept ones still read');
});

// What a process killed (kill -9) in the middle of a publication leaves: the model listed as being
// written and some of its later parts, never published. The next publication, by whichever process then
// holds the trainer lock, removes them; a model being written under the lock now is not touched.
t.test('the next publication reclaims the parts of a publication cut short', async (t) => {
  const other = 'db2';
  const partKeys = (id: string, n: number) => Array.from({ length: n }, (_, k) => keys.modelPart(other, id, k + 1));
  await redis.set(keys.trainerLock(other), 'dead');
  // The dead publication: listed with 4 parts, parts 1 and 2 written (part 3 never was).
  await redis.hset(keys.modelsWriting(other), 'cut', '4');
  await redis.mset(keys.modelPart(other, 'cut', 1), 'x', keys.modelPart(other, 'cut', 2), 'x');
  // Its lock expired; another process takes it. A part written by the dead one's owner is refused now.
  await redis.set(keys.trainerLock(other), 'next');
  const late = model('late', 2500, 3);
  t.notOk(await store.publish(other, 'dead', late.meta, late.buffer, PART), 'a former holder of the lock publishes nothing');
  t.equal(await redis.exists(...partKeys('late', 2)), 0, 'and leaves no part');

  const m = model('next', 2500, 13);
  t.ok(await store.publish(other, 'next', m.meta, m.buffer, PART), 'the next publication');
  t.equal(await redis.exists(...partKeys('cut', 3)), 0, 'the parts of the publication cut short are gone');
  t.strictSame(await redis.hgetall(keys.modelsWriting(other)), {}, 'nothing is listed as being written');
  t.ok(
    Buffer.from((await store.buffer(other, (await store.meta(other, 'next'))!))!).equals(Buffer.from(m.buffer)),
    'the new model reads back whole',
  );

  // A single-part model reclaims too.
  await redis.hset(keys.modelsWriting(other), 'cut2', '2');
  await redis.set(keys.modelPart(other, 'cut2', 1), 'x');
  const small = model('small', 10, 1);
  t.ok(await store.publish(other, 'next', small.meta, small.buffer, PART));
  t.equal(await redis.exists(keys.modelPart(other, 'cut2', 1)), 0, 'reclaimed by a one-part publication');
  t.strictSame(await redis.hgetall(keys.modelsWriting(other)), {});
});
