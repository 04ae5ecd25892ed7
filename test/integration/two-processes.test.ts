// Two recd processes on one Redis: writes through one are seen through the other at once
// (issue: within 100 ms), for definitions, single and bulk writes, deletions, filtered listings and
// the scenarios recommendations apply.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { nodeOf } from '../../src/store/redis.js';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { isA, isB, RECO_ENV, trainedDatabase } from '../helpers/reco.js';
import { ON_CLUSTER, startPair } from '../helpers/stack.js';

const pair = await startPair(RECO_ENV);
t.teardown(() => pair.close());
const { a, b } = pair;

const root = await rootToken(a.api);
const db = await createDatabase(a.api, root);
const token = await tokenFor(a.api, root, 'backend', db);

// Polls the other process for up to 100 ms.
async function within100ms<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 100;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
    v = await read();
  }
  return v;
}

t.test('a token from one process works on the other', async (t) => {
  t.equal((await b.api.get('databases/current/status/', { token })).status, 200);
});

t.test('property definitions, items and filters written through A are seen through B', async (t) => {
  t.equal((await a.api.post('items-properties/', { property_name: 'colour', value_type: 'unicode16' }, { token })).status, 204);
  const defs = await within100ms(
    () => b.api.get('items-properties/', { token }),
    (r) => r.body.properties?.length === 1,
  );
  t.equal(defs.body.properties[0].property_name, 'colour');

  t.equal((await a.api.put('items/1/properties/', { item: { colour: 'red' } }, { token })).status, 200);
  const one = await within100ms(
    () => b.api.get('items/1/properties/', { token }),
    (r) => r.status === 200,
  );
  t.same(one.body.item, { item_id: 1, colour: 'red' });

  const items = Array.from({ length: 50 }, (_, i) => ({ item_id: i + 2, colour: i % 2 ? 'red' : 'blue' }));
  t.equal((await a.api.put('items-bulk/properties/', { items }, { token })).status, 200);
  const reds = await within100ms(
    () => b.api.get('items-bulk/properties/', { token, query: 'filters=colour:eq:red&amt=500' }),
    (r) => r.body.items?.length === 26,
  );
  t.equal(reds.body.items.length, 26, 'item 1 and the 25 red ones of the bulk');

  t.equal((await a.api.patch('items/1/properties/', { item: { colour: 'blue' } }, { token })).status, 200);
  const after = await within100ms(
    () => b.api.get('items-bulk/properties/', { token, query: 'filters=colour:eq:red&amt=500' }),
    (r) => r.body.items?.length === 25,
  );
  t.equal(after.body.items.length, 25, "a change through A moves item 1 out of B's filtered listing");

  t.equal((await a.api.delete('items-bulk/properties/', { items_id: [2, 3] }, { token })).status, 204);
  const gone = await within100ms(
    () => b.api.post('items-bulk/properties/list/', { items_id: [2, 3, 4] }, { token }),
    (r) => r.body.items?.length === 1,
  );
  t.same(
    gone.body.items.map((i: { item_id: number }) => i.item_id),
    [4],
  );
});

t.test('a process whose tail missed changes that were then trimmed away starts afresh', async (t) => {
  const db2 = await createDatabase(a.api, root);
  const tok = await tokenFor(a.api, root, 'backend', db2);
  t.equal((await a.api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token: tok })).status, 204);
  t.equal((await a.api.put('items-bulk/properties/', { items: [{ item_id: 1, n: 1 }] }, { token: tok })).status, 200);
  const list = () => b.api.get('items-bulk/properties/', { token: tok, query: 'filters=n:gte:1' });
  t.equal((await list()).body.items.length, 1, 'B builds its view');
  // Both processes lose their tail connection (they reconnect within a few hundred ms); meanwhile
  // items 2 and 3 are written and every change naming them is trimmed, as MAXLEN trimming does.
  // On a cluster the tails are on the primary serving the database's slot (a lane per database, so
  // other databases' lanes may share that node: all are cut).
  const server = await nodeOf(a.redis, keys.catalogueChanges(db2));
  const clients = (await server.client('LIST')) as string;
  const tails = clients
    .split('\n')
    .filter((l) => / name=recd-tail /.test(l))
    .map((l) => /\bid=(\d+)/.exec(l)![1]!);
  if (ON_CLUSTER) t.ok(tails.length >= 2, `the tail connections of both processes on the slot's primary (${tails.length})`);
  else t.equal(tails.length, 2, 'one tail connection per process');
  for (const id of tails) await server.client('KILL', 'ID', id);
  t.equal(
    (
      await a.api.put(
        'items-bulk/properties/',
        {
          items: [
            { item_id: 2, n: 2 },
            { item_id: 3, n: 3 },
          ],
          wait_for_completion: false,
        },
        { token: tok },
      )
    ).status,
    202,
  );
  while ((await a.redis.hlen(`{db:${db2}}:items:records`)) < 3) await new Promise((r) => setTimeout(r, 2));
  await a.redis.xtrim(`{db:${db2}}:catalogue:changes`, 'MAXLEN', 0);
  t.equal((await a.api.put('items-bulk/properties/', { items: [{ item_id: 4, n: 4 }] }, { token: tok })).status, 200);
  const seen = await within100ms(list, (r) => r.body.items?.length === 4);
  t.same(
    seen.body.items.map((i: { item_id: number }) => i.item_id),
    [1, 2, 3, 4],
    'the trimmed writes are not lost',
  );
});

t.test('a GET answered from B`s in-memory view follows writes and deletions made through A', async (t) => {
  const db3 = await createDatabase(a.api, root);
  const tok = await tokenFor(a.api, root, 'backend', db3);
  t.equal((await a.api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token: tok })).status, 204);
  t.equal((await a.api.put('items/7/properties/', { item: { n: 1 } }, { token: tok })).status, 200);
  const get = () => b.api.get('items/7/properties/', { token: tok });
  t.same((await get()).body.item, { item_id: 7, n: 1 });
  await within100ms(get, () => false); // B's view is built by now (its first read started the build)
  for (const n of [2, 3, 4]) {
    t.equal((await a.api.patch('items/7/properties/', { item: { n } }, { token: tok })).status, 200);
    t.same((await within100ms(get, (r) => r.body.item?.n === n)).body.item, { item_id: 7, n }, `B sees n=${n}`);
  }
  t.equal((await a.api.delete('items/7/properties/', undefined, { token: tok })).status, 204);
  t.equal(errorOf(await within100ms(get, (r) => r.status === 404)).name, 'ITEM_NOT_FOUND');
  t.equal((await a.api.post('items-properties/', { property_name: 'm', value_type: 'int32' }, { token: tok })).status, 204);
  t.equal((await a.api.put('items/7/properties/', { item: { n: 5, m: 6 } }, { token: tok })).status, 200);
  t.same(
    (await within100ms(get, (r) => r.body.item?.m === 6)).body.item,
    { item_id: 7, n: 5, m: 6 },
    'a property defined through A is shown by B',
  );
});

t.test('a database deleted through A is gone for B at once, with what B held about it', async (t) => {
  const db4 = await createDatabase(a.api, root);
  const tok = await tokenFor(a.api, root, 'backend', db4);
  t.equal((await a.api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token: tok })).status, 204);
  t.equal((await a.api.put('items/1/properties/', { item: { n: 1 } }, { token: tok })).status, 200);
  const get = () => b.api.get('items/1/properties/', { token: tok });
  t.equal((await get()).status, 200);
  await within100ms(get, () => false);
  const owner = await tokenFor(a.api, root, 'root', db4);
  t.equal((await a.api.delete('databases/current/', undefined, { token: owner })).status, 204);
  const r = await within100ms(get, (r) => r.status === 404);
  t.equal(errorOf(r).name, 'DATABASE_NOT_FOUND');
});

t.test('scenarios changed through A apply to recommendations through B at once', async (t) => {
  const trained = await trainedDatabase(a.api, root);
  const tok = trained.token;
  const put = (genre: string) =>
    a.api.put('scenarios/item_to_items/genre/', { scenario_type: 'case', case: { filters: [`genre:eq:${genre}`] } }, { token: tok });
  const reco = () => b.api.get('recommendation/items/30/items/', { token: tok, query: 'amt=64' });
  const ids = (r: { body: { items_id?: number[] } }) => r.body.items_id ?? [];
  t.equal(ids(await reco()).length, 39, 'no scenario: every other item');
  t.equal((await put('a')).status, 200);
  t.equal((await a.api.patch('scenarios-default/item_to_items/', { name: 'genre' }, { token: tok })).status, 204);
  const first = await within100ms(reco, (r) => ids(r).length > 0 && ids(r).every(isA));
  t.ok(ids(first).every(isA), `B applies the new default: ${JSON.stringify(ids(first))}`);
  t.equal((await put('b')).status, 200);
  const second = await within100ms(reco, (r) => ids(r).length > 0 && ids(r).every(isB));
  t.ok(ids(second).every(isB), `B applies the replaced case: ${JSON.stringify(ids(second))}`);
  t.equal((await a.api.delete('scenarios-default/item_to_items/', undefined, { token: tok })).status, 204);
  const third = await within100ms(reco, (r) => ids(r).length === 39);
  t.equal(ids(third).length, 39, 'B drops the default');
});
