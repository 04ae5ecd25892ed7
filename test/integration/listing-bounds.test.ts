// A listing page costs what it holds, not what the catalogue holds (services/catalogue/entities.ts
// page): a filter matching nothing looks at 20,000 items at most per page, answering an empty page
// with has_next and a cursor that goes on; a page of large records ends at 4 MiB of them; walking the
// pages still finds every record once.
import t from 'tap';
import { rootToken } from '../helpers/fixtures.js';
import { freshDatabase, range, walkPages, why } from '../helpers/feedback.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

t.test('a filter that matches nothing: empty pages of 20,000 looked at, has_next until the end', async (t) => {
  const { token } = await freshDatabase(api, root);
  t.equal((await api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token })).status, 204);
  for (let from = 1; from <= 45_000; from += 5_000) {
    const r = await api.put('items-bulk/properties/', { items: range(from, from + 5_000).map((i) => ({ item_id: i, n: i })) }, { token });
    t.equal(r.status, 200, why(r, 200));
  }
  const first = await api.get('items-bulk/properties/', { token, query: 'amt=10&filters=n:lt:0' });
  t.equal(first.status, 200, why(first, 200));
  t.strictSame(first.body.items, []);
  t.equal(first.body.has_next, true, 'more to look at');
  const walk = await walkPages(api, token, 'items-bulk/properties/', 'items', { amt: 10, filters: 'n:lt:0' });
  t.equal(walk.pages.length, 3, '45,000 items in pages of 20,000 looked at');
  t.equal(walk.rows.length, 0);
  // One match far from the start is found by walking on.
  const one = await walkPages(api, token, 'items-bulk/properties/', 'items', { amt: 10, filters: 'n:eq:44000' });
  t.strictSame(
    one.rows.map((x: { item_id: number }) => x.item_id),
    [44_000],
  );
});

t.test('large records: a page ends at 4 MiB of them', async (t) => {
  const { token } = await freshDatabase(api, root);
  t.equal((await api.post('items-properties/', { property_name: 'tags', value_type: 'unicode32', repeated: true }, { token })).status, 204);
  const tags = (i: number) => range(0, 1000).map((k) => `${String(i).padStart(6, '0')}-${String(k).padStart(25, 'x')}`);
  for (let from = 1; from <= 200; from += 50) {
    const r = await api.put(
      'items-bulk/properties/',
      { items: range(from, from + 50).map((i) => ({ item_id: i, tags: tags(i) })) },
      { token },
    );
    t.equal(r.status, 200, why(r, 200));
  }
  const first = await api.get('items-bulk/properties/', { token, query: 'amt=500' });
  t.equal(first.status, 200, why(first, 200));
  const n = first.body.items.length;
  t.ok(n > 50 && n < 200, `a page of ${n} records of ~33 KB`);
  t.ok(first.text.length < 6 * 1024 * 1024, `the answer stays near 4 MiB: ${first.text.length} bytes`);
  t.equal(first.body.has_next, true);
  const all = await walkPages(api, token, 'items-bulk/properties/', 'items', { amt: 500 });
  t.strictSame(
    all.rows.map((x: { item_id: number }) => x.item_id),
    range(1, 201),
    'every record once, in order',
  );
});
