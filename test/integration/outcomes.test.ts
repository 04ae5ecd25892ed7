// Outcomes through HTTP against a real Redis: every answer recorded (impressions kept by count and age),
// interactions credited to answers directly (recommendation_id) and view-through, once each; the results
// by reco type, scenario and day; A/B test results with the sample ratio check; roles.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Res } from '../helpers/api.js';
import { uid } from '../helpers/feedback.js';
import { errorOf, frontendToken, rootToken } from '../helpers/fixtures.js';
import { POPULAR, RECO_ENV, trainedDatabase, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { inGroupA } from '../../src/services/scenarios/scenario-walk.js';
import { BATCH_ANSWERS } from '../../src/services/outcomes/impressions.js';
import { keys } from '../../src/store/keys.js';
import { OutcomesStore } from '../../src/store/outcomes-store.js';

const MOST = 1000;
const stack = await startStack({ ...RECO_ENV, RECD_IMPRESSIONS_MAX: String(MOST), RECD_ATTRIBUTION_WINDOW_SECONDS: '3600' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token } = await trainedDatabase(api, root);
const { redis } = stack;

type Groups = { groups: Record<string, unknown>[] };
type Credited = { interaction_type: string; direct: number; view_through: number; users_acted: number; positions: { credited: number }[] };

const userReco = (user: string, amt = 5) => api.get(`recommendation/users/${user}/items/`, { token, query: `amt=${amt}` });
const itemReco = (item: number, query = 'amt=5') => api.get(`recommendation/items/${item}/items/`, { token, query });
const interact = (user: string, item: number, type: string, properties?: Record<string, unknown>) =>
  api.post(`users/${user}/interactions/${item}/`, { interaction_type: type, ...(properties && { properties }) }, { token });
const results = async (query: string): Promise<Groups> => {
  const r = await api.get('analytics/recommendations/', { token, query });
  if (r.status !== 200) throw new Error(`analytics: ${r.status} ${r.text}`);
  return r.body;
};
const group = (g: Groups, field: string, value: unknown) => g.groups.find((x) => x[field] === value);
const credited = (g: Record<string, unknown> | undefined, type: string) =>
  (g?.interactions as Credited[] | undefined)?.find((i) => i.interaction_type === type);
const bad = (r: Res) => (r.status === 400 ? errorOf(r).name : `status ${r.status}`);
const ok = (r: Res, what: string) => {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
};

t.test(
  'a user answer is recorded; a click naming it is credited directly at its position, another item view-through; each once',
  async (t) => {
    const user = uid(3);
    const answer = ok(await userReco(user), 'user reco');
    const [first, second] = answer.items_id as number[];
    t.ok(typeof answer.recommendation_id === 'string');
    t.equal((await interact(user, second!, 'click', { recommendation_id: answer.recommendation_id })).status, 200);
    t.equal((await interact(user, first!, 'click')).status, 200);
    // The same again: credit is counted once per (answer, item, interaction type).
    t.equal((await interact(user, second!, 'click', { recommendation_id: answer.recommendation_id })).status, 200);
    t.equal((await interact(user, first!, 'click')).status, 200);
    // Another type is credited of its own.
    t.equal((await interact(user, second!, 'purchase', { recommendation_id: answer.recommendation_id })).status, 200);
    const g = await until(
      'credits counted',
      () => results('group_by=reco_type'),
      (r) => (credited(group(r, 'reco_type', 'profile_to_items'), 'purchase')?.direct ?? 0) >= 1,
    );
    const p = group(g, 'reco_type', 'profile_to_items')!;
    t.equal(p.answers, 1);
    t.equal(p.items_shown, 5);
    t.equal(p.users, 1);
    const click = credited(p, 'click')!;
    t.equal(click.direct, 1, 'direct once');
    t.equal(click.view_through, 1, 'view-through once');
    t.equal(click.users_acted, 1);
    t.strictSame(
      click.positions.map((x) => x.credited),
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      'credited at positions 1 and 2',
    );
    t.equal(credited(p, 'purchase')!.direct, 1);
    const byDay = await results('group_by=day');
    t.equal(byDay.groups.length, 1);
    t.equal(byDay.groups[0]!.day, new Date().toISOString().slice(0, 10));
  },
);

t.test('an item-to-items answer without a user is credited only by interactions naming it', async (t) => {
  const answer = ok(await itemReco(1), 'item reco');
  const shown = answer.items_id as number[];
  const user = uid(40);
  t.equal((await interact(user, shown[0]!, 'view')).status, 200, 'no recommendation_id: nobody was shown it');
  t.equal((await interact(user, shown[2]!, 'view', { recommendation_id: answer.recommendation_id })).status, 200);
  t.equal((await interact(user, 39, 'view', { recommendation_id: 'not-an-answer.0' })).status, 200, 'an id of no answer');
  const g = await until(
    'credit counted',
    () => results('group_by=reco_type'),
    (r) => credited(group(r, 'reco_type', 'item_to_items'), 'view') !== undefined,
  );
  const i = credited(group(g, 'reco_type', 'item_to_items'), 'view')!;
  t.equal(i.direct, 1);
  t.equal(i.view_through, 0);
  t.equal(i.positions[2]!.credited, 1, 'at position 3');
});

t.test('A/B results: arms by user, the difference and its p-value, a skewed split flagged', async (t) => {
  const id: string = ok(await api.post('ab-tests/params/', { name: 'pair', probability_a: 0.5 }, { token }), 'ab test').id;
  const put = async (name: string, scenario: Record<string, unknown>) =>
    ok(await api.put(`scenarios/profile_to_items/${name}/`, scenario, { token }), name);
  await put('left', { scenario_type: 'case', case: { amt: 3 } });
  await put('right', { scenario_type: 'case', case: { amt: 4 } });
  await put('split', { scenario_type: 'ab_test', ab_test: { id, scenario_a: 'left', scenario_b: 'right' } });
  // Only users of arm A ask: the split seen is far from probability_a.
  const users = Array.from({ length: 60 }, (_, k) => uid(k)).filter((u) => inGroupA(id, u, 0.5));
  for (const u of users) {
    const a = ok(await api.get(`recommendation/users/${u}/items/`, { token, query: 'scenario=split' }), 'ab reco');
    if (users.indexOf(u) % 2 === 0) await interact(u, (a.items_id as number[])[0]!, 'click', { recommendation_id: a.recommendation_id });
  }
  const r = await until(
    'arm A counted',
    async () => ok(await api.get(`ab-tests/${id}/results/`, { token }), 'results'),
    (b) => b.arms[0].users >= users.length - 1 && (b.comparisons as unknown[]).length > 0,
  );
  t.equal(r.arms[0].arm, 'A');
  t.equal(r.arms[1].users, 0);
  t.ok(r.sample_ratio.mismatch, 'all users in A against 0.5: mismatch');
  t.match(r.comparisons[0], { interaction_type: 'click', p_value: null });
  const byArm = await results('group_by=ab_test');
  t.ok(group(byArm, 'ab_test', id), 'analytics by A/B test');
  const daily = await results('group_by=day,ab_test');
  t.ok(
    daily.groups.some((g) => g.ab_test === id && g.arm === 'A' && g.day === new Date().toISOString().slice(0, 10)),
    'by day and arm',
  );
  t.equal(bad(await api.get('analytics/recommendations/', { token, query: 'group_by=day,day' })), 'WRONG_PARAMETER');
  const unknown = await api.get('ab-tests/999999/results/', { token });
  t.equal(unknown.status, 404);
});

t.test('roles: a frontend token may not read outcomes; wrong parameters are 400', async (t) => {
  const front = await frontendToken(api, root, db, uid(1));
  t.equal((await api.get('analytics/recommendations/', { token: front })).status, 403);
  const bad = await api.get('analytics/recommendations/', { token, query: 'group_by=colour' });
  t.equal(bad.status, 400);
  const long = await api.get('analytics/recommendations/', { token, query: 'start_timestamp=0&end_timestamp=100000000' });
  t.match(errorOf(long), { status: 400, name: 'WRONG_PARAMETER' });
});

// The answers recorded as shown to a user (their items, newest answer first).
const shownLists = async (user: string) =>
  (await redis.lrange(keys.shownPrefix(db) + `u:${user}`, 0, -1)).map((e) =>
    e
      .split('\u001d')[4]!
      .split('\u001e')
      .filter((i) => i !== '')
      .map(Number),
  );
const shownTo = async (user: string, n: number) =>
  until(
    `${n} answers shown to ${user}`,
    () => redis.llen(keys.shownPrefix(db) + `u:${user}`),
    (k) => k >= n,
  );

t.test('rotation: items shown to the user are left out (rate 1) or pushed down, and pages stay consistent', async (t) => {
  const user = uid(5);
  const had = await redis.llen(keys.shownPrefix(db) + `u:${user}`); // answers of the tests before
  const plain = ok(await userReco(user, 20), 'plain').items_id as number[];
  const first = ok(await userReco(user, 4), 'shown').items_id as number[];
  t.strictSame(first, plain.slice(0, 4));
  await shownTo(user, had + 2);
  t.strictSame((await shownLists(user)).slice(0, 2), [first, plain], 'both answers recorded, newest first');
  // All 20 were shown: at rate 1 none comes back; the next 4 of the ranking come first.
  const rotated = (query: string) => api.get(`recommendation/users/${user}/items/`, { token, query });
  const out = ok(await rotated('amt=4&rotation_rate=1'), 'rate 1');
  t.ok(
    (out.items_id as number[]).every((i) => !plain.includes(i)),
    `none of the shown: ${out.items_id}`,
  );
  const page2 = ok(await rotated(`amt=4&rotation_rate=1&cursor=${out.next_cursor}`), 'page 2');
  t.ok(
    (page2.items_id as number[]).every((i) => !plain.includes(i) && !(out.items_id as number[]).includes(i)),
    'page 2: none shown, none of page 1',
  );
  // Page 1 itself was shown meanwhile: the cursor keeps the listing as it began.
  await shownTo(user, had + 4);
  const again = ok(await rotated(`amt=4&rotation_rate=1&cursor=${out.next_cursor}`), 'page 2 again');
  t.strictSame(again.items_id, page2.items_id, 'page 2 asked again: the same items');
  t.equal(bad(await rotated('rotation_rate=2')), 'WRONG_PARAMETER');
  t.equal(bad(await rotated('rotation_rate=1&rotation_hours=0')), 'WRONG_PARAMETER');
  t.equal(
    bad(await rotated(`rotation_rate=1&cursor=${ok(await userReco(user, 2), 'plain cursor').next_cursor}`)),
    'WRONG_PARAMETER',
    'a cursor of a listing that did not rotate',
  );
});

t.test('rotation at a rate below 1 pushes a shown item down; from a case scenario; for a session with user_id', async (t) => {
  const user = uid(65); // a user no test before was shown anything
  t.equal(await redis.exists(keys.shownPrefix(db) + `u:${user}`), 0);
  const [top] = ok(await userReco(user, 1), 'one shown').items_id as number[];
  await shownTo(user, 1);
  const half = ok(await api.get(`recommendation/users/${user}/items/`, { token, query: 'amt=3&rotation_rate=0.5' }), 'half')
    .items_id as number[];
  t.equal(half[1], top, 'rank 1 shown before, at rate 0.5: rank 2');
  t.not(half[0], top);
  const shown = uid(5); // shown 24 items by the test before
  t.equal(
    (
      await api.put(
        'scenarios/profile_to_items/fresh/',
        { scenario_type: 'case', case: { rotation_rate: 1, rotation_hours: 2 } },
        { token },
      )
    ).status,
    200,
  );
  const before = new Set((await shownLists(shown)).flat());
  const viaCase = ok(await api.get(`recommendation/users/${shown}/items/`, { token, query: 'amt=5&scenario=fresh' }), 'case')
    .items_id as number[];
  t.ok(viaCase.length > 0 && viaCase.every((i) => !before.has(i)), 'the case rotates');
  const session = ok(
    await api.post(
      'recommendation/sessions/items/',
      { ratings: [{ item_id: 1, rating: 9 }], user_id: shown, rotation_rate: 1, amt: 5 },
      { token },
    ),
    'session',
  );
  t.ok(
    (session.items_id as number[]).every((i) => !before.has(i)),
    'a session carrying user_id rotates',
  );
  const anonymous = ok(
    await api.post('recommendation/sessions/items/', { ratings: [{ item_id: 1, rating: 9 }], rotation_rate: 1 }, { token }),
    'anon',
  );
  t.ok(
    (anonymous.warnings as string[]).some((w) => w.startsWith('rotation applies to a user')),
    'without a user: warned',
  );
});

type Why = { item_id: number; source: string; score: number | null; because: number[]; rules: string[] };
const why = (body: { items_id: number[]; explanations: Why[] }) => {
  if (body.explanations?.length !== body.items_id.length) throw new Error(`explanations: ${JSON.stringify(body)}`);
  body.explanations.forEach((e, k) => {
    if (e.item_id !== body.items_id[k]) throw new Error(`explanation ${k} names ${e.item_id}, the answer ${body.items_id[k]}`);
  });
  return body.explanations;
};

t.test('explanations name the source of each path, the score, the items that led to it and the rules that moved it', async (t) => {
  const u = 66; // rates the three most popular items, and no test before gave them feedback
  const listed = why(
    ok(await api.get(`recommendation/users/${uid(u)}/items/`, { token, query: 'explain=true&exclude_rated_items=true' }), 'listed'),
  );
  t.ok(
    listed.every((e) => e.source === 'user_list' || e.source === 'user_factors'),
    `sources ${listed.map((e) => e.source)}`,
  );
  t.equal(listed[0]!.source, 'user_list', "the first from the user's list");
  t.ok(listed.every((e) => typeof e.score === 'number'));
  t.ok(
    listed[0]!.because.length > 0 && listed[0]!.because.every((i) => POPULAR.includes(i)),
    `because ${listed[0]!.because}: items the user rated`,
  );
  const trained = why(ok(await api.get(`recommendation/users/${uid(u)}/items/`, { token, query: 'explain=true' }), 'trained'));
  t.ok(trained.every((e) => e.source === 'user_factors'));
  const neighbours = why(ok(await itemReco(3, 'explain=true&amt=4'), 'item'));
  t.ok(neighbours.every((e) => e.source === 'item_neighbours' && e.because[0] === 3 && e.score! <= 1.0001));
  const session = ok(
    await api.post(
      'recommendation/sessions/items/',
      {
        ratings: [
          { item_id: 25, rating: 9 },
          { item_id: 26, rating: 8 },
        ],
        explain: true,
      },
      { token },
    ),
    'session',
  );
  t.ok(
    why(session).every((e) => e.source === 'session' && e.because.every((i) => i === 25 || i === 26)),
    JSON.stringify(session.explanations[0]),
  );
  const empty = (explain: boolean) => api.post('recommendation/sessions/items/', { ratings: [], amt: 3, explain }, { token });
  const nobody = ok(await empty(false), 'empty session');
  t.ok(
    (nobody.warnings as string[]).some((w) => w.includes('most popular items')),
    'filler flagged without explain',
  );
  t.equal(nobody.explanations, undefined);
  const filler = why(ok(await empty(true), 'empty session explained'));
  t.ok(filler.every((e) => e.source === 'popularity'));
  // Fresh feedback after training: the user's factors are folded in.
  t.equal((await api.put(`users/${uid(13)}/ratings/`, { ratings: [{ item_id: 30, rating: 10 }] }, { token })).status, 200);
  const fresh = await until(
    'folded in',
    async () => ok(await api.get(`recommendation/users/${uid(13)}/items/`, { token, query: 'explain=true&amt=3' }), 'fresh'),
    (b) => b.explanations[0].source === 'fold_in',
  );
  t.ok(why(fresh).every((e) => e.source === 'fold_in'));
  const diverse = why(
    ok(await api.get('recommendation/items/3/items/', { token, query: 'explain=true&amt=6&reranking=genre:diversity:1' }), 'diverse'),
  );
  t.ok(
    diverse.some((e) => e.rules.some((r) => r.startsWith('reranking: from'))),
    'reranking named where it moved an item',
  );
  const filtered = why(
    ok(await api.get('recommendation/items/3/items/', { token, query: 'explain=true&amt=2&filters=genre:eq:b' }), 'filtered'),
  );
  t.ok(filtered.every((e) => e.rules.includes('filters: passed all 1')));
  t.equal(bad(await itemReco(3, 'explain=maybe')), 'WRONG_PARAMETER');
});

t.test('replay: the live scenario replayed gives the live hit rate; a worse candidate scores lower', async (t) => {
  t.equal((await api.put('scenarios/item_to_items/replay-live/', { scenario_type: 'case', case: { amt: 5 } }, { token })).status, 200);
  const users = [40, 41, 42, 43, 44, 45, 46, 47, 48, 49].map(uid);
  for (const [k, user] of users.entries()) {
    const a = ok(await itemReco(3, `scenario=replay-live&user_id=${user}`), 'live');
    t.equal((await interact(user, a.items_id[k % 5], 'click', { recommendation_id: a.recommendation_id })).status, 200);
  }
  await until(
    'live answers recorded',
    () => results('group_by=scenario'),
    (r) => Number(group(r, 'scenario', 'replay-live')?.answers ?? 0) >= users.length,
  );
  const replay = async (body: Record<string, unknown>) => {
    const started = await api.post(
      'analytics/replay/',
      { reco_type: 'item_to_items', k: 5, interaction_types: ['click'], ...body },
      { token },
    );
    const id = ok(started, 'replay').task_id as string;
    return until(
      'replayed',
      async () => ok(await api.get(`analytics/replay/${id}/`, { token }), 'replay read'),
      (b) => b.status === 'COMPLETED' || b.status === 'FAILED',
    );
  };
  const same = await replay({ scenario: 'replay-live' });
  t.equal(same.status, 'COMPLETED', same.error ?? '');
  t.equal(same.result.answers_replayed, users.length);
  t.equal(same.result.live.hit_rate, 1, 'every user clicked an item shown');
  t.strictSame(same.result.candidate_result, same.result.live, 'the same scenario: the same hit rate and NDCG');
  const worse = await replay({ case: { filters: ['genre:eq:b'] } });
  t.equal(worse.result.candidate_result.hit_rate, 0, 'item 3 is of genre a, and so are the items clicked');
  t.ok(worse.result.live.ndcg > worse.result.candidate_result.ndcg);
  const listed = ok(await api.get('tasks/analytics_replay/recents/', { token }), 'recents');
  t.ok(listed.tasks.length >= 2, 'replays are tasks');
  t.equal((await api.post('analytics/replay/', { reco_type: 'item_to_items', scenario: 'nothere' }, { token })).status, 404);
  t.equal(
    bad(await api.post('analytics/replay/', { reco_type: 'item_to_items', scenario: 'replay-live', case: {} }, { token })),
    'WRONG_PARAMETER',
  );
  t.equal((await api.get('analytics/replay/nothere/', { token })).status, 404);
});

t.test('impressions are kept by count, and by age', async (t) => {
  const sent = MOST + 300;
  for (let k = 0; k < sent; k += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => itemReco(1 + ((k + j) % 40))));
  // Counted answers are never trimmed: once they are all counted, all are recorded.
  await until(
    'all recorded',
    () => results('group_by=reco_type'),
    (r) => Number(group(r, 'reco_type', 'item_to_items')?.answers ?? 0) >= sent,
  );
  const held = Number(await redis.get(keys.impressionCount(db)));
  t.ok(held <= MOST && held > MOST - BATCH_ANSWERS, `${held} answers held: the oldest batches went`);
  t.equal(await redis.zcard(keys.impressionOrder(db)), await redis.hlen(keys.impressionBatches(db)), 'order and batches agree');
  // A batch recorded eight days on leaves none of today's (kept seven days by default).
  const store = new OutcomesStore(redis);
  const later = Date.now() + 8 * 86_400_000;
  const limits = { keepMs: 7 * 86_400_000, most: MOST, windowMs: 3_600_000, countersMs: 400 * 86_400_000 };
  const empty = Buffer.from([0xdd, 0, 0, 0, 0]);
  const noWork = Buffer.from([0xdd, 0, 0, 0, 3, 0xdd, 0, 0, 0, 0, 0xdd, 0, 0, 0, 0, 0xdd, 0, 0, 0, 0]);
  t.ok(await store.record(db, 'later', empty, 0, noWork, later, limits));
  t.strictSame(await redis.zrange(keys.impressionOrder(db), '0', '-1'), ['later 0'], 'only the later batch is left');
  t.equal(Number(await redis.get(keys.impressionCount(db))), 0);
});
