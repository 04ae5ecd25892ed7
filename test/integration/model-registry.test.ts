// What a process holds against what Redis says is current. A held model answers requests until its
// successor is loaded (announced over pub/sub, seconds for a large model); a task that makes a model
// from the current one (ml_new_items, precomputed tables) reads the published one instead, so it
// never republishes an older training over a newer one.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { pino } from 'pino';
import { allocateModel } from '../../src/engine/model/layout.js';
import { ModelRegistry } from '../../src/engine/model/registry.js';
import { keys } from '../../src/store/keys.js';
import { ModelsStore, type ModelMeta } from '../../src/store/models-store.js';
import { storeRedis } from '../helpers/stack.js';

const redis = await storeRedis(t, 'model-registry-test');
const store = new ModelsStore(redis);
const db = 'db1';
const ITEMS = 4,
  USERS = 3;
// No subscription: this registry hears of no publication, as one that has not yet loaded the announced model.
const registry = new ModelRegistry(
  store,
  async (_db, kind, from, to) => Array.from({ length: to - from }, (_, k) => `${kind}${from + k}`),
  pino({ level: 'silent' }),
);

let published = 0;
async function publish(id: string, ratings: number): Promise<void> {
  const m = allocateModel({ factors: 2, users: USERS, items: ITEMS, itemList: 0, userList: 0, trainedItems: ITEMS, lists: 0 });
  const meta: ModelMeta = {
    model_id: id,
    timestamp: ++published,
    algorithm: 'als',
    n_users: USERS,
    n_items: ITEMS,
    n_ratings: ratings,
    factors: 2,
    item_list: 0,
    user_list: 0,
    bytes: m.buffer.byteLength,
    metrics: {},
    params: {},
  };
  await redis.set(keys.trainerLock(db), 'me');
  if (!(await store.publish(db, 'me', meta, m.buffer))) throw new Error('publish refused');
}

t.test('none published: neither current nor latest has a model', async (t) => {
  t.equal(await registry.current(db), undefined);
  t.equal(await registry.latest(db), undefined);
});

t.test('latest is the published model while an older one is still held', async (t) => {
  await publish('older', 100);
  t.equal((await registry.current(db))?.id, 'older', 'loaded on first ask');
  await publish('newer', 200);
  t.equal((await registry.current(db))?.id, 'older', 'current answers from the held model until the newer one is loaded');
  const latest = await registry.latest(db);
  t.equal(latest?.id, 'newer');
  t.equal(latest?.meta.n_ratings, 200);
  t.equal((await registry.current(db))?.id, 'newer', 'and, loaded, it is held in place of the older');
  t.equal(await registry.latest(db), latest, 'held: not read again');
});
