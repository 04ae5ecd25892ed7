// Scenarios applied by recommendation requests (spec, scenario rules 1–6) against the planted model
// of helpers/reco.ts (items 1..20 genre a, 21..40 genre b, price = id): priority of runtime
// parameters, runtime scenario and default scenario; exclude_rated_items first-set-wins;
// skip_default_scenario; condition (n_ratings, item_property), alias and ab_test walks with
// evaluated_scenarios on the generic endpoint; A/B groups deterministic, shared across endpoints
// and split as probability_a says over 10,000 users; user_property filter values;
// exclude_items_with_interaction_types. One recd process on a private Redis, real HTTP.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { hasWarning, range, uid, why } from '../helpers/feedback.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { isA, isB, itemsOf, likedBy, qs, RECO_ENV, trainedDatabase, until, type Q } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { token } = await trainedDatabase(api, root);

const itemReco = (item: number, q: Q = {}) => api.get(`recommendation/items/${item}/items/`, { token, query: qs(q) });
const userReco = (user: string, q: Q = {}) => api.get(`recommendation/users/${user}/items/`, { token, query: qs(q) });
const sessionReco = (body: Record<string, unknown>) => api.post('recommendation/sessions/items/', body, { token });
const generic = (body: Record<string, unknown>) => api.post('recommendation/generic/items/', body, { token });
const put = async (type: string, name: string, scenario: Record<string, unknown>) => {
  const r = await api.put(`scenarios/${type}/${name}/`, scenario, { token });
  if (r.status !== 200) throw new Error(`scenario ${type}/${name}: ${r.status} ${r.text}`);
};
const aCase = (c: Record<string, unknown>) => ({ scenario_type: 'case', case: c });
const setDefault = async (type: string, name: string) => {
  const r = await api.patch(`scenarios-default/${type}/`, { name }, { token });
  if (r.status !== 204) throw new Error(`default ${type}: ${r.status} ${r.text}`);
};
const unsetDefault = (type: string) => api.delete(`scenarios-default/${type}/`, undefined, { token });
const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

t.test('priority: runtime filters, runtime scenario and default scenario all apply; amt and skip_default_scenario', async (t) => {
  await put('item_to_items', 'cheap', aCase({ filters: [{ property_name: 'price', op: 'lte', value: 30 }] }));
  await put('item_to_items', 'only-b', aCase({ filters: ['genre:eq:b'], amt: 3 }));
  await setDefault('item_to_items', 'cheap');
  t.teardown(() => unsetDefault('item_to_items'));

  const byDefault = itemsOf(t, await itemReco(1, { amt: 64 }), 'default only', 64);
  t.strictSame(sorted(byDefault), range(2, 31), 'the default scenario keeps items priced ≤ 30');
  const both = itemsOf(t, await itemReco(1, { scenario: 'only-b', amt: 64 }), 'runtime scenario and default', 64);
  t.strictSame(sorted(both), range(21, 31), "the runtime scenario's filters and the default's, together");
  const all3 = itemsOf(t, await itemReco(1, { scenario: 'only-b', filters: 'price:gte:25', amt: 64 }), 'runtime parameters too', 64);
  t.strictSame(sorted(all3), range(25, 31), 'runtime filters, runtime scenario, default scenario');

  const three = itemsOf(t, await itemReco(1, { scenario: 'only-b' }), 'case amt', 3);
  t.equal(three.length, 3, "without amt the runtime scenario's case.amt (3) applies");
  t.equal(itemsOf(t, await itemReco(1, { scenario: 'only-b', amt: 6 }), 'runtime amt', 6).length, 6, 'a runtime amt wins');
  t.equal(itemsOf(t, await itemReco(1), 'default amt').length, 10, 'a default without amt leaves the default 10');

  const skipped = itemsOf(t, await itemReco(1, { skip_default_scenario: true, amt: 64 }), 'skip', 64);
  t.equal(skipped.length, 39, 'skip_default_scenario: every other item again');
  const skippedOwn = itemsOf(
    t,
    await itemReco(1, { scenario: 'only-b', skip_default_scenario: true, amt: 64 }),
    'skip with a runtime scenario',
    64,
  );
  t.strictSame(sorted(skippedOwn), range(21, 41), 'only the runtime scenario applies');
});

t.test('the same runtime filters, asked again, follow every change of the default scenario', async (t) => {
  // Without amt a request's plan is kept with its filters' text: each scenario change must show.
  const asked = async (what: string) => sorted(itemsOf(t, await itemReco(1, { filters: 'price:gte:33' }), what));
  t.strictSame(await asked('no default'), range(33, 41), 'the runtime filter alone');
  await put('item_to_items', 'upto', aCase({ filters: ['price:lte:35'] }));
  await setDefault('item_to_items', 'upto');
  t.teardown(() => unsetDefault('item_to_items'));
  t.strictSame(await asked('a default'), range(33, 36), "the default's filter joins at once");
  await put('item_to_items', 'upto', aCase({ filters: ['price:lte:34'] }));
  t.strictSame(await asked('the default changed'), range(33, 35), 'a changed default applies at once');
  t.equal((await unsetDefault('item_to_items')).status, 204);
  t.strictSame(await asked('no default again'), range(33, 41), 'and the runtime filter alone again');
});

t.test('the default scenario named at run time is applied once; evaluated_scenarios lists the walk', async (t) => {
  await put('item_to_items', 'dramas-first', aCase({ reranking: ['genre:diversity:1'] }));
  await put('item_to_items', 'alias-of-b', { scenario_type: 'alias', alias: { scenario_name: 'only-b' } });
  await setDefault('item_to_items', 'only-b');
  t.teardown(() => unsetDefault('item_to_items'));
  const same = await generic({ item_id: 1, scenario: 'only-b' });
  itemsOf(t, same, 'runtime = default', 3, ['reco_type', 'evaluated_scenarios']);
  t.strictSame(same.body.evaluated_scenarios, ['only-b'], 'walked once');
  const aliased = await generic({ item_id: 1, scenario: 'alias-of-b' });
  t.ok(itemsOf(t, aliased, 'alias', 3, ['reco_type', 'evaluated_scenarios']).every(isB), 'the alias forwards to only-b');
  t.strictSame(aliased.body.evaluated_scenarios, ['alias-of-b', 'only-b'], 'the default (only-b) was walked already: not again');
  const two = await generic({ item_id: 1, scenario: 'dramas-first' });
  t.strictSame(two.body.evaluated_scenarios, ['dramas-first', 'only-b'], 'runtime walk, then the default');
  const none = await generic({ item_id: 1, skip_default_scenario: true });
  t.strictSame(none.body.evaluated_scenarios, [], 'nothing walked');
  t.equal(itemsOf(t, await itemReco(1, { scenario: 'alias-of-b' }), 'plain endpoint', 3).length, 3);
  t.notOk('evaluated_scenarios' in (await itemReco(1, { scenario: 'alias-of-b' })).body, 'only the generic endpoint explains');
});

t.test('exclude_rated_items: runtime parameter, then runtime scenario, then default, else false', async (t) => {
  const user = uid(0);
  const rated = likedBy(0);
  await put('profile_to_items', 'keep-rated', aCase({ exclude_rated_items: false, amt: 20 }));
  await put('profile_to_items', 'drop-rated', aCase({ exclude_rated_items: true, amt: 20 }));
  await put('profile_to_items', 'says-nothing', aCase({ amt: 20 }));
  const hasRated = async (q: Q) => itemsOf(t, await userReco(user, q), JSON.stringify(q), 20).some((i) => rated.includes(i));
  t.ok(await hasRated({ amt: 20 }), 'no scenario: rated items are recommended (default false)');
  await setDefault('profile_to_items', 'drop-rated');
  t.teardown(() => unsetDefault('profile_to_items'));
  t.notOk(await hasRated({}), 'the default scenario sets it');
  t.ok(await hasRated({ scenario: 'keep-rated' }), 'the runtime scenario wins over the default');
  t.notOk(await hasRated({ scenario: 'says-nothing' }), 'a runtime scenario that does not set it leaves it to the default');
  t.ok(await hasRated({ exclude_rated_items: false }), 'the runtime parameter wins over the default');
  t.notOk(await hasRated({ scenario: 'keep-rated', exclude_rated_items: true }), 'the runtime parameter wins over the runtime scenario');
});

t.test('condition user_function n_ratings: per user and per session', async (t) => {
  await put('profile_to_items', 'a-only', aCase({ filters: ['genre:eq:a'] }));
  await put('profile_to_items', 'b-only', aCase({ filters: ['genre:eq:b'] }));
  await put('profile_to_items', 'by-ratings', {
    scenario_type: 'condition',
    condition: { condition_type: 'USER_FUNCTION', if: { function_name: 'n_ratings', op: 'gte', value: 5 }, then: 'b-only', else: 'a-only' },
  });
  t.equal((await api.put(`users/${uid(100)}/ratings/30/`, { rating: 8 }, { token })).status, 204, 'a user with one rating');
  t.ok(itemsOf(t, await userReco(uid(3), { scenario: 'by-ratings' }), 'ten ratings').every(isB), 'a user with 10 ratings gets then (B)');
  t.ok(itemsOf(t, await userReco(uid(100), { scenario: 'by-ratings' }), 'one rating').every(isA), 'a user with 1 rating gets else (A)');
  const g = await generic({ user_id: uid(100), scenario: 'by-ratings' });
  t.strictSame(g.body.evaluated_scenarios, ['by-ratings', 'a-only'], 'evaluated_scenarios shows the branch taken');

  // Where no profile is at hand (item to items with user_id), the count is read from the store.
  await put('item_to_items', 'a-only', aCase({ filters: ['genre:eq:a'] }));
  await put('item_to_items', 'b-only', aCase({ filters: ['genre:eq:b'] }));
  await put('item_to_items', 'by-ratings', {
    scenario_type: 'condition',
    condition: { condition_type: 'user_function', if: { function_name: 'n_ratings', op: 'gte', value: 5 }, then: 'b-only', else: 'a-only' },
  });
  t.ok(
    itemsOf(t, await itemReco(1, { scenario: 'by-ratings', user_id: uid(3) }), 'item, ten ratings').every(isB),
    'user_id with 10 ratings: then (B)',
  );
  t.ok(
    itemsOf(t, await itemReco(1, { scenario: 'by-ratings', user_id: uid(100) }), 'item, one rating').every(isA),
    'user_id with 1 rating: else (A)',
  );
  t.ok(
    itemsOf(t, await itemReco(1, { scenario: 'by-ratings', user_id: uid(101) }), 'item, unknown user').every(isA),
    'a user_id without ratings counts 0: else (A)',
  );

  await put('session_to_items', 'a-only', aCase({ filters: ['genre:eq:a'] }));
  await put('session_to_items', 'b-only', aCase({ filters: ['genre:eq:b'] }));
  await put('session_to_items', 'by-ratings', {
    scenario_type: 'condition',
    condition: { condition_type: 'user_function', if: { function_name: 'n_ratings', op: 'lt', value: 2 }, then: 'a-only', else: 'b-only' },
  });
  const one = await sessionReco({ ratings: [{ item_id: 25, rating: 9 }], scenario: 'by-ratings' });
  t.ok(itemsOf(t, one, 'session of 1').every(isA), 'a session with one rating: then (A)');
  const two = await sessionReco({
    ratings: [
      { item_id: 25, rating: 9 },
      { item_id: 26, rating: 9 },
    ],
    scenario: 'by-ratings',
  });
  t.ok(itemsOf(t, two, 'session of 2').every(isB), 'a session with two ratings: else (B)');
  t.equal(
    errorOf(
      await api.put(
        'scenarios/profile_to_items/bad-op/',
        {
          scenario_type: 'condition',
          condition: {
            condition_type: 'user_function',
            if: { function_name: 'n_ratings', op: 'like', value: 5 },
            then: 'a-only',
            else: 'b-only',
          },
        },
        { token },
      ),
    )?.name,
    'WRONG_PARAMETER',
    'an unknown op is refused',
  );
});

t.test('condition item_property: evaluated on the query item', async (t) => {
  await put('item_to_items', 'low', aCase({ filters: ['price:lte:5'] }));
  await put('item_to_items', 'high', aCase({ filters: ['price:gte:36'] }));
  await put('item_to_items', 'by-genre', {
    scenario_type: 'condition',
    condition: { condition_type: 'item_property', if: { property_name: 'genre', op: 'eq', value: 'a' }, then: 'low', else: 'high' },
  });
  const forA = itemsOf(t, await itemReco(10, { scenario: 'by-genre', amt: 64 }), 'A item', 64);
  t.strictSame(sorted(forA), range(1, 6), 'an A item takes then: prices ≤ 5');
  const forB = itemsOf(t, await itemReco(30, { scenario: 'by-genre', amt: 64 }), 'B item', 64);
  t.strictSame(sorted(forB), range(36, 41), 'a B item takes else: prices ≥ 36');
  await put('profile_to_items', 'low', aCase({ filters: ['price:lte:5'] }));
  await put('profile_to_items', 'high', aCase({ filters: ['price:gte:36'] }));
  await put('profile_to_items', 'by-genre', {
    scenario_type: 'condition',
    condition: { condition_type: 'item_property', if: { property_name: 'genre', op: 'eq', value: 'a' }, then: 'low', else: 'high' },
  });
  t.ok(
    itemsOf(t, await userReco(uid(1), { scenario: 'by-genre' }), 'no query item').every((i) => i >= 36),
    'without a query item: else',
  );
});

t.test('ab_test: deterministic per user, the same group across endpoints, split ≈ probability_a over 10,000 users', async (t) => {
  const created = await api.post('ab-tests/params/', { name: 'colour test', probability_a: 0.3 }, { token });
  t.equal(created.status, 200, why(created, 200));
  const id: string = created.body.id;
  for (const type of ['item_to_items', 'profile_to_items']) {
    await put(type, 'group-a', aCase({ filters: ['genre:eq:a'] }));
    await put(type, 'group-b', aCase({ filters: ['genre:eq:b'] }));
    await put(type, 'split', { scenario_type: 'ab_test', ab_test: { id, scenario_a: 'group-a', scenario_b: 'group-b' } });
  }
  const groupOf = async (user: string) => {
    const r = await generic({ item_id: 1, user_id: user, scenario: 'split' });
    if (r.status !== 200) throw new Error(why(r, 200));
    return r.body.evaluated_scenarios[1] as string;
  };
  // Users 0..59 exist and have ratings: their group on item-to-items is their group on user-to-items.
  for (const u of range(0, 12)) {
    const group = await groupOf(uid(u));
    t.equal(await groupOf(uid(u)), group, `${uid(u)}: the same group again`);
    const ids = itemsOf(t, await userReco(uid(u), { scenario: 'split' }), `user ${u}`);
    t.ok(ids.every(group === 'group-a' ? isA : isB), `${uid(u)}: ${group} on user-to-items too`);
  }
  const n = 10_000;
  let inA = 0;
  for (let from = 0; from < n; from += 200) {
    const groups = await Promise.all(range(from, from + 200).map((k) => groupOf(uid(1000 + k))));
    inA += groups.filter((g) => g === 'group-a').length;
  }
  t.ok(Math.abs(inA / n - 0.3) <= 0.02, `${inA} of ${n} in group A (probability_a 0.3)`);
  const anonymous = await generic({ item_id: 1, scenario: 'split' });
  t.strictSame(anonymous.body.evaluated_scenarios, ['split', 'group-a'], 'no user: group A');
});

t.test('user_property filter values: the user’s value at request time; without one the filter is left out', async (t) => {
  await put(
    'profile_to_items',
    'affordable',
    aCase({ filters: [{ property_name: 'price', op: 'lte', value: { type: 'user_property', value: 'age' } }], exclude_rated_items: false }),
  );
  t.equal((await api.put(`users/${uid(40)}/properties/`, { user: { age: 24 } }, { token })).status, 200, 'age 24');
  const ids = itemsOf(t, await userReco(uid(40), { scenario: 'affordable', amt: 64 }), 'age 24', 64);
  t.strictSame(sorted(ids), range(1, 25), 'items priced ≤ 24');
  t.equal((await api.put(`users/${uid(40)}/properties/`, { user: { age: 3 } }, { token })).status, 200, 'age 3');
  const after = await until(
    'the new age applies',
    async () => itemsOf(t, await userReco(uid(40), { scenario: 'affordable', amt: 64 }), 'age 3', 64),
    (x) => x.length === 3,
  );
  t.strictSame(sorted(after), [1, 2, 3], 'read at request time');
  const none = await userReco(uid(41), { scenario: 'affordable', amt: 64 });
  t.equal(itemsOf(t, none, 'no age', 64).length, 40, 'no age: the filter is left out');
  t.ok(hasWarning(none, 'left out', 'age'), JSON.stringify(none.body.warnings));
  await put(
    'session_to_items',
    'affordable',
    aCase({ filters: [{ property_name: 'price', op: 'lte', value: { type: 'user_property', value: 'age' } }] }),
  );
  const session = itemsOf(
    t,
    await sessionReco({ ratings: [{ item_id: 2, rating: 9 }], user_properties: { age: 4 }, scenario: 'affordable', amt: 64 }),
    'session',
    64,
  );
  t.strictSame(sorted(session), [1, 2, 3, 4], "a session's own user properties");
  const bad = await api.put(
    'scenarios/profile_to_items/bad-ref/',
    aCase({ filters: [{ property_name: 'price', op: 'lte', value: { type: 'item_property', value: 'x' } }] }),
    { token },
  );
  t.equal(errorOf(bad)?.name, 'WRONG_DATA_TYPE', 'an object value must name a user property');
});

t.test('exclude_items_with_interaction_types: items the user interacted with in those types are left out', async (t) => {
  const user = uid(35); // rates B items
  const top = itemsOf(t, await userReco(user, { amt: 5 }), 'plain', 5);
  t.equal((await api.post(`users/${user}/interactions/${top[0]}/`, { interaction_type: 'purchase' }, { token })).status, 200, 'a purchase');
  t.equal((await api.post(`users/${user}/interactions/${top[1]}/`, { interaction_type: 'view' }, { token })).status, 200, 'a view');
  await put('profile_to_items', 'not-bought', aCase({ exclude_items_with_interaction_types: ['PURCHASE'], amt: 64 }));
  const ids = await until(
    'the purchase is read',
    async () => itemsOf(t, await userReco(user, { scenario: 'not-bought' }), 'not bought', 64),
    (x) => !x.includes(top[0]!),
  );
  t.notOk(ids.includes(top[0]!), `the purchased item ${top[0]} is left out`);
  t.ok(ids.includes(top[1]!), `the viewed item ${top[1]} stays`);
  await put('session_to_items', 'not-bought', aCase({ exclude_items_with_interaction_types: ['purchase'], amt: 64 }));
  const s = itemsOf(
    t,
    await sessionReco({
      interactions: [
        { item_id: 22, interaction_type: 'purchase' },
        { item_id: 23, interaction_type: 'view' },
      ],
      scenario: 'not-bought',
    }),
    'session',
    64,
  );
  t.notOk(s.includes(22), 'the session’s purchase is left out');
  t.ok(s.includes(23), 'its view stays');
});

t.test('a scenario change applies to the next request', async (t) => {
  await put('item_to_items', 'moving', aCase({ filters: ['genre:eq:a'] }));
  t.ok(itemsOf(t, await itemReco(30, { scenario: 'moving' }), 'before').every(isA));
  await put('item_to_items', 'moving', aCase({ filters: ['genre:eq:b'] }));
  t.ok(itemsOf(t, await itemReco(30, { scenario: 'moving' }), 'after').every(isB), 'the replaced case applies at once');
  await setDefault('item_to_items', 'moving');
  t.ok(itemsOf(t, await itemReco(1), 'new default').every(isB), 'a new default applies at once');
  t.equal((await unsetDefault('item_to_items')).status, 204);
  t.ok(itemsOf(t, await itemReco(1), 'no default').some(isA), 'and its removal');
});
