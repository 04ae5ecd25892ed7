// Scenario resources: records of every type with the spec's fields and limits, the reference graph
// kept a DAG of one reco_type (unknown references, self-references and longer cycles refused),
// deleting what is referred to or is a default refused, ab_test scenarios not updatable, defaults
// per reco_type, A/B test parameters, and item properties a scenario uses kept from deletion.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { freshDatabase } from '../helpers/feedback.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const s = await startStack();
t.teardown(() => s.close());
const api = s.api;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root);
await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token });
await api.post('items-properties/', { property_name: 'price', value_type: 'float32' }, { token });

const put = (type: string, name: string, body: unknown) => api.put(`scenarios/${type}/${name}/`, body, { token });
const get = (type: string, name: string) => api.get(`scenarios/${type}/${name}/`, { token });
const del = (type: string, name: string) => api.delete(`scenarios/${type}/${name}/`, undefined, { token });
const aCase = (extra: Record<string, unknown> = {}) => ({
  scenario_type: 'case',
  case: { filters: ['genre:eq:drama'], reranking: ['genre:diversity:1'], exclude_rated_items: true, amt: 10, ...extra },
});
const alias = (to: string) => ({ scenario_type: 'alias', alias: { scenario_name: to } });
const WRONG = { status: 400, code: 40, errorName: 'WrongData' };

t.test('a case scenario: stored and read back, listed, replaced', async (t) => {
  t.equal((await put('item_to_items', 'dramas', { ...aCase(), metadata: { owner: 'team' } })).status, 200);
  const r = await get('item_to_items', 'dramas');
  t.equal(r.status, 200);
  t.same(r.body.name, 'dramas');
  t.same(r.body.reco_type, 'item_to_items');
  t.same(
    r.body.scenario,
    { scenario_type: 'case', metadata: { owner: 'team' }, case: aCase().case, condition: null, alias: null, ab_test: null },
    'only the matching object is set',
  );
  t.same(r.body.warnings, []);
  t.equal((await put('item_to_items', 'dramas', aCase({ amt: 5 }))).status, 200, 'replaced');
  t.equal((await get('item_to_items', 'dramas')).body.scenario.case.amt, 5);
  t.same(
    errorOf(await get('profile_to_items', 'dramas')),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'SCENARIO_NOT_FOUND' },
    'names live per reco_type',
  );
  const list = await api.get('scenarios/', { token });
  t.ok(list.body.scenarios.some((x: { name: string; reco_type: string }) => x.name === 'dramas' && x.reco_type === 'item_to_items'));
});

t.test('fields and limits', async (t) => {
  const bad: [string, unknown][] = [
    ['an unknown scenario_type', { scenario_type: 'magic' }],
    ['the type’s object missing', { scenario_type: 'case' }],
    ['another type’s object set', { ...aCase(), alias: { scenario_name: 'dramas' } }],
    ['amt over 64', aCase({ amt: 65 })],
    ['amt below 0', aCase({ amt: -1 })],
    ['11 filters', aCase({ filters: Array.from({ length: 11 }, () => 'genre:eq:drama') })],
    ['51 interaction types', aCase({ exclude_items_with_interaction_types: Array.from({ length: 51 }, (_, i) => `t${i}`) })],
    [
      'a condition type that does not exist',
      { scenario_type: 'condition', condition: { condition_type: 'weather', if: {}, then: 'dramas', else: 'dramas' } },
    ],
    [
      'a user function that is not implemented',
      {
        scenario_type: 'condition',
        condition: { condition_type: 'user_function', if: { function_name: 'age', op: 'gt', value: 3 }, then: 'dramas', else: 'dramas' },
      },
    ],
    ['an A/B test that does not exist', { scenario_type: 'ab_test', ab_test: { id: 'nope', scenario_a: 'dramas', scenario_b: 'dramas' } }],
  ];
  for (const [what, body] of bad) t.match(errorOf(await put('item_to_items', 'bad', body)), WRONG, what);
  t.match(errorOf(await put('item_to_items', 'x'.repeat(65), aCase())), WRONG, 'a name over 64 characters');
  t.match(errorOf(await put('not_a_type', 'fine', aCase())), { ...WRONG, name: 'WRONG_PARAMETER' }, 'an unknown reco_type');
  t.equal(
    (await put('item_to_items', 'y'.repeat(64), aCase({ amt: 0, filters: Array.from({ length: 10 }, () => 'genre:eq:drama') }))).status,
    200,
    '64 characters, amt 0 and 10 filters are fine',
  );
  t.equal(
    (
      await put('item_to_items', 'cond', {
        scenario_type: 'condition',
        condition: {
          condition_type: 'USER_FUNCTION',
          if: { function_name: 'n_ratings', op: 'gt', value: 3 },
          then: 'dramas',
          else: 'dramas',
        },
      })
    ).status,
    200,
    'condition type case-insensitive',
  );
  t.equal((await get('item_to_items', 'cond')).body.scenario.condition.condition_type, 'user_function');
  t.same(
    errorOf(await get('item_to_items', 'bad')),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'SCENARIO_NOT_FOUND' },
    'nothing stored by a refused PUT',
  );
});

t.test('the reference graph stays a DAG within one reco_type', async (t) => {
  t.match(errorOf(await put('item_to_items', 'ghost', alias('nobody'))), { ...WRONG, name: 'WRONG_PARAMETER' }, 'an unknown reference');
  t.equal((await put('profile_to_items', 'other-type', aCase())).status, 200);
  t.match(errorOf(await put('item_to_items', 'across', alias('other-type'))), WRONG, 'a reference to another reco_type');
  t.match(errorOf(await put('item_to_items', 'self', alias('self'))), WRONG, 'a self-reference');
  t.equal((await put('item_to_items', 'a1', alias('dramas'))).status, 200);
  t.equal((await put('item_to_items', 'a2', alias('a1'))).status, 200);
  t.equal((await put('item_to_items', 'a3', alias('a2'))).status, 200);
  const closing = await put('item_to_items', 'a1', alias('a3'));
  t.match(errorOf(closing), WRONG, 'a1 → a3 → a2 → a1 is a cycle');
  t.match(closing.body.message, /a1 → a3 → a2 → a1/, 'the message shows the cycle');
  t.equal((await get('item_to_items', 'a1')).body.scenario.alias.scenario_name, 'dramas', 'a1 unchanged');
  const condCycle = await put('item_to_items', 'dramas', {
    scenario_type: 'condition',
    condition: { condition_type: 'user_function', if: { function_name: 'n_ratings', op: 'gt', value: 0 }, then: 'a3', else: 'cond' },
  });
  t.match(errorOf(condCycle), WRONG, 'a condition closing a longer cycle (dramas → a3 → a2 → a1 → dramas)');
});

t.test('deleting: unknown, referred to, a default', async (t) => {
  t.same(errorOf(await del('item_to_items', 'nobody')), { status: 404, code: 60, errorName: 'NotFoundError', name: 'SCENARIO_NOT_FOUND' });
  t.same(errorOf(await del('item_to_items', 'a2')), { ...WRONG, name: 'SCENARIO_IN_USE' }, 'a3 refers to a2');
  t.equal((await del('item_to_items', 'a3')).status, 204);
  t.equal((await del('item_to_items', 'a2')).status, 204, 'free once a3 is gone');
  t.equal((await api.patch('scenarios-default/item_to_items/', { name: 'a1' }, { token })).status, 204);
  t.same(errorOf(await del('item_to_items', 'a1')), { ...WRONG, name: 'SCENARIO_IN_USE' }, 'the default of its reco_type');
});

t.test('default scenarios per reco_type', async (t) => {
  t.same((await api.get('scenarios-default/item_to_items/', { token })).body.name, 'a1');
  t.same(
    errorOf(await api.get('scenarios-default/session_to_items/', { token })),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'SCENARIO_NOT_FOUND' },
    'none set',
  );
  t.same(
    errorOf(await api.patch('scenarios-default/session_to_items/', { name: 'dramas' }, { token })),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'SCENARIO_NOT_FOUND' },
    'dramas is not a session_to_items scenario',
  );
  t.equal((await api.delete('scenarios-default/item_to_items/', undefined, { token })).status, 204);
  t.equal((await api.get('scenarios-default/item_to_items/', { token })).status, 404, 'unset');
  t.equal((await api.delete('scenarios-default/item_to_items/', undefined, { token })).status, 204, 'unsetting twice is fine');
  t.match(errorOf(await api.get('scenarios-default/nope/', { token })), WRONG);
});

t.test('A/B tests: parameters, then an ab_test scenario that cannot be updated', async (t) => {
  for (const p of [-0.1, 1.5, 'half'])
    t.match(errorOf(await api.post('ab-tests/params/', { name: 'bad', probability_a: p }, { token })), WRONG, `probability_a ${p}`);
  const created = await api.post('ab-tests/params/', { name: 'layout', probability_a: 0.3 }, { token });
  t.equal(created.status, 200);
  t.type(created.body.id, 'string');
  const ab = { scenario_type: 'ab_test', ab_test: { id: created.body.id, scenario_a: 'dramas', scenario_b: 'cond' } };
  t.equal((await put('item_to_items', 'split', ab)).status, 200);
  t.match(errorOf(await put('item_to_items', 'split', ab)), { ...WRONG, name: 'WRONG_PARAMETER' }, 'an ab_test scenario cannot be updated');
  t.same(errorOf(await del('item_to_items', 'cond')), { ...WRONG, name: 'SCENARIO_IN_USE' }, 'referred to by the A/B test');
  t.equal((await del('item_to_items', 'split')).status, 204, 'but it can be deleted');
});

t.test('an item property a scenario uses cannot be deleted', async (t) => {
  t.equal(
    (await put('item_to_items', 'cheap', aCase({ filters: [{ property_name: 'price', op: 'lt', value: 10 }], reranking: [] }))).status,
    200,
  );
  t.same(errorOf(await api.delete('items-properties/price/', undefined, { token })), { ...WRONG, name: 'ITEM_PROPERTY_FOUND_IN_SCENARIO' });
  t.same(
    errorOf(await api.delete('items-properties/genre/', undefined, { token })),
    { ...WRONG, name: 'ITEM_PROPERTY_FOUND_IN_SCENARIO' },
    'used in string filters and reranking',
  );
  t.equal((await del('item_to_items', 'cheap')).status, 204);
  t.equal((await api.delete('items-properties/price/', undefined, { token })).status, 204, 'free once no scenario uses it');
});

t.test('roles: frontends may not manage scenarios', async (t) => {
  const { frontendToken } = await import('../helpers/fixtures.js');
  const db = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { db: string }).db;
  const front = await frontendToken(api, root, db);
  t.equal((await api.get('scenarios/', { token: front })).status, 403);
  t.equal((await api.put('scenarios/item_to_items/z/', aCase(), { token: front })).status, 403);
});
