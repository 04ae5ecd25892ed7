// DELETE databases/current/ on a database holding every kind of data: no key with its tag is left,
// another database keeps all of its keys, and the keys are found from the database's own records (no
// SCAN, KEYS or CLUSTER GETKEYSINSLOT reaches Redis).
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { ModelsStore, type ModelMeta } from '../../src/store/models-store.js';
import { TrainingStore } from '../../src/store/training-store.js';
import type { Api, Res } from '../helpers/api.js';
import { dbKeys, freshDatabase, range, uid, why } from '../helpers/feedback.js';
import { rootToken, tokenFor } from '../helpers/fixtures.js';
import { monitorRedis } from '../helpers/redis-monitor.js';
import { RECO_ENV, tasksOf, trainedDatabase, until } from '../helpers/reco.js';
import { ON_CLUSTER, startStack } from '../helpers/stack.js';
import { runsOver } from '../helpers/trigger.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const sid = (n: number) => `5e5510e0-0000-4000-a000-${n.toString(16).padStart(12, '0')}`;
const TASKS = ['ml_model_retrain', 'ml_new_items', 'precomputed_tables'];

function need(r: Res, status: number, what: string): Res {
  if (r.status !== status) throw new Error(`${what}: ${why(r, status)}`);
  return r;
}

// Every kind of data the API writes besides the trained model: properties and their values, ratings
// (explicit, and inferred from interactions of users and of a resolved session), interactions of users
// and sessions, a session left unresolved, a write with an Idempotency-Key, scenarios, an A/B test and a
// precomputed table. Then every task it started is waited out (a run writes records and models).
async function fill(api: Api, db: string, token: string, users: number): Promise<void> {
  const as = { token };
  need(await api.put('interaction-rules/', { rules: { teleport: { rating: 7, combine: 'max' } } }, as), 204, 'rules');
  need(await api.post('users-properties/', { property_name: 'level', value_type: 'int8' }, as), 204, 'user property');
  need(await api.put('users-bulk/properties/', { users: range(0, 5).map((u) => ({ user_id: uid(u), level: u })) }, as), 200, 'users');
  need(await api.post(`users/${uid(1)}/interactions/5/`, { interaction_type: 'purchase', timestamp: 11 }, as), 200, 'a user interaction');
  need(
    await api.post(
      `users/${uid(2)}/interactions-bulk/`,
      {
        interactions: [
          { item_id: 6, interaction_type: 'teleport' },
          { item_id: 7, interaction_type: 'view' },
        ],
      },
      as,
    ),
    200,
    "a user's interactions",
  );
  need(
    await api.post(`sessions/${sid(1)}/items/3/interactions/`, { interaction_type: 'like', timestamp: 12 }, as),
    200,
    'a session interaction',
  );
  const keyed = { token, headers: { 'idempotency-key': `once-${db}` } };
  need(
    await api.post(
      'sessions-interactions-bulk/',
      {
        interactions: [
          { session_id: sid(2), item_id: 4, interaction_type: 'view' },
          { session_id: sid(3), item_id: 8, interaction_type: 'view' },
        ],
      },
      keyed,
    ),
    200,
    'a keyed write',
  );
  need(await api.post(`sessions/${sid(1)}/resolve/`, { user_id: uid(3), timestamp: 1000 }, as), 200, 'a resolution');
  need(
    await api.put('scenarios/item_to_items/dramas/', { scenario_type: 'case', case: { filters: ['genre:eq:a'], amt: 10 } }, as),
    200,
    'a scenario',
  );
  const ab = need(await api.post('ab-tests/params/', { name: `split-${db}`, probability_a: 0.3 }, as), 200, 'an A/B test');
  need(
    await api.put(
      'scenarios/item_to_items/split/',
      { scenario_type: 'ab_test', ab_test: { id: ab.body.id, scenario_a: 'dramas', scenario_b: 'dramas' } },
      as,
    ),
    200,
    'an A/B scenario',
  );
  // More users than one UNLINK batch takes keys of (each has a ratings set and records); a retrain the
  // count may start is waited out below.
  need(
    await api.put(
      'ratings-bulk/',
      { ratings: range(0, users).map((u) => ({ user_id: uid(10_000 + u), item_id: 1 + (u % 40), rating: 5, timestamp: 100 })) },
      as,
    ),
    200,
    'ratings',
  );
  const table = need(await api.put('precomputed-tables/similar/', { reco_type: 'item_to_items', amt: 5 }, as), 200, 'a table');
  await until(
    'the table built',
    () => tasksOf(api, token, 'precomputed_tables'),
    (ts) => ts.some((x) => x.task_id === table.body.task_id && x.status === 'COMPLETED'),
    120_000,
  );
  for (const name of TASKS) await runsOver(api, stack.redis, db, token, name);
}

// What the filled database must hold for the test to mean something: a key of each family keys.ts names.
const FAMILIES: [string, RegExp][] = [
  ["a user's rated items", /:ratings:user:\d+:t$/],
  ["a user's rating values", /:ratings:user:\d+:v$/],
  ["a user's interaction references", /:interactions:user-refs:/],
  ["a session's interaction references", /:interactions:session-refs:/],
  ['the sessions resolved to a user', /:sessions:user:/],
  ['an Idempotency-Key record', /:idempotency:once-/],
  ['a task record', /:task:/],
  ['a model buffer', /:models:blob:/],
  ["a table's rows", /:tables:blob:similar$/],
  ['the ratings snapshot', /:ratings:snapshot/],
  ['scenarios', /:scenarios$/],
  ['A/B tests', /:ab-tests$/],
  ['user properties', /:properties:user$/],
  ['item records', /:items:records$/],
];

t.test('DELETE databases/current/ removes every kind of key of the database, listed without a keyspace scan', async (t) => {
  const { db, token } = await trainedDatabase(api, root);
  await fill(api, db, token, 1200);
  const sibling = await trainedDatabase(api, root);
  await fill(api, sibling.db, sibling.token, 10);

  const held = await dbKeys(stack.redis, db);
  for (const [what, pattern] of FAMILIES)
    t.ok(
      held.some((k) => pattern.test(k)),
      `the database holds ${what}`,
    );
  t.ok(held.length > 2400, `${held.length} keys, more than two UNLINK batches`);
  const siblingKeys = await dbKeys(stack.redis, sibling.db);
  t.ok(siblingKeys.length > 30, `the sibling holds ${siblingKeys.length} keys`);

  // MONITOR sees one server's commands: on a cluster the delete has no node-local listing to look for.
  const listings: string[] = [];
  const monitor = ON_CLUSTER
    ? undefined
    : await monitorRedis(stack.redisServer.url, (args) => {
        const [name = '', sub = ''] = args.map((a) => a.toLowerCase());
        if (name === 'scan' || name === 'keys' || (name === 'cluster' && sub === 'getkeysinslot')) listings.push(args.join(' '));
      });
  try {
    const d = await api.delete('databases/current/', undefined, { token: await tokenFor(api, root, 'root', db) });
    t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);
    await monitor?.caughtUp((marker) => stack.redis.echo(marker));
  } finally {
    monitor?.close();
  }
  if (!ON_CLUSTER) t.strictSame(listings, [], 'no SCAN, KEYS or CLUSTER GETKEYSINSLOT');

  t.strictSame(await dbKeys(stack.redis, db), [], 'no key with the hash tag is left');
  t.strictSame(await dbKeys(stack.redis, sibling.db), siblingKeys, 'the other database keeps every key');
  t.equal((await api.get('databases/current/', { token: sibling.token })).status, 200, 'the other database answers');
});

t.test('a database holding nothing but its record is deleted whole', async (t) => {
  const { db } = await freshDatabase(api, root);
  t.ok((await stack.redis.exists(keys.database(db))) === 1, 'its record');
  const d = await api.delete('databases/current/', undefined, { token: await tokenFor(api, root, 'root', db) });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);
  t.strictSame(await dbKeys(stack.redis, db), [], 'no key with the hash tag is left');
});

t.test('parts of models and snapshots, and those a publication or compaction cut short left, are removed', async (t) => {
  const { db } = await freshDatabase(api, root);
  const models = new ModelsStore(stack.redis);
  const training = new TrainingStore(stack.redis);
  const PART = 100;
  // Published in three parts under the trainer lock (no trainer runs for an empty database).
  await stack.redis.set(keys.trainerLock(db), 'test');
  const meta = {
    model_id: 'm1',
    timestamp: 1,
    algorithm: 'als',
    n_users: 1,
    n_items: 1,
    n_ratings: 1,
    factors: 1,
    item_list: 0,
    user_list: 0,
    bytes: 250,
    metrics: {},
    params: {},
  } satisfies ModelMeta;
  t.ok(await models.publish(db, 'test', meta, new Uint8Array(250), PART), 'a model in three parts');
  // Two snapshots in parts, the second replacing the first.
  await training.compact(db, new Uint8Array(250), '0-0', PART);
  await training.compact(db, new Uint8Array(150), '0-0', PART);
  // What a process that died in the middle leaves: a model's later parts written and listed as being
  // written, its publishing script never run; a snapshot generation's parts, never made current.
  await stack.redis.hset(keys.modelsWriting(db), 'cut', '3');
  await stack.redis.mset(keys.modelPart(db, 'cut', 1), 'x', keys.modelPart(db, 'cut', 2), 'x');
  await stack.redis.hset(keys.ratingsSnapshotGenerations(db), 'cut', '2');
  await stack.redis.mset(keys.ratingsSnapshotPart(db, 'cut', 0), 'x', keys.ratingsSnapshotPart(db, 'cut', 1), 'x');
  const held = await dbKeys(stack.redis, db);
  t.equal(held.filter((k) => k.includes(':models:blob:')).length, 5, 'model parts');
  t.equal(held.filter((k) => k.includes(':ratings:snapshot:')).length, 4, 'snapshot parts');

  const d = await api.delete('databases/current/', undefined, { token: await tokenFor(api, root, 'root', db) });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);
  t.strictSame(await dbKeys(stack.redis, db), [], 'no key with the hash tag is left');
});

t.test('a delete cut short before it removed anything (its process gone) is finished by a trainer’s sweep', async (t) => {
  const name = `cut-short-${Date.now()}`;
  const { db, token } = await freshDatabase(api, root, { name });
  need(
    await api.put(
      'ratings-bulk/',
      { ratings: range(0, 50).map((u) => ({ user_id: uid(u), item_id: 1 + (u % 7), rating: 5, timestamp: 100 })) },
      { token },
    ),
    200,
    'ratings',
  );
  t.ok((await dbKeys(stack.redis, db)).length > 50, 'the database holds its ratings');
  // What a delete registers before anything else, dated as one whose process died long ago.
  await stack.redis.zadd(keys.databasesDeleting(), 0, db);
  await until(
    'the sweep removed every key',
    () => dbKeys(stack.redis, db),
    (left) => left.length === 0,
    30_000,
  );
  await until(
    'the delete is no longer pending',
    () => stack.redis.zscore(keys.databasesDeleting(), db),
    (score) => score === null,
    10_000,
  );
  const listed = await api.get('databases/', { token: root, query: 'amt=500' });
  t.equal(listed.status, 200, 'the listing');
  t.notOk(JSON.stringify(listed.body).includes(db), 'no longer listed');
  const again = await api.post(
    'databases/',
    { name, description: 'the name is free again', item_id_type: 'uint32', user_id_type: 'uuid' },
    { token: root },
  );
  t.equal(again.status, 200, `its name is free: ${why(again, 200)}`);
});
