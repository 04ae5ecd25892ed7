// Item-to-items through the item index (RECD_ITEM_INDEX_MIN_ITEMS lowered so a test-sized catalogue
// gets one): 12,000 items in 60 planted groups, more than the first probe gathers, so deep pages and
// rare filters reach the lists ranked after it.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { rmSync } from 'node:fs';
import t from 'tap';
import { freshDatabase, range, why } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { groupedCatalogue, modelsOf, need, pipelined, qs, RECO_ENV, settled, statusOf, tasksOf, until } from '../helpers/reco.js';
import { startRedis, startStack } from '../helpers/stack.js';
import { triggerAfterRuns } from '../helpers/trigger.js';

const ITEMS = 12_000;
const GROUPS = 60;
const groupOf = (i: number) => i % GROUPS;

const { server, dir } = await startRedis();
const s = await startStack({ ...RECO_ENV, RECD_ITEM_INDEX_MIN_ITEMS: '5000' }, server);
t.teardown(async () => {
  await s.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
const api = s.api;
const root = await rootToken(api);
const { db, token } = await freshDatabase(api, root, { user_id_type: 'uint32' });

await groupedCatalogue(api, token, ITEMS, groupOf);
// User u rates 12 items of group u mod 60, in windows moving 4 items a user: about 3 ratings an item.
const perGroup = ITEMS / GROUPS;
const itemAt = (g: number, p: number) => (g === 0 ? GROUPS * (p + 1) : g + GROUPS * p); // the p-th item of group g
const ratings = range(0, 3000).flatMap((u) =>
  range(0, 12).map((j) => ({
    user_id: u + 1,
    item_id: itemAt(u % GROUPS, (4 * Math.floor(u / GROUPS) + j) % perGroup),
    rating: 8,
    timestamp: 1_700_000_000 + u,
  })),
);
for (let k = 0; k < ratings.length; k += 16_384)
  need(await api.put('ratings-bulk/', { ratings: ratings.slice(k, k + 16_384) }, { token }), 200, 'ratings');
await until(
  'ready',
  () => statusOf(api, token),
  (x) => x === 'ready',
);
// The uploads queued runs of their own (500 · 2^k ratings), which may not have seen the last batch:
// one more run, asked for once those are over (a request while one is queued is refused).
need(await triggerAfterRuns(api, s.redis, db, token, 'ml_model_retrain'), 200, 'retrain');
await until(
  'trained on every rating',
  async () => (await api.get('pretrained-ml/trained-models/', { token })).body.models as { serving: boolean; n_ratings: number }[],
  (ms) => ms.some((m) => m.serving && m.n_ratings === ratings.length),
  120_000,
);
await until(
  'tasks settled',
  async () => [...(await tasksOf(api, token, 'ml_model_retrain')), ...(await tasksOf(api, token, 'ml_new_items'))],
  settled,
  120_000,
);

const similar = (item: number, q: Record<string, string | number> = {}) =>
  api.get(`recommendation/items/${item}/items/`, { token, query: qs(q) });

t.test('the model carries an item index', async (t) => {
  const serving = (await modelsOf(api, token)).find((m) => m.serving) as unknown as { n_items: number; bytes: number; factors: number };
  t.equal(serving.n_items, ITEMS);
  // 12,000 items of 8 factors take 12,000 · 44 bytes without an index, 4 more per item with one.
  t.ok(serving.bytes >= ITEMS * (8 * 4 + 8 + 4), `model bytes ${serving.bytes} include the index`);
});

t.test('similar items come from the query item’s planted group', async (t) => {
  let same = 0,
    total = 0;
  for (const item of [1, 77, 4242, 9999, 12_000]) {
    const r = await similar(item, { amt: 10 });
    t.equal(r.status, 200, why(r, 200));
    const ids: number[] = r.body.items_id;
    t.equal(ids.length, 10, `item ${item}: 10 items`);
    t.notOk(ids.includes(item), `item ${item}: never itself`);
    same += ids.filter((i) => groupOf(i) === groupOf(item)).length;
    total += ids.length;
  }
  // 8 factors cannot keep 60 groups fully apart; a random answer would hold 1 in 60.
  t.ok(same / total >= 0.5, `share in the planted group ${same}/${total}`);
});

t.test('pages of one filtered ranking list every passing item once', async (t) => {
  const seen = new Set<number>();
  let cursor: string | undefined;
  let pages = 0;
  // A filter passing one other group of 60: collecting all of its items walks the ranking through
  // every list holding one of them, past the first probe's lists where they lie beyond it.
  const filter = `grp:eq:${groupOf(4242 + 30)}`;
  do {
    const r = await similar(4242, { amt: 16, filters: filter, ...(cursor ? { cursor } : {}) });
    t.equal(r.status, 200, why(r, 200));
    if (r.status !== 200) break;
    const ids: number[] = r.body.items_id;
    t.ok(
      ids.every((i) => groupOf(i) === groupOf(4242 + 30)),
      `page ${pages + 1}: only the filtered group`,
    );
    for (const i of ids) {
      t.notOk(seen.has(i), `item ${i} not on an earlier page`);
      seen.add(i);
    }
    cursor = r.body.next_cursor || undefined;
    pages++;
  } while (cursor && pages < 20);
  t.equal(seen.size, perGroup, `every item of the filtered group once (${seen.size} of ${perGroup})`);
  t.notOk(seen.has(4242), 'never the query item');
});

t.test('a ranking already held answers pipelined requests in the same tick', async (t) => {
  await similar(77, { amt: 10 });
  const { responses, closedEarly } = await pipelined(
    api,
    token,
    Array.from({ length: 10 }, () => 'recommendation/items/77/items/?amt=10'),
  );
  t.notOk(closedEarly, 'the connection stayed open');
  t.equal(responses.length, 10);
  t.ok(
    responses.every((r) => r.status === 200 && r.body.items_id.length === 10),
    'ten answers',
  );
});
