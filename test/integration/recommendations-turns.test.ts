// Sessions that wait for a later event-loop turn (services/reco/request/turn-budget.ts) answer exactly what
// they answer made at once, however many arrive together and in whatever order they finish: process
// A has the default budget, process B (RECD_TURN_BUDGET_US=0) answers every session arriving with
// another on a later turn, one a turn; both serve one model of 8,000 items, large enough for
// sessions to be ranked from their candidates, from one Redis.
import { rmSync } from 'node:fs';
import t from 'tap';
import { freshDatabase, range } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { groupedCatalogue, need, qs, RECO_ENV, settled, statusOf, tasksOf, until, withoutId } from '../helpers/reco.js';
import { startRedis, startStack } from '../helpers/stack.js';
import { triggerAfterRuns } from '../helpers/trigger.js';

const ITEMS = 8000;
const USERS = 2400;
const GROUPS = 40;

const { server, dir } = await startRedis();
const a = await startStack(RECO_ENV, server);
const b = await startStack({ ...RECO_ENV, RECD_TURN_BUDGET_US: '0' }, server);
t.teardown(async () => {
  await a.close();
  await b.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const api = a.api;
const root = await rootToken(api);
const { db, token } = await freshDatabase(api, root, { user_id_type: 'uint32' });
await groupedCatalogue(api, token, ITEMS, (i) => i % GROUPS);
// User u rates 10 items of group u mod 40: the group's 60 users its 200 items 3 times each (7,919
// is coprime with 200, so the positions are a permutation of 600 slots).
const itemOf = (u: number, j: number) => {
  const k = ((Math.floor(u / GROUPS) * 10 + j) * 7919) % (ITEMS / GROUPS);
  return (u % GROUPS) + GROUPS * k + (u % GROUPS === 0 ? GROUPS : 0);
};
const ratings = range(0, USERS).flatMap((u) =>
  range(0, 10).map((j) => ({ user_id: u + 1, item_id: itemOf(u, j), rating: 6 + ((u + j) % 5), timestamp: 1_700_000_000 + u })),
);
for (let k = 0; k < ratings.length; k += 16_384)
  need(await api.put('ratings-bulk/', { ratings: ratings.slice(k, k + 16_384) }, { token }), 200, 'ratings');
await until(
  'ready',
  () => statusOf(api, token),
  (x) => x === 'ready',
);
need(await triggerAfterRuns(api, a.redis, db, token, 'ml_model_retrain'), 200, 'retrain');
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

// Session s: three ratings of items of two groups, different for every s; every fourth filtered to a group.
const session = (s: number) => ({
  amt: 10,
  ratings: [0, 1, 2].map((j) => ({ item_id: 1 + ((s * 37 + j * 1009) % ITEMS), rating: 6 + j })),
  ...(s % 4 === 3 ? { filters: [`grp:eq:${s % GROUPS}`] } : {}),
});
type Stack = typeof a;
const post = (s: Stack, body: unknown) => s.api.post('recommendation/sessions/items/', body, { token });

t.test('sessions arriving together answer as each does alone, waiting or not', async (t) => {
  const n = 150;
  const alone = [];
  for (let s = 0; s < n; s++) alone.push(await post(a, session(s)));
  for (const r of alone) t.equal(r.status, 200, r.text.slice(0, 200));
  t.ok(
    alone.every((r) => r.body.items_id.length === 10),
    'full pages',
  );
  // Fresh sessions on B (none asked there before): each made on a later turn.
  const together = await Promise.all(range(0, n).map((s) => post(b, session(s))));
  const reversed = await Promise.all(
    range(0, n)
      .reverse()
      .map((s) => post(a, session(s + n))),
  );
  const aloneLater = [];
  for (let s = n; s < 2 * n; s++) aloneLater.push(await post(b, session(s)));
  t.same(
    together.map((r) => withoutId(r.body)),
    alone.map((r) => withoutId(r.body)),
    'B, all at once: as A one at a time',
  );
  t.same(
    reversed.reverse().map((r) => withoutId(r.body)),
    aloneLater.map((r) => withoutId(r.body)),
    'A, all at once in reverse: as B one at a time',
  );
});

t.test('second pages made on a later turn follow the first: two pages equal one', async (t) => {
  const s = { ...session(1000), amt: 20 };
  const whole = await post(a, s);
  const firsts = await Promise.all(range(0, 20).map(() => post(b, { ...s, amt: 10 })));
  const cursor = firsts[0]!.body.next_cursor;
  t.ok(
    firsts.every((r) => r.body.next_cursor === cursor),
    'one cursor',
  );
  const seconds = await Promise.all(range(0, 20).map(() => post(b, { ...s, amt: 10, cursor })));
  for (const [k, r] of seconds.entries()) t.same([...firsts[k]!.body.items_id, ...r.body.items_id], whole.body.items_id, `request ${k}`);
});

t.test('other requests answer on B as on A', async (t) => {
  const cases: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
    ['item to items, filtered', 'GET', 'recommendation/items/3/items/', { amt: 8, filters: 'grp:eq:5' }],
    [
      'item to items, filtered and reranked',
      'GET',
      'recommendation/items/3/items/',
      { amt: 10, filters: 'grp:gte:20', reranking: 'grp:diversity:2' },
    ],
    ['user to items, past their list', 'GET', 'recommendation/users/7/items/', { amt: 10, exclude_rated_items: true, filters: 'grp:eq:9' }],
    ['group', 'POST', 'recommendation/users-groups/items/', { amt: 10, users_id: [1, 41], consensus_factor: 0.5 }],
    ['property values', 'GET', 'recommendation/users/2/items-properties/grp/', { amt: 3 }],
  ];
  const call = (s: Stack, [, method, path, q]: (typeof cases)[number]) =>
    method === 'GET' ? s.api.get(path, { token, query: qs(q as never) }) : s.api.post(path, q, { token });
  const later = await Promise.all(cases.map((c) => call(b, c)));
  for (const [k, c] of cases.entries()) {
    const now = await call(a, c);
    t.equal(now.status, 200, `${c[0]}: ${now.text.slice(0, 200)}`);
    t.same(withoutId(later[k]!.body), withoutId(now.body), c[0]);
  }
});
