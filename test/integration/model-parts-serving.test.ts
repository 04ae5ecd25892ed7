// A model stored in many Redis parts is read back whole by the serving process and answers users
// from it: parts small enough that the user section spans several and one user's factors straddle a
// part boundary, published the way a training publishes (under the trainer lock, then announced).
// models-store.test.ts checks the bytes; this checks what a user is recommended from them, also from a
// model of layout 2 (an earlier build's).
import t from 'tap';
import { allocateModel, type ModelViews } from '../../src/engine/model/layout.js';
import { DatabasesStore } from '../../src/store/databases-store.js';
import { keys } from '../../src/store/keys.js';
import { ModelsStore, type ModelMeta } from '../../src/store/models-store.js';
import { TrainingStore } from '../../src/store/training-store.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const FACTORS = 8;
const USERS = 300;
const ITEMS = 50;
const AMT = 5;
// The header is 64 bytes and a user row 32: the boundary at 1,000 falls inside row 29 (bytes 992..1,024).
const PART = 1000;
const STRADDLING = 29;

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);
const db = await createDatabase(api, root, { item_id_type: 'uint32', user_id_type: 'uint32' });
const token = await tokenFor(api, root, 'backend', db);

const ids = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
for (const [path, body] of [
  ['items-bulk/properties/', { items: ids(ITEMS).map((item_id) => ({ item_id })) }],
  ['users-bulk/properties/', { users: ids(USERS).map((user_id) => ({ user_id })) }],
] as const) {
  const r = await api.put(path, body, { token });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
}

// Dense rows, as recd handed them out.
const rowOfUser = new Map<number, number>();
const userRows = await redis.hmget(keys.entityIndex(db, 'user'), ...ids(USERS).map(String));
userRows.forEach((row, k) => rowOfUser.set(k + 1, Number(row)));
const itemIdOfRow = (await redis.hmget(keys.entityIds(db, 'item'), ...Array.from({ length: ITEMS }, (_, r) => String(r)))).map(Number);
const userAtRow = (row: number) => [...rowOfUser].find(([, r]) => r === row)![0];

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

function randomModel(seed: number): { buffer: SharedArrayBuffer; views: ModelViews } {
  const m = allocateModel({ factors: FACTORS, users: USERS, items: ITEMS, itemList: 0, userList: 0, trainedItems: ITEMS, lists: 0 });
  const next = seeded(seed);
  m.views.userFactors.forEach((_, k, a) => (a[k] = next()));
  m.views.itemFactors.forEach((_, k, a) => (a[k] = next()));
  m.views.popularity.forEach((_, k, a) => (a[k] = k));
  m.views.itemCounts.fill(1);
  return m;
}

// The user's best items by the dot product of the model's factors, as item ids.
function expectedTop(v: ModelViews, userId: number): number[] {
  const u = rowOfUser.get(userId)!;
  const scores = Array.from({ length: ITEMS }, (_, i) => {
    let s = 0;
    for (let a = 0; a < FACTORS; a++) s += v.userFactors[u * FACTORS + a]! * v.itemFactors[i * FACTORS + a]!;
    return [s, i] as const;
  });
  return scores
    .sort((x, y) => y[0] - x[0])
    .slice(0, AMT)
    .map(([, i]) => itemIdOfRow[i]!);
}

let published = 0;
async function publish(id: string, m: { buffer: SharedArrayBuffer; views: ModelViews }, userList = 0): Promise<void> {
  const owner = `test ${id}`;
  const training = new TrainingStore(redis);
  if (!(await training.lock(db, owner, 60_000))) throw new Error('trainer lock taken');
  const meta: ModelMeta = {
    model_id: id,
    timestamp: Date.now() / 1000 + ++published, // strictly newer than the last
    algorithm: 'als',
    n_users: USERS,
    n_items: ITEMS,
    n_ratings: 0,
    factors: FACTORS,
    item_list: 0,
    user_list: userList,
    bytes: m.buffer.byteLength,
    metrics: {},
    params: {},
    ratings_log_id: '0-0', // no feedback after the model's data: users are ranked by their trained factors
  };
  try {
    if (!(await new ModelsStore(redis).publish(db, owner, meta, m.buffer, PART))) throw new Error('publish refused');
  } finally {
    await training.unlock(db, owner);
  }
  const databases = new DatabasesStore(redis);
  const record = await databases.get(db);
  if (record && record.status !== 'ready') await databases.update({ ...record, status: 'ready' });
}

const answer = async (userId: number) => {
  const r = await api.get(`recommendation/users/${userId}/items/`, { token, query: `amt=${AMT}` });
  if (r.status !== 200) throw new Error(`user ${userId}: ${r.status} ${r.text}`);
  return r.body.items_id as number[];
};
const checked = [userAtRow(0), userAtRow(STRADDLING - 1), userAtRow(STRADDLING), userAtRow(STRADDLING + 1), userAtRow(USERS - 1)];

t.test('a model of many parts serves every user from their own factors', async (t) => {
  const m = randomModel(1);
  await publish('first', m);
  const meta = await new ModelsStore(redis).meta(db, 'first');
  t.equal(meta?.parts, Math.ceil(m.buffer.byteLength / PART), `stored in ${meta?.parts} parts`);
  t.ok((meta?.parts ?? 0) > (64 + USERS * FACTORS * 4) / PART, 'the user section alone spans several parts');
  for (const user of checked) t.same(await answer(user), expectedTop(m.views, user), `user ${user} (row ${rowOfUser.get(user)})`);
});

t.test('the next one, announced while the first serves, replaces it whole', async (t) => {
  const m = randomModel(2);
  await publish('second', m);
  const last = checked[checked.length - 1]!;
  await until(
    'the second model serves',
    () => answer(last),
    (got) => JSON.stringify(got) === JSON.stringify(expectedTop(m.views, last)),
  );
  for (const user of checked) t.same(await answer(user), expectedTop(m.views, user), `user ${user} (row ${rowOfUser.get(user)})`);
});

// Layout 2, as builds before layout 3 stored it: a list for every user at their row (UNLISTED first
// when the training had no time for it), no slots. Its bytes are a layout 3 model without users'
// lists, the lists section appended.
t.test("a layout 2 model serves its users' lists, and makes the ones it lacks", async (t) => {
  const L = 8,
    UNLISTED = 0xfffffffe;
  const base = randomModel(3);
  const buffer = new SharedArrayBuffer(base.buffer.byteLength + USERS * L * 4);
  new Uint8Array(buffer).set(new Uint8Array(base.buffer));
  const header = new Int32Array(buffer, 0, 16);
  header[1] = 2;
  header[8] = L;
  const lists = new Uint32Array(buffer, base.buffer.byteLength, USERS * L);
  // Even rows: the items from the row on, in order; odd rows: not computed.
  for (let u = 0; u < USERS; u++) {
    if (u % 2 === 1) lists[u * L] = UNLISTED;
    else for (let k = 0; k < L; k++) lists[u * L + k] = (u + k) % ITEMS;
  }
  await publish('layout2', { buffer, views: base.views }, L); // the same factors as base's
  const even = userAtRow(STRADDLING + 1),
    odd = userAtRow(STRADDLING);
  const listed = (userId: number) =>
    api.get(`recommendation/users/${userId}/items/`, { token, query: `amt=${AMT}&exclude_rated_items=true` });
  const want = Array.from({ length: AMT }, (_, k) => itemIdOfRow[(STRADDLING + 1 + k) % ITEMS]!);
  await until(
    'the layout 2 model serves',
    async () => (await listed(even)).body.items_id,
    (got) => JSON.stringify(got) === JSON.stringify(want),
  );
  t.same((await listed(even)).body.items_id, want, `user ${even} (row ${STRADDLING + 1}): their list`);
  t.same(
    (await listed(odd)).body.items_id,
    expectedTop(base.views, odd),
    `user ${odd} (row ${STRADDLING}, not listed): a list made from their factors`,
  );
});
