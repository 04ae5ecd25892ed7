// A Redis Cluster primary killed with -9 under recd (issue 21): while its replica takes over, recd
// answers 2xx or 503 ServerUnavailable, never a 500 nor a hang; it serves again by itself; every write
// it acknowledged (replicated before the kill, or made during the switch) is there afterwards; and the
// catalogue views (fed by the change tail) and training work on the promoted primary. Its own cluster
// (three primaries with a replica each), whatever RECD_TEST_REDIS says.
import t from 'tap';
import { Redis } from 'ioredis';
import { keys } from '../../src/store/keys.js';
import { nodeOf } from '../../src/store/redis.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { FeedbackWriter, killRedis, replicated, writeThroughSwitch } from '../helpers/failover.js';
import { ratingsOf, why } from '../helpers/feedback.js';
import { RECO_ENV, settled, tasksOf, trainedDatabase, until } from '../helpers/reco.js';
import { startRedisCluster } from '../helpers/redis-cluster.js';
import { clusterAsServer, startStack } from '../helpers/stack.js';
import { triggerAfterRuns } from '../helpers/trigger.js';

const REDIS_TIMEOUT_MS = 5000;
const cluster = await startRedisCluster(3, 1);
t.teardown(() => cluster.stop()); // teardowns run last registered first: after recd stops
const stack = await startStack({ ...RECO_ENV, RECD_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS), LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' }, clusterAsServer(cluster));
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

// The port of the primary serving `key`'s slot, as a node other than `not` sees the cluster.
async function primaryPortOf(key: string, not: number): Promise<number> {
  const other = cluster.nodes.find((n) => n.port !== not)!;
  const c = new Redis({ host: '127.0.0.1', port: other.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const slot = Number(await c.cluster('KEYSLOT', key));
    const ranges = await c.cluster('SLOTS');
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    return Number(range?.[2]?.[1]);
  } finally {
    c.disconnect();
  }
}

// The keys matching `pattern` on every node but the killed one (primaries and replicas).
async function keysOnLiveNodes(pattern: string, dead: number): Promise<string[]> {
  const found = await Promise.all(
    cluster.nodes
      .filter((n) => n.port !== dead)
      .map(async (n) => {
        const c = new Redis({ host: '127.0.0.1', port: n.port, lazyConnect: true, maxRetriesPerRequest: 1 });
        try {
          return await c.keys(pattern);
        } finally {
          c.disconnect();
        }
      }),
  );
  return found.flat();
}

t.test("the primary of a database's slot killed: 503 while the replica takes over, then served again with no acknowledged write lost", async (t) => {
  const { db, token } = await trainedDatabase(api, root);
  const writer = new FeedbackWriter(api, token, 'c', REDIS_TIMEOUT_MS + 5000);
  for (let k = 0; k < 20; k++) t.ok(await writer.round(), `write ${k} before the kill`);

  const dbKey = keys.database(db);
  const victimPort = (await nodeOf(stack.redis, dbKey)).options.port!;
  const victim = cluster.nodes.find((n) => n.port === victimPort)!;
  // Another database on the same primary, deleted right after the kill: the delete lists the slot's
  // keys on its primary (unlinkByPrefix), the one being replaced.
  let spare: { db: string; owner: string } | undefined;
  for (let k = 0; k < 30 && !spare; k++) {
    const other = await createDatabase(api, root);
    if ((await nodeOf(stack.redis, keys.database(other))).options.port === victimPort) spare = { db: other, owner: await tokenFor(api, root, 'root', other) };
  }
  t.ok(spare, 'a second database on the same primary');
  await replicated(victimPort, `{db:${db}}:failover-probe`);
  const before = { items: writer.items.length, ratings: writer.ratings.size, answers: writer.answers.length };
  await killRedis(victim);
  if (spare) await writer.ask('DELETE a database', () => api.delete('databases/current/', undefined, { token: spare.owner }));

  const { recovered, ms } = await writeThroughSwitch(writer);
  t.ok(recovered, `recd serves writes again by itself (after ${ms} ms)`);
  const switched = writer.answers.slice(before.answers);
  const unavailable = switched.filter((a) => a.status === 503).length;
  const slowest = Math.max(...switched.map((a) => a.ms));
  t.comment(switched.map((a) => `${a.what}: ${a.status} in ${a.ms} ms`).join('\n'));
  t.comment(`during the switch: ${switched.length} requests in ${ms} ms (slowest ${slowest} ms), ${unavailable} answered 503, ${writer.items.length - before.items} item and ${writer.ratings.size - before.ratings} rating writes acknowledged`);
  t.same(writer.wrong(), [], 'every answer 2xx or 503 ServerUnavailable, none left hanging');
  t.not(await primaryPortOf(dbKey, victimPort), victimPort, "the replica now serves the database's slot");

  // Every acknowledged write is there: before the kill (replicated) and during the switch.
  const listed = await api.post('items-bulk/properties/list/', { items_id: writer.items }, { token });
  t.equal(listed.status, 200, why(listed, 200));
  t.same(listed.body.items.map((i: { item_id: number }) => i.item_id).sort((x: number, y: number) => x - y), writer.items, `all ${writer.items.length} acknowledged items read back`);
  let missing = 0;
  for (const [user, item] of writer.ratings) if (!(await ratingsOf(api, token, user)).some((r) => r.item_id === item)) missing++;
  t.equal(missing, 0, `all ${writer.ratings.size} acknowledged ratings read back`);

  // The catalogue views follow the tail on the promoted primary: a filtered listing shows every item
  // acknowledged, and one written now.
  t.equal((await api.put('items/5000/properties/', { item: { genre: 'c', price: 5000 } }, { token })).status, 200);
  const expected = [...writer.items, 5000];
  const filtered = await until(
    'the filtered listing shows the items written through the switch',
    () => api.get('items-bulk/properties/', { token, query: 'filters=genre:eq:c&amt=500' }),
    (r) => r.status === 200 && r.body.items?.length === expected.length,
    30_000,
  );
  t.same(filtered.body.items.map((i: { item_id: number }) => i.item_id).sort((x: number, y: number) => x - y), expected, 'genre c: every acknowledged item');

  // The delete cut by the kill completes when asked again, and leaves no key of the database.
  if (spare) {
    const again = await until('the database deleted', () => api.delete('databases/current/', undefined, { token: spare.owner }), (r) => r.status === 204 || r.status === 404, 30_000);
    t.ok(again.status === 204 || again.status === 404, `deleted: ${again.status}`);
    const left = await until('the replicas follow the delete', () => keysOnLiveNodes(`{db:${spare.db}}:*`, victimPort), (ks) => ks.length === 0, 10_000);
    t.same(left, [], 'no key of the deleted database left on any node');
  }

  // Training runs on the promoted primary.
  const run = await triggerAfterRuns(api, stack.redis, db, token, 'ml_model_retrain');
  t.ok(run.status >= 200 && run.status < 300, `training started: ${why(run, 200)}`);
  const tasks = await until('the training run settled', () => tasksOf(api, token, 'ml_model_retrain'), (ts) => ts.length >= 2 && settled(ts), 120_000);
  t.equal(tasks[0]?.status, 'COMPLETED', `the run after the failover completed: ${JSON.stringify(tasks[0])}`);
  const reco = await api.get(`recommendation/users/${[...writer.ratings.keys()][0]}/items/`, { token });
  t.equal(reco.status, 200, `recommendations served: ${why(reco, 200)}`);
});
