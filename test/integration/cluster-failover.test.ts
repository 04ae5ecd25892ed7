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
import { assertKept, FeedbackWriter, killRedis, replicated, writeThroughSwitch } from '../helpers/failover.js';
import { why } from '../helpers/feedback.js';
import { RECO_ENV, settled, tasksOf, trainedDatabase, until } from '../helpers/reco.js';
import { startRedisCluster } from '../harness/redis-cluster.js';
import { clusterAsServer, startStack } from '../helpers/stack.js';
import { triggerAfterRuns } from '../helpers/trigger.js';

const REDIS_TIMEOUT_MS = 5000;
const cluster = await startRedisCluster(3, 1);
t.teardown(() => cluster.stop()); // teardowns run last registered first: after recd stops
const stack = await startStack({ ...RECO_ENV, RECD_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS) }, clusterAsServer(cluster));
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

// A database whose slot the primary on `port` serves (databases land on a slot by their random id).
async function databaseOn(port: number): Promise<string> {
  for (let k = 0; k < 50; k++) {
    const db = await createDatabase(api, root);
    if ((await nodeOf(stack.redis, keys.database(db))).options.port === port) return db;
  }
  throw new Error(`no database landed on the primary on port ${port}`);
}

t.test(
  "the primary of a database's slot killed: 503 while the replica takes over, then served again with no acknowledged write lost",
  async (t) => {
    const { db, token } = await trainedDatabase(api, root);
    const dbKey = keys.database(db);
    const victimPort = (await nodeOf(stack.redis, dbKey)).options.port!;
    const victim = cluster.nodes.find((n) => n.port === victimPort)!;
    // A second database on the same primary, written alongside (recd batches the commands of a node's
    // slots together), and a third, deleted right after the kill (the delete lists the slot's keys on
    // the primary being replaced).
    const neighbour = await databaseOn(victimPort);
    const neighbourToken = await tokenFor(api, root, 'backend', neighbour);
    for (const property_name of ['genre', 'price']) {
      t.equal(
        (
          await api.post(
            'items-properties/',
            { property_name, value_type: property_name === 'genre' ? 'unicode16' : 'int32' },
            { token: neighbourToken },
          )
        ).status,
        204,
      );
    }
    const spare = await databaseOn(victimPort);
    const spareOwner = await tokenFor(api, root, 'root', spare);

    const bound = REDIS_TIMEOUT_MS + 5000;
    const writer = new FeedbackWriter(api, token, 'c', bound);
    const beside = new FeedbackWriter(api, neighbourToken, 'c', bound);
    for (let k = 0; k < 20; k++) t.ok((await Promise.all([writer.round(), beside.round()])).every(Boolean), `writes ${k} before the kill`);
    await replicated(victimPort, `{db:${db}}:failover-probe`);
    const before = {
      items: writer.items.length,
      ratings: writer.ratings.size,
      answers: writer.answers.length,
      beside: beside.answers.length,
    };
    await killRedis(victim);
    await writer.ask('DELETE a database', () => api.delete('databases/current/', undefined, { token: spareOwner }));

    const { recovered, ms } = await writeThroughSwitch([writer, beside]);
    t.ok(recovered, `recd serves writes again by itself (after ${ms} ms)`);
    const switched = [...writer.answers.slice(before.answers), ...beside.answers.slice(before.beside)];
    const unavailable = switched.filter((a) => a.status === 503).length;
    const slowest = Math.max(...switched.map((a) => a.ms));
    t.comment(
      `during the switch: ${switched.length} requests in ${ms} ms (slowest ${slowest} ms), ${unavailable} answered 503, ${writer.items.length - before.items} item and ${writer.ratings.size - before.ratings} rating writes acknowledged in the first database`,
    );
    t.same([...writer.wrong(), ...beside.wrong()], [], 'every answer 2xx or 503 ServerUnavailable, none left hanging');
    t.not(await primaryPortOf(dbKey, victimPort), victimPort, "the replica now serves the database's slot");

    // Every acknowledged write is there: before the kill (replicated) and during the switch.
    await assertKept(t, writer, 'first database');
    await assertKept(t, beside, 'second database');

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
    t.same(
      filtered.body.items.map((i: { item_id: number }) => i.item_id).sort((x: number, y: number) => x - y),
      expected,
      'genre c: every acknowledged item',
    );

    // The delete cut by the kill completes when asked again, and leaves no key of the database.
    const again = await until(
      'the database deleted',
      () => api.delete('databases/current/', undefined, { token: spareOwner }),
      (r) => r.status === 204 || r.status === 404,
      30_000,
    );
    t.ok(again.status === 204 || again.status === 404, `deleted: ${again.status}`);
    const left = await until(
      'the replicas follow the delete',
      () => keysOnLiveNodes(`{db:${spare}}:*`, victimPort),
      (ks) => ks.length === 0,
      10_000,
    );
    t.same(left, [], 'no key of the deleted database left on any node');

    // Training runs on the promoted primary.
    const run = await triggerAfterRuns(api, stack.redis, db, token, 'ml_model_retrain');
    t.ok(run.status >= 200 && run.status < 300, `training started: ${why(run, 200)}`);
    const tasks = await until(
      'the training run settled',
      () => tasksOf(api, token, 'ml_model_retrain'),
      (ts) => ts.length >= 2 && settled(ts),
      120_000,
    );
    t.equal(tasks[0]?.status, 'COMPLETED', `the run after the failover completed: ${JSON.stringify(tasks[0])}`);
    const reco = await api.get(`recommendation/users/${[...writer.ratings.keys()][0]}/items/`, { token });
    t.equal(reco.status, 200, `recommendations served: ${why(reco, 200)}`);
  },
);
