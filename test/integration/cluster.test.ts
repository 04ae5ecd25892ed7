// recd on a Redis Cluster of three primaries with a replica each (issue 21), through its HTTP API: the
// accounts, a database's whole life from creation to deletion (its keys gone from every node), and two
// recd processes on the cluster sharing tokens and revocations.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { errorOf, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { range, uid, why } from '../helpers/feedback.js';
import { isA, isB, itemsOf, RECO_ENV, trainedDatabase, until } from '../helpers/reco.js';
import { startRedisCluster } from '../harness/redis-cluster.js';
import { clusterAsServer, PASSWORD, startStack } from '../helpers/stack.js';

const cluster = await startRedisCluster();
t.teardown(() => cluster.stop()); // teardowns run last registered first: after the processes stop
const a = await startStack(RECO_ENV, clusterAsServer(cluster));
t.teardown(() => a.close());
const b = await startStack(RECO_ENV, clusterAsServer(cluster));
t.teardown(() => b.close());

const root = await rootToken(a.api);
const status = (s: typeof a, token: string) => s.api.get('databases/current/status/', { token });
// One trained database for the tests below (built by the first that needs it).
let trained: Promise<{ db: string; token: string; modelId: string }> | undefined;
const trainedDatabaseOnce = () => (trained ??= trainedDatabase(a.api, root));
const tagged = async (tag: string) => (await cluster.keysByNode(`${tag}*`)).map((onNode) => onNode.filter((k) => k.startsWith(tag)));

t.test('accounts: individual and service accounts, keys and logins', async (t) => {
  const { db } = await trainedDatabaseOnce();
  const email = `${unique('manager')}@test.local`;
  t.equal(
    (await a.api.post('accounts/individual/', { email, role: 'manager', password: PASSWORD }, { token: root })).status,
    200,
    'individual account',
  );
  const login = await b.api.post('login/individual/', { email, password: PASSWORD, db_id: db });
  t.equal(login.status, 200, `login through the other process: ${why(login, 200)}`);
  const listing = await a.api.get('organizations/current/accounts/', { token: root });
  t.equal(listing.status, 200);
  const name = unique('svc');
  t.equal((await a.api.post('accounts/service/', { name, role: 'backend' }, { token: root })).status, 200, 'service account');
  const key = await a.api.post('accounts/service/keys/', { name }, { token: root });
  t.equal(key.status, 200, 'service key');
  const service = await b.api.post('login/service/', { name, password: key.body.key, db_id: db });
  t.equal(service.status, 200, `service login with the key: ${why(service, 200)}`);
  t.equal((await status(a, service.body.token)).status, 200, 'its token works on both processes');
  t.equal((await status(b, service.body.token)).status, 200);
  const refreshed = await a.api.post('login/refresh-token/', { refresh_token: service.body.refresh_token });
  t.equal(refreshed.status, 200, 'refresh token (a key of no hash tag)');
});

t.test("a database's data, training and every kind of recommendation", async (t) => {
  const { db, token } = await trainedDatabaseOnce();
  t.equal(
    (
      await a.api.put(
        'users-bulk/properties/',
        {
          users: [
            { user_id: uid(1), age: 30 },
            { user_id: uid(2), age: 40 },
          ],
        },
        { token },
      )
    ).status,
    200,
    'users',
  );
  const rules = await a.api.put('interaction-rules/', { rules: { view: { rating: 7 } } }, { token });
  t.ok(rules.status === 200 || rules.status === 204, `interaction rules: ${why(rules, 204)}`);
  const interactions = range(0, 5).map((k) => ({
    user_id: uid(70 + k),
    item_id: 21 + k,
    interaction_type: 'view',
    timestamp: 1_700_000_000 + k,
  }));
  const posted = await a.api.post('interactions-bulk/', { interactions }, { token });
  t.equal(posted.status, 200, `user interactions: ${why(posted, 200)}`);
  const session = await a.api.post(
    'sessions-interactions-bulk/',
    { interactions: [{ session_id: uid(900), item_id: 22, interaction_type: 'view' }] },
    { token },
  );
  t.equal(session.status, 200, `session interactions: ${why(session, 200)}`);
  const listed = await b.api.get('interactions-bulk/', { token });
  t.equal(listed.body.interactions?.length, 5, 'the interactions, read through the other process');

  const itemToItems = itemsOf(t, await a.api.get('recommendation/items/2/items/', { token }), 'item to items');
  t.ok(itemToItems.filter(isA).length >= 8, `item 2's neighbours are A items: ${JSON.stringify(itemToItems)}`);
  const userToItems = itemsOf(t, await b.api.get(`recommendation/users/${uid(35)}/items/`, { token }), 'user to items');
  t.ok(userToItems.filter(isB).length >= 8, `user 35 likes B items: ${JSON.stringify(userToItems)}`);
  itemsOf(t, await a.api.post('recommendation/sessions/items/', { ratings: [{ item_id: 22, rating: 9 }] }, { token }), 'session');
  itemsOf(t, await a.api.post('recommendation/generic/items/', { item_id: 5 }, { token }), 'generic', 10, [
    'evaluated_scenarios',
    'reco_type',
  ]);
  itemsOf(t, await a.api.post('recommendation/users-groups/items/', { users_id: [uid(1), uid(2)] }, { token }), 'users group');
  const byValues = itemsOf(
    t,
    await a.api.post('recommendation/items-properties/items/', { item_properties: { genre: 'b' } }, { token }),
    'items of property values',
  );
  t.ok(byValues.every(isB), 'genre b');

  t.equal(
    (await a.api.put('scenarios/item_to_items/genre/', { scenario_type: 'case', case: { filters: ['genre:eq:b'] } }, { token })).status,
    200,
    'scenario',
  );
  t.equal((await a.api.patch('scenarios-default/item_to_items/', { name: 'genre' }, { token })).status, 204, 'default scenario');
  const scenario = await until(
    'B applies the scenario',
    () => b.api.get('recommendation/items/2/items/', { token }),
    (r) => r.status === 200 && r.body.items_id.length > 0 && r.body.items_id.every(isB),
    10_000,
  );
  t.ok(scenario.body.items_id.every(isB), 'the default scenario filters item to items, on both processes');

  // All of the database's keys are in its slot: on one primary, and on its replica once replicated.
  const holders = await until(
    'replicated',
    () => tagged(`{db:${db}}:`),
    (byNode) =>
      byNode.filter((onNode) => onNode.length > 0).length === 2
      && byNode.filter((onNode) => onNode.length > 0).every((onNode, _, all) => onNode.length === all[0]!.length),
    10_000,
  );
  const holding = holders.filter((onNode) => onNode.length > 0);
  t.equal(holding.length, 2, 'two nodes hold the database: its primary and its replica');
  t.ok(holding[0]!.includes(keys.database(db)), 'the database record among them');
});

t.test('two processes share tokens and revocations', async (t) => {
  const { db } = await trainedDatabaseOnce();
  const email = `${unique('revoke')}@test.local`;
  t.equal((await a.api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: root })).status, 200);
  const token = (await a.api.post('login/individual/', { email, password: PASSWORD, db_id: db })).body.token as string;
  for (const s of [a, b]) t.equal((await status(s, token)).status, 200, 'valid (and cached) on both');
  t.equal(
    (await b.api.patch('accounts/individual/', { email, password: 'Changed-password-2' }, { token: root })).status,
    204,
    'password changed through B',
  );
  for (const [name, s] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const r = await until(
      `refused by ${name}`,
      () => status(s, token),
      (r) => r.status === 401,
      5000,
    );
    t.same(
      errorOf(r),
      { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' },
      `the old password's token is refused by ${name}`,
    );
  }
});

t.test('deleting a database removes its keys from every node', async (t) => {
  const { db } = await trainedDatabaseOnce();
  const token = await tokenFor(a.api, root, 'root', db);
  t.ok((await tagged(`{db:${db}}:`)).flat().length > 10, 'the database has keys');
  // A key of another tag that shares the database's slot (found by asking the cluster) is kept.
  const slot = await a.redis.cluster('KEYSLOT', keys.database(db));
  let neighbour = '';
  for (let k = 0; neighbour === ''; k += 1000) {
    const slots = await Promise.all(range(k, k + 1000).map((n) => a.redis.cluster('KEYSLOT', `{other:${n}}`)));
    if (slots.includes(slot)) neighbour = `{other:${k + slots.indexOf(slot)}}:kept`;
  }
  await a.redis.set(neighbour, 'here');
  const d = await b.api.delete('databases/current/', undefined, { token });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);
  // The replicas follow their primary asynchronously.
  const left = await until(
    'no key of the database on any node',
    () => tagged(`{db:${db}}:`),
    (byNode) => byNode.every((onNode) => onNode.length === 0),
    10_000,
  );
  t.same(left.flat(), [], 'no key with its hash tag on any primary or replica');
  t.equal(await a.redis.get(neighbour), 'here', `${neighbour}, in the same slot, is kept`);
  const gone = await a.api.get('databases/current/', { token });
  t.equal(gone.status, 404, 'the other process knows it gone');
});

// ioredis re-arms its periodic slot refresh from the refresh's callback, which it calls even when the
// client was disconnected meanwhile: without recd's guard (redis.ts endRefreshesOnDisconnect) such a
// client refreshes a closed connection pool every 2 s for good, and its process never exits (a test
// file's process once outlived its tests that way). A process that disconnects in the middle of a
// periodic refresh, and does nothing else, exits.
t.test('a cluster client disconnected during a slot refresh lets its process exit', async (t) => {
  const redisModule = new URL('../../src/store/redis.js', import.meta.url).href;
  const script = `
    const { connectRedis } = await import(${JSON.stringify(redisModule)});
    const c = connectRedis(${JSON.stringify(cluster.url)}, { commandTimeoutMs: 5000 });
    await c.ping();
    // The periodic refresh (every 2 s) has read the slots and is about to call back.
    c.once('refresh', () => { c.disconnect(); console.log('disconnected'); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  t.match(out, /disconnected/, 'it disconnected during a refresh');
  t.same({ code, signal }, { code: 0, signal: null }, 'and exited by itself');
});
