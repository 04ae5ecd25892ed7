// Rankings computed in the scoring pool (large catalogues) answer exactly what the event loop
// answers: process A ranks inline, process B (RECD_SCORING_INLINE_WORK=0) sends every ranking to
// its scoring pool; both serve the same model from one Redis.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { rmSync } from 'node:fs';
import t from 'tap';
import { uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { qs, RECO_ENV, trainedDatabase, withoutId, type Q } from '../helpers/reco.js';
import { startRedis, startStack } from '../helpers/stack.js';

const { server, dir } = await startRedis();
const a = await startStack(RECO_ENV, server);
const b = await startStack({ ...RECO_ENV, RECD_SCORING_INLINE_WORK: '0' }, server);
t.teardown(async () => {
  await a.close();
  await b.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const root = await rootToken(a.api);
const { token } = await trainedDatabase(a.api, root);

const both = async (method: 'GET' | 'POST', path: string, q: Q | Record<string, unknown>) => {
  const call = (s: typeof a) => (method === 'GET' ? s.api.get(path, { token, query: qs(q as Q) }) : s.api.post(path, q, { token }));
  return [await call(a), await call(b)] as const;
};

const cases: [string, 'GET' | 'POST', string, Q | Record<string, unknown>][] = [
  ['item to items', 'GET', 'recommendation/items/3/items/', { amt: 12 }],
  ['item to items, filtered', 'GET', 'recommendation/items/3/items/', { amt: 8, filters: 'genre:eq:b' }],
  ['item to items, reranked', 'GET', 'recommendation/items/3/items/', { amt: 10, reranking: 'genre:diversity:2' }],
  ['user to items', 'GET', `recommendation/users/${uid(2)}/items/`, { amt: 10, exclude_rated_items: true }],
  ['user without ratings (popular)', 'GET', `recommendation/users/${uid(65)}/items/`, { amt: 5 }],
  ['session', 'POST', 'recommendation/sessions/items/', { amt: 10, ratings: [{ item_id: 25, rating: 9 }] }],
  ['context items', 'POST', `recommendation/context-items/users/${uid(40)}/items/`, { amt: 10, context_items: [1, 2] }],
  ['group', 'POST', 'recommendation/users-groups/items/', { amt: 10, users_id: [uid(1), uid(41)], consensus_factor: 0.5 }],
  ['property values', 'GET', `recommendation/users/${uid(2)}/items-properties/genre/`, { amt: 2 }],
];

for (const [what, method, path, q] of cases) {
  t.test(`${what}: the pool answers as the event loop does`, async (t) => {
    const [inline, pooled] = await both(method, path, q);
    t.equal(inline.status, 200, `inline: ${inline.text.slice(0, 200)}`);
    t.equal(pooled.status, 200, `pooled: ${pooled.text.slice(0, 200)}`);
    t.same(withoutId(pooled.body), withoutId(inline.body));
    const list = inline.body.items_id ?? inline.body.properties;
    t.ok(Array.isArray(list) && list.length > 0, 'a non-empty answer');
  });
}

t.test('pages through the pool follow on: two pages equal one, with no repeat', async (t) => {
  const whole = await b.api.get('recommendation/items/30/items/', { token, query: qs({ amt: 20 }) });
  const p1 = await b.api.get('recommendation/items/30/items/', { token, query: qs({ amt: 10 }) });
  const p2 = await b.api.get('recommendation/items/30/items/', { token, query: qs({ amt: 10, cursor: p1.body.next_cursor }) });
  t.same([...p1.body.items_id, ...p2.body.items_id], whole.body.items_id);
  t.equal(new Set(whole.body.items_id).size, 20);
});
