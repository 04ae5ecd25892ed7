// Real answers against the API description: every route that answers a JSON body is called once
// (or more) on a real server, and each answer must have a documented status and match the schema
// the route row documents (the same schema openapi.json serves). The last test fails if a route
// with a documented body was never sampled here.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { Value } from '@sinclair/typebox/value';
import t from 'tap';
import type { CallOptions } from '../helpers/api.js';
import { createDatabase, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { uid } from '../helpers/feedback.js';
import { pause, RECO_ENV, settled, tasksOf, trainedDatabase, until, type Tt } from '../helpers/reco.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startStack } from '../helpers/stack.js';

// A parameter search on the first training (as training-search.test.ts runs it: its trials end well
// within the budget), so the trained models' answer carries one.
const stack = await startStack({ ...RECO_ENV, RECD_SEARCH_SECONDS: '120', RECD_SEARCH_TRIALS: '8' });
t.teardown(() => stack.close());
const { api } = stack;
const routes = stack.app.dispatcher.routes;
const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
const sampled = new Set<string>();

// o.path: the path to call when the route's has parameters.
type Sample = [method: string, path: string, o: CallOptions & { path?: string }];

// Each sample's answer against its route's documented response: its schema, or 204 for none.
// Returns the answers' bodies, for samples that need what an earlier one made.
async function checkAnswers(t: Tt, samples: Sample[]): Promise<any[]> {
  const bodies: any[] = [];
  for (const [method, path, o] of samples) {
    const key = `${method} ${path}`;
    const route = byKey.get(key);
    t.ok(route, `${key} is a route`);
    if (!route) continue;
    sampled.add(key);
    t.not(route.response, undefined, `${key} has a response schema`);
    const r = await api.call(method, o.path ?? (path === '/' ? '' : path), o);
    bodies.push(r.body);
    if (route.response === null) {
      t.equal(r.status, 204, `${key}: documented as 204 (${r.text.slice(0, 300)})`);
      continue;
    }
    t.ok((route.statuses ?? [200]).includes(r.status), `${key}: ${r.status} is documented (${r.text.slice(0, 300)})`);
    const errors = [...Value.Errors(route.response!, r.body)].slice(0, 3).map((e) => `${e.path} ${e.message}`);
    t.same(errors, [], `${key} matches its schema (${r.text.slice(0, 300)})`);
  }
  return bodies;
}

const root = await rootToken(api);
const now = Math.floor(Date.now() / 1000);
const { token, db } = await trainedDatabase(api, root);
const admin = await tokenFor(api, root, 'root', db);

t.test('accounts, login, organisation and databases', async (t) => {
  const service = unique('svc');
  const email = `${unique('ind')}@test.local`;
  const db = await createDatabase(api, root);
  const onDb = await tokenFor(api, root, 'root', db);
  const [, , , login] = await checkAnswers(t, [
    ['GET', '/', {}],
    ['GET', 'openapi.json', {}],
    ['POST', 'login/root/', { body: { email: ROOT_EMAIL, password: ROOT_PASSWORD } }],
    ['POST', 'login/individual/', { body: { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_id: db } }],
    ['POST', 'login/jwt/', { token: root }],
    ['POST', 'login/jwt/', { token: onDb }],
    ['POST', 'databases/', { token: root, body: { name: unique('db'), description: 'd', item_id_type: 'uint32', user_id_type: 'uuid' } }],
    ['GET', 'databases/', { token: root }],
    ['POST', 'accounts/individual/', { token: root, body: { email, role: 'manager', password: PASSWORD, metadata: { team: 'a' } } }],
    ['PATCH', 'accounts/individual/', { token: root, body: { email, first_name: 'Ada' } }],
    ['POST', 'accounts/service/', { token: root, body: { name: service, role: 'frontend' } }],
    ['GET', 'organizations/current/', { token: root }],
    ['PATCH', 'organizations/current/', { token: root, body: { metadata: { plan: { seats: 3 } } } }],
    ['PATCH', 'organizations/current/preview/', { token: root, body: { metadata: { plan: { seats: 4 } } } }],
    ['GET', 'databases/current/', { token: onDb }],
    ['GET', 'databases/current/status/', { token: onDb }],
    ['GET', 'databases/current/counts/', { token: onDb }],
    ['GET', 'databases/current/usage/', { token: onDb }],
    ['PATCH', 'databases/current/', { token: onDb, body: { description: 'changed', metadata: { a: [1] } } }],
    ['PATCH', 'databases/current/preview/', { token: onDb, body: { metadata: { b: 2 } } }],
    ['POST', 'tasks/<task_name>/', { token: onDb, path: 'tasks/ml_model_retrain/' }],
    ['GET', 'tasks/<task_name>/recents/', { token: onDb, path: 'tasks/ml_model_retrain/recents/' }],
  ]);
  const [key] = await checkAnswers(t, [
    [
      'POST',
      'accounts/service/keys/',
      { token: root, body: { name: service, expiration_timestamp: now + 3600, metadata: { for: 'web' } } },
    ],
    ['GET', 'organizations/current/accounts/', { token: root }],
    ['GET', 'organizations/accounts/', { token: root }],
  ]);
  const [frontend] = await checkAnswers(t, [
    [
      'POST',
      'login/service/',
      { body: { name: service, password: key.key, db_id: db, frontend_user_id: uid(1), frontend_session_id: uid(2) } },
    ],
    ['POST', 'login/refresh-token/', { body: { refresh_token: login.refresh_token } }],
  ]);
  await checkAnswers(t, [
    ['POST', 'login/jwt/', { token: frontend.token }],
    ['POST', 'login/refresh-token/', { body: { refresh_token: frontend.refresh_token } }],
    ['DELETE', 'accounts/individual/', { token: root, body: { email } }],
  ]);
});

t.test('properties, items and users', async (t) => {
  await checkAnswers(t, [
    ['GET', 'items-properties/', { token }],
    ['GET', 'items-properties/<property_name>/', { token, path: 'items-properties/genre/' }],
    ['GET', 'users-properties/', { token }],
    ['GET', 'users-properties/<property_name>/', { token, path: 'users-properties/age/' }],
  ]);
  for (const [single, old] of [
    ['properties/', false],
    ['', true],
  ] as const) {
    const id = old ? 102 : 101;
    const user = uid(old ? 102 : 101);
    const bulk = old ? '' : 'properties/';
    await checkAnswers(t, [
      ['PUT', `items/<item_id>/${single}`, { token, path: `items/${id}/${single}`, body: { item: { genre: 'a', price: 5, colour: 'x' } } }],
      [
        'PUT',
        `items/<item_id>/${single}`,
        { token, path: `items/${id}/${single}`, body: { item: { genre: 'a', price: 5 }, wait_for_completion: false } },
      ],
      ['PATCH', `items/<item_id>/${single}`, { token, path: `items/${id}/${single}`, body: { item: { price: 6 } } }],
      ['GET', `items/<item_id>/${single}`, { token, path: `items/1/${single}` }],
      ['PUT', `users/<user_id>/${single}`, { token, path: `users/${user}/${single}`, body: { user: { age: 30 } } }],
      [
        'PATCH',
        `users/<user_id>/${single}`,
        { token, path: `users/${uid(old ? 104 : 103)}/${single}`, body: { user: { age: 31 }, create_if_missing: true } },
      ],
      ['GET', `users/<user_id>/${single}`, { token, path: `users/${user}/${single}` }],
      ['PUT', `items-bulk/${bulk}`, { token, body: { items: [{ item_id: id + 10, genre: 'b', price: 1 }] } }],
      ['PUT', `items-bulk/${bulk}`, { token, body: { items: [{ item_id: id + 10, genre: 'b', price: 1 }], wait_for_completion: false } }],
      ['PATCH', `items-bulk/${bulk}`, { token, body: { items: [{ item_id: id + 10, price: 2 }] } }],
      ['GET', `items-bulk/${bulk}`, { token, query: 'amt=3&properties=genre&properties=nothing' }],
      ['POST', `items-bulk/${bulk}list/`, { token, body: { items_id: [1, id + 10, 999] } }],
      ['PUT', `users-bulk/${bulk}`, { token, body: { users: [{ user_id: uid(old ? 106 : 105), age: 40 }] } }],
      ['PATCH', `users-bulk/${bulk}`, { token, body: { users: [{ user_id: uid(old ? 106 : 105), age: 41 }] } }],
      ['GET', `users-bulk/${bulk}`, { token, query: 'amt=2' }],
      ['POST', `users-bulk/${bulk}list/`, { token, body: { users_id: [user, uid(999)] } }],
    ]);
  }
});

t.test('ratings, interactions and sessions', async (t) => {
  const session = uid(700);
  await checkAnswers(t, [
    ['PUT', 'ratings-bulk/', { token, body: { ratings: [{ user_id: uid(200), item_id: 2, rating: 7, timestamp: now }] } }],
    ['GET', 'ratings-bulk/', { token, query: 'amt=5' }],
    ['PUT', 'users/<user_id>/ratings/', { token, path: `users/${uid(200)}/ratings/`, body: { ratings: [{ item_id: 3, rating: 8 }] } }],
    ['GET', 'users/<user_id>/ratings/', { token, path: `users/${uid(200)}/ratings/` }],
    [
      'POST',
      'users/<user_id>/interactions/<item_id>/',
      { token, path: `users/${uid(201)}/interactions/4/`, body: { interaction_type: 'view', properties: { from: 'home' } } },
    ],
    [
      'POST',
      'users/<user_id>/interactions-bulk/',
      {
        token,
        path: `users/${uid(201)}/interactions-bulk/`,
        body: { interactions: [{ item_id: 5, interaction_type: 'click', timestamp: now, junk: 1 }] },
      },
    ],
    ['GET', 'users/<user_id>/interactions-bulk/', { token, path: `users/${uid(201)}/interactions-bulk/`, query: 'amt=1' }],
    ['POST', 'interactions-bulk/', { token, body: { interactions: [{ user_id: uid(202), item_id: 6, interaction_type: 'view' }] } }],
    ['GET', 'interactions-bulk/', { token, query: `amt=2&start_timestamp=${now - 60}` }],
    [
      'POST',
      'sessions/<session_id>/items/<item_id>/interactions/',
      { token, path: `sessions/${session}/items/7/interactions/`, body: { interaction_type: 'view' } },
    ],
    [
      'POST',
      'sessions/<session_id>/interactions-bulk/',
      { token, path: `sessions/${session}/interactions-bulk/`, body: { interactions: [{ item_id: 8, interaction_type: 'view' }] } },
    ],
    ['GET', 'sessions/<session_id>/interactions-bulk/', { token, path: `sessions/${session}/interactions-bulk/` }],
    [
      'POST',
      'sessions-interactions-bulk/',
      { token, body: { interactions: [{ session_id: uid(701), item_id: 9, interaction_type: 'view' }] } },
    ],
    ['GET', 'sessions-interactions-bulk/', { token, query: 'amt=2' }],
    ['POST', 'sessions/<session_id>/resolve/', { token, path: `sessions/${session}/resolve/`, body: { user_id: uid(201) } }],
    [
      'POST',
      'sessions/<session_id>/items/<item_id>/interactions/',
      { token, path: `sessions/${session}/items/7/interactions/`, body: { interaction_type: 'view' } },
    ],
    ['POST', 'resolved-sessions/', { token, body: { amt: 5 } }],
    ['GET', 'interaction-rules/', { token }],
    ['PUT', 'interaction-rules/', { token, body: { rules: { purchase: { rating: 9, combine: 'max' } } } }],
    ['GET', 'interaction-rules/', { token }],
    ['DELETE', 'interactions-ratings-bulk/', { token, body: { users_id: [uid(202)] } }],
  ]);
});

t.test('recommendations and scenarios', async (t) => {
  const user = uid(0);
  const ratings = [{ item_id: 1, rating: 9 }];
  const [, ab] = await checkAnswers(t, [
    [
      'PUT',
      'scenarios/<reco_type>/<name>/',
      {
        token,
        path: 'scenarios/item_to_items/few/',
        body: {
          scenario_type: 'case',
          case: {
            amt: 5,
            exclude_rated_items: true,
            filters: ['genre:eq:a'],
            reranking: [{ property_name: 'genre', op: 'diversity', weight: 0.5 }],
            note: 'kept as sent',
          },
        },
      },
    ],
    ['POST', 'ab-tests/params/', { token, body: { name: 'half', probability_a: 0.5 } }],
  ]);
  await checkAnswers(t, [
    [
      'PUT',
      'scenarios/<reco_type>/<name>/',
      {
        token,
        path: 'scenarios/item_to_items/other/',
        body: { scenario_type: 'alias', alias: { scenario_name: 'few' }, metadata: { by: 'test' } },
      },
    ],
    [
      'PUT',
      'scenarios/<reco_type>/<name>/',
      {
        token,
        path: 'scenarios/item_to_items/split/',
        body: { scenario_type: 'ab_test', ab_test: { id: ab.id, scenario_a: 'few', scenario_b: 'other' } },
      },
    ],
    [
      'PUT',
      'scenarios/<reco_type>/<name>/',
      {
        token,
        path: 'scenarios/item_to_items/newcomers/',
        body: {
          scenario_type: 'condition',
          condition: {
            condition_type: 'USER_FUNCTION',
            if: { function_name: 'n_ratings', op: 'lt', value: 3 },
            then: 'few',
            else: 'other',
          },
        },
      },
    ],
    ['GET', 'scenarios/<reco_type>/<name>/', { token, path: 'scenarios/item_to_items/few/' }],
    ['GET', 'scenarios/', { token }],
    ['PATCH', 'scenarios-default/<reco_type>/', { token, path: 'scenarios-default/item_to_items/', body: { name: 'newcomers' } }],
    ['GET', 'scenarios-default/<reco_type>/', { token, path: 'scenarios-default/item_to_items/' }],
    ['GET', 'recommendation/items/<item_id>/items/', { token, path: 'recommendation/items/1/items/', query: 'scenario=split' }],
    ['GET', 'recommendation/users/<user_id>/items/', { token, path: `recommendation/users/${user}/items/`, query: 'amt=3' }],
    ['POST', 'recommendation/sessions/items/', { token, body: { ratings } }],
    [
      'POST',
      'recommendation/context-items/users/<user_id>/items/',
      { token, path: `recommendation/context-items/users/${user}/items/`, body: { context_items: [1] } },
    ],
    ['POST', 'recommendation/context-items/sessions/items/', { token, body: { ratings, context_items: [2] } }],
    [
      'GET',
      'recommendation/users/<user_id>/items-properties/<property_name>/',
      { token, path: `recommendation/users/${user}/items-properties/genre/` },
    ],
    [
      'POST',
      'recommendation/sessions/items-properties/<property_name>/',
      { token, path: 'recommendation/sessions/items-properties/price/', body: { ratings } },
    ],
    ['POST', 'recommendation/generic/items/', { token, body: { user_id: user } }],
    ['POST', 'recommendation/generic/items/', { token, body: { item_id: 1 } }],
    ['POST', 'recommendation/items-properties/items/', { token, body: { item_properties: { genre: 'a' }, scenario: 'few' } }],
    ['POST', 'recommendation/users-groups/items/', { token, body: { users_id: [user, uid(1)] } }],
  ]);
  // Outcomes, with a credited interaction (impressions and credits reach Redis every 200 ms).
  const shown = await api.get('recommendation/items/1/items/', { token, query: `scenario=split&user_id=${user}` });
  const click = { interaction_type: 'click', properties: { recommendation_id: shown.body.recommendation_id } };
  await pause(300);
  t.equal((await api.post(`users/${user}/interactions/${shown.body.items_id[0]}/`, click, { token })).status, 200);
  await pause(300);
  await checkAnswers(t, [
    ['GET', 'analytics/recommendations/', { token }],
    ['GET', 'analytics/recommendations/', { token, query: 'group_by=ab_test' }],
    ['GET', 'ab-tests/<ab_test_id>/results/', { token, path: `ab-tests/${ab.id}/results/` }],
  ]);
  const [replay] = await checkAnswers(t, [
    ['POST', 'analytics/replay/', { token, body: { reco_type: 'item_to_items', scenario: 'split', k: 5 } }],
  ]);
  const replayPath = `analytics/replay/${replay.task_id}/`;
  await until(
    'replayed',
    async () => (await api.get(replayPath, { token })).body.status,
    (s) => s === 'COMPLETED',
  );
  await checkAnswers(t, [['GET', 'analytics/replay/<task_id>/', { token, path: replayPath }]]);
  const [models] = await checkAnswers(t, [['GET', 'pretrained-ml/trained-models/', { token }]]);
  const trials = models.models[0]?.search?.trials ?? [];
  t.same(
    [...new Set(trials.map((x: { model: string }) => x.model))].sort(),
    ['als', 'ease', 'item-knn', 'popularity'],
    'the search, with a trial of each kind, was checked',
  );
});

t.test('precomputed tables and their reads', async (t) => {
  await checkAnswers(t, [
    ['PUT', 'precomputed-tables/<name>/', { token, path: 'precomputed-tables/similar/', body: { reco_type: 'item_to_items', amt: 10 } }],
    ['PUT', 'precomputed-tables/<name>/', { token, path: 'precomputed-tables/for-users/', body: { reco_type: 'profile_to_items' } }],
  ]);
  await until(
    'tables built',
    () => tasksOf(api, token, 'precomputed_tables'),
    (ts) => ts.length > 0 && settled(ts),
  );
  await checkAnswers(t, [
    ['GET', 'precomputed-tables/', { token }],
    ['GET', 'tasks/<task_name>/recents/', { token, path: 'tasks/precomputed_tables/recents/' }],
    ['GET', 'tasks/<task_name>/recents/', { token, path: 'tasks/ml_model_retrain/recents/' }],
    ['GET', 'tasks/<task_name>/recents/', { token, path: 'tasks/ml_new_items/recents/' }],
    ['GET', 'tasks/<task_name>/recents/', { token, path: 'tasks/interactions_ratings_deletion/recents/' }],
    [
      'GET',
      'recommendation/precomputed/items/<item_id>/items/',
      { token, path: 'recommendation/precomputed/items/1/items/', query: 'table=similar' },
    ],
    [
      'GET',
      'recommendation/precomputed/users/<user_id>/items/',
      { token, path: `recommendation/precomputed/users/${uid(0)}/items/`, query: 'table=for-users' },
    ],
  ]);
});

t.test('call counts', async (t) => {
  await checkAnswers(t, [
    ['GET', 'call-counts/historical/', { token: root }],
    ['GET', 'call-counts/historical/<label>/', { token: root, path: 'call-counts/historical/DBS/' }],
    ['GET', 'call-counts/historical/<label>/', { token: root, path: 'call-counts/historical/ACCOUNTS/', query: 'amt=2' }],
    ['GET', 'call-counts/historical/<label>/', { token: root, path: 'call-counts/historical/RECO_TYPES/' }],
    [
      'GET',
      'call-counts/historical/SCENARIOS/<reco_type>/<name>/',
      { token: admin, path: 'call-counts/historical/SCENARIOS/item_to_items/split/' },
    ],
  ]);
});

t.test('every route that answers a JSON body was sampled', async (t) => {
  const unsampled = routes
    .filter((r) => r.response !== null && r.media === undefined && !sampled.has(`${r.method} ${r.path}`))
    .map((r) => `${r.method} ${r.path}`);
  t.same(unsampled, []);
});
