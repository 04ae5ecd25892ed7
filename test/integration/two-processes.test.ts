// Two recd processes on one Redis: writes through one are seen through the other at once
// (issue: within 100 ms), for definitions, single and bulk writes, deletions and filtered listings.
import t from 'tap';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startPair } from '../helpers/stack.js';

const pair = await startPair();
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
  t.equal(after.body.items.length, 25, 'a change through A moves item 1 out of B\'s filtered listing');

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

t.test('a process whose change-stream position was trimmed away rebuilds its view', async (t) => {
  const db2 = await createDatabase(a.api, root);
  const tok = await tokenFor(a.api, root, 'backend', db2);
  t.equal((await a.api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token: tok })).status, 204);
  t.equal((await a.api.put('items-bulk/properties/', { items: [{ item_id: 1, n: 1 }] }, { token: tok })).status, 200);
  const list = () => b.api.get('items-bulk/properties/', { token: tok, query: 'filters=n:gte:1' });
  t.equal((await list()).body.items.length, 1, 'B builds its view');
  t.equal((await a.api.put('items-bulk/properties/', { items: [{ item_id: 2, n: 2 }, { item_id: 3, n: 3 }] }, { token: tok })).status, 200);
  // Everything B has not applied yet disappears from the stream, as MAXLEN trimming does to old entries.
  await a.redis.xtrim(`{db:${db2}}:catalogue:changes`, 'MAXLEN', 0);
  t.equal((await a.api.put('items-bulk/properties/', { items: [{ item_id: 4, n: 4 }] }, { token: tok })).status, 200);
  t.same(
    (await list()).body.items.map((i: { item_id: number }) => i.item_id),
    [1, 2, 3, 4],
    'the trimmed writes are not lost',
  );
});
