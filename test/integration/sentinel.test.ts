// REDIS_URL=redis+sentinel://…/<name>: recd finds its primary through a Sentinel, and serves from it.
import { rmSync } from 'node:fs';
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startSentinel } from '../helpers/redis-sentinel.js';
import { startRedis, startStack } from '../helpers/stack.js';

const primary = await startRedis();
t.teardown(async () => {
  await primary.server.stop();
  rmSync(primary.dir, { recursive: true, force: true });
});
const sentinel = await startSentinel(primary.server.port);
t.teardown(() => sentinel.stop());
const stack = await startStack({ REDIS_URL: `redis+sentinel://127.0.0.1:${sentinel.port}/${sentinel.name}` }, primary.server);
t.teardown(() => stack.close());

t.test('recd serves from the primary the Sentinel names', async (t) => {
  const root = await rootToken(stack.api);
  const db = await createDatabase(stack.api, root);
  const token = await tokenFor(stack.api, root, 'backend', db);
  t.equal((await stack.api.post('items-properties/', { property_name: 'colour', value_type: 'unicode16' }, { token })).status, 204);
  t.equal((await stack.api.put('items/1/properties/', { item: { colour: 'red' } }, { token })).status, 200);
  const item = await stack.api.get('items/1/properties/', { token });
  t.equal(item.body.item?.colour ?? item.body.colour, 'red', 'the item reads back (its catalogue tailed through the Sentinel-found primary)');
  t.equal(await stack.redis.exists(keys.database(db)), 1, 'the database is in the primary');
});
