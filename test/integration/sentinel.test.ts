// REDIS_URL=redis+sentinel://…/<name>: recd finds its primary through a Sentinel, serves from it, and
// follows the Sentinel to the promoted replica when the primary is killed with -9 (503 meanwhile, no
// acknowledged write lost).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { assertKept, FeedbackWriter, killRedis, replicated, writeThroughSwitch } from '../helpers/failover.js';
import { until } from '../helpers/reco.js';
import { startManagedRedis, startSentinel } from '../helpers/redis-sentinel.js';
import { startStack } from '../helpers/stack.js';

const REDIS_TIMEOUT_MS = 5000;
const primary = await startManagedRedis();
t.teardown(() => primary.stop());
const replica = await startManagedRedis(primary.port);
t.teardown(() => replica.stop());
await replicated(primary.port, 'replica-probe'); // the replica is connected and in sync
const sentinel = await startSentinel(primary.port, replica.port);
t.teardown(() => sentinel.stop());
const stack = await startStack(
  { REDIS_URL: `redis+sentinel://127.0.0.1:${sentinel.port}/${sentinel.name}`, RECD_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS) },
  primary,
);
t.teardown(() => stack.close());
const root = await rootToken(stack.api);

t.test('recd serves from the primary the Sentinel names', async (t) => {
  const db = await createDatabase(stack.api, root);
  const token = await tokenFor(stack.api, root, 'backend', db);
  t.equal((await stack.api.post('items-properties/', { property_name: 'colour', value_type: 'unicode16' }, { token })).status, 204);
  t.equal((await stack.api.put('items/1/properties/', { item: { colour: 'red' } }, { token })).status, 200);
  const item = await stack.api.get('items/1/properties/', { token });
  t.equal(
    item.body.item?.colour ?? item.body.colour,
    'red',
    'the item reads back (its catalogue tailed through the Sentinel-found primary)',
  );
  t.equal(await stack.redis.exists(keys.database(db)), 1, 'the database is in the primary');
});

t.test('the primary killed: 503 while the Sentinel promotes its replica, then served again with no acknowledged write lost', async (t) => {
  const db = await createDatabase(stack.api, root);
  const token = await tokenFor(stack.api, root, 'backend', db);
  t.equal((await stack.api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token })).status, 204);
  t.equal((await stack.api.post('items-properties/', { property_name: 'price', value_type: 'int32' }, { token })).status, 204);
  const writer = new FeedbackWriter(stack.api, token, 'c', REDIS_TIMEOUT_MS + 5000);
  for (let k = 0; k < 20; k++) t.ok(await writer.round(), `write ${k} before the kill`);
  await replicated(primary.port, 'failover-probe');
  const before = writer.answers.length;
  stack.redis.on('error', () => undefined); // the test's own look-at client stays on the killed primary
  await killRedis(primary);

  const { recovered, ms } = await writeThroughSwitch([writer]);
  t.ok(recovered, `recd serves writes again by itself (after ${ms} ms)`);
  const switched = writer.answers.slice(before);
  t.comment(
    `during the switch: ${switched.length} requests in ${ms} ms (slowest ${Math.max(...switched.map((a) => a.ms))} ms), ${switched.filter((a) => a.status === 503).length} answered 503`,
  );
  t.same(writer.wrong(), [], 'every answer 2xx or 503 ServerUnavailable, none left hanging');
  t.equal(await sentinel.primaryPort(), replica.port, 'the Sentinel names the former replica');

  await assertKept(t, writer, 'the database');

  // The catalogue view follows the tail on the promoted primary.
  t.equal((await stack.api.put('items/5000/properties/', { item: { genre: 'c', price: 5000 } }, { token })).status, 200);
  const expected = [...writer.items, 5000];
  const filtered = await until(
    'the filtered listing shows the items written through the switch',
    () => stack.api.get('items-bulk/properties/', { token, query: 'filters=genre:eq:c&amt=500' }),
    (r) => r.status === 200 && r.body.items?.length === expected.length,
    30_000,
  );
  t.same(
    filtered.body.items.map((i: { item_id: number }) => i.item_id).sort((x: number, y: number) => x - y),
    expected,
    'genre c: every acknowledged item',
  );
});
