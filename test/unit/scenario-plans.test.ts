// Scenario plans: the order lists are concatenated in, first-set-wins values, walks through alias,
// condition and ab_test (synchronous when the facts are, waiting when one is read), A/B groups.
import t from 'tap';
import { inGroupA, merge, planOf, walk, type Facts, type ScenarioGraph, type Walked } from '../../src/services/scenarios/scenario-walk.js';
import type { ScenarioRecord } from '../../src/store/scenarios-store.js';

const record = (name: string, scenario: Record<string, unknown>): [string, ScenarioRecord] => [
  `item_to_items/${name}`,
  { name, reco_type: 'item_to_items', scenario },
];
const aCase = (c: Record<string, unknown>) => ({ scenario_type: 'case', case: c });

const set: ScenarioGraph = {
  scenarios: new Map([
    record('run', aCase({ filters: ['run-f'], reranking: ['run-r'], exclude_rated_items: false, amt: 0 })),
    record(
      'def',
      aCase({
        filters: ['def-f'],
        reranking: ['def-r'],
        exclude_rated_items: true,
        amt: 7,
        exclude_items_with_interaction_types: ['purchase'],
      }),
    ),
    record('to-run', { scenario_type: 'alias', alias: { scenario_name: 'run' } }),
    record('cond', {
      scenario_type: 'condition',
      condition: { condition_type: 'user_function', if: { function_name: 'n_ratings', op: 'GT', value: 3 }, then: 'run', else: 'def' },
    }),
    record('prop', {
      scenario_type: 'condition',
      condition: { condition_type: 'item_property', if: { property_name: 'genre', op: 'eq', value: 'a' }, then: 'run', else: 'def' },
    }),
    record('ab', { scenario_type: 'ab_test', ab_test: { id: 't1', scenario_a: 'run', scenario_b: 'def' } }),
  ]),
  defaults: new Map([['item_to_items', 'def']]),
  abTests: new Map([['t1', { name: 'test', probability_a: 0.5 }]]),
};
const facts = (over: Partial<Facts> = {}): Facts => ({ abUser: () => undefined, nRatings: () => 0, itemHolds: () => false, ...over });

t.test('lists: runtime parameters, then runtime case, then default case; single values first-set-wins', async (t) => {
  const p = planOf(set, 'item_to_items', { scenario: 'run', filters: ['rt-f'], reranking: ['rt-r'] }, facts());
  t.notOk(p instanceof Promise, 'synchronous');
  const plan = p as Exclude<typeof p, Promise<unknown>>;
  t.strictSame(plan.filters, ['rt-f', 'run-f', 'def-f']);
  t.strictSame(plan.reranking, ['rt-r', 'run-r', 'def-r']);
  t.equal(plan.excludeRated, false, 'the runtime case sets false before the default sets true');
  t.equal(plan.amt, 7, 'amt 0 in a case sets nothing: the default case says 7');
  t.strictSame(plan.excludeTypes, ['purchase']);
  t.strictSame(plan.evaluated, ['run', 'def']);
  const runtimeWins = merge(
    { excludeRated: true, amt: 2 },
    { path: ['run'], arms: [], rules: { exclude_rated_items: false, amt: 5 } },
    undefined,
  );
  t.equal(runtimeWins.excludeRated, true);
  t.equal(runtimeWins.amt, 2);
  const none = merge({}, undefined, undefined);
  t.equal(none.excludeRated, false, 'nobody sets it: false');
  t.equal(none.amt, undefined, 'nobody sets amt: the endpoint decides');
  t.strictSame([none.filters, none.reranking, none.evaluated], [[], [], []]);
});

t.test('the default is not applied twice, and skip_default_scenario skips it', async (t) => {
  const same = planOf(set, 'item_to_items', { scenario: 'def' }, facts()) as ReturnType<typeof merge>;
  t.strictSame(same.filters, ['def-f']);
  t.strictSame(same.evaluated, ['def']);
  const skipped = planOf(set, 'item_to_items', { scenario: 'run', skipDefault: true }, facts()) as ReturnType<typeof merge>;
  t.strictSame(skipped.filters, ['run-f']);
  t.strictSame(skipped.evaluated, ['run']);
  const alias = planOf(set, 'item_to_items', { scenario: 'to-run' }, facts()) as ReturnType<typeof merge>;
  t.strictSame(alias.evaluated, ['to-run', 'run', 'def'], 'an alias forwards');
});

t.test('conditions: n_ratings (case-insensitive op) and item_property; waiting for a fact that is read', async (t) => {
  t.strictSame((walk(set, 'item_to_items', 'cond', facts({ nRatings: () => 4 })) as { path: string[] }).path, ['cond', 'run']);
  t.strictSame((walk(set, 'item_to_items', 'cond', facts({ nRatings: () => 3 })) as { path: string[] }).path, ['cond', 'def']);
  const later = walk(set, 'item_to_items', 'cond', facts({ nRatings: () => Promise.resolve(10) }));
  t.ok(later instanceof Promise, 'a fact read later makes the walk wait');
  t.strictSame((await later).path, ['cond', 'run']);
  t.strictSame((walk(set, 'item_to_items', 'prop', facts({ itemHolds: (f) => f.value === 'a' })) as { path: string[] }).path, [
    'prop',
    'run',
  ]);
  t.strictSame((walk(set, 'item_to_items', 'prop', facts()) as { path: string[] }).path, ['prop', 'def']);
  const NOT_FOUND = { name: 'ApiError', data: { name: 'SCENARIO_NOT_FOUND' } } as { name: string };
  t.throws(() => walk(set, 'item_to_items', 'nobody', facts()), NOT_FOUND);
  t.throws(() => walk(set, 'profile_to_items', 'run', facts()), NOT_FOUND, 'names live per reco_type');
});

t.test('A/B groups: deterministic, split as probability_a says, independent across tests', async (t) => {
  const users = Array.from({ length: 10_000 }, (_, k) => `user-${k}`);
  for (const p of [0.1, 0.5, 0.8]) {
    const inA = users.filter((u) => inGroupA('test-1', u, p)).length;
    t.ok(Math.abs(inA / users.length - p) <= 0.02, `p=${p}: ${inA} in A`);
  }
  const first = users.map((u) => inGroupA('test-1', u, 0.5));
  t.strictSame(
    users.map((u) => inGroupA('test-1', u, 0.5)),
    first,
    'the same answer every time',
  );
  const both = users.filter((u) => inGroupA('test-1', u, 0.5) && inGroupA('test-2', u, 0.5)).length;
  t.ok(Math.abs(both / users.length - 0.25) <= 0.02, `two tests assign independently: ${both} in A of both`);
  t.ok(
    users.every((u) => !inGroupA('t', u, 0) && inGroupA('t', u, 1)),
    'probability 0 and 1',
  );
  const ab = (user: string | undefined) => (walk(set, 'item_to_items', 'ab', facts({ abUser: () => user })) as { path: string[] }).path[1];
  t.equal(ab(undefined), 'run', 'no user: group A');
  t.equal(ab('user-1'), inGroupA('t1', 'user-1', 0.5) ? 'run' : 'def');
  const arms = (user: string | undefined) => (walk(set, 'item_to_items', 'ab', facts({ abUser: () => user })) as Walked).arms;
  t.strictSame(arms(undefined), [{ test: 't1', arm: 'A' }], 'the walk names the test and the arm it chose');
  t.strictSame(arms('user-1'), [{ test: 't1', arm: inGroupA('t1', 'user-1', 0.5) ? 'A' : 'B' }]);
});
