// Client mistakes that used to answer 500 (issue 18): bodies nested too deep for the handlers or for
// storage, query keys and body fields a route does not declare, and session or property-value
// requests whose values do not fit the property's type. Each answers the spec's 400 now.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { Encoder } from '@msgpack/msgpack';
import t from 'tap';
import { MAX_BODY_DEPTH } from '../../src/codecs/codec.js';
import type { Res } from '../helpers/api.js';
import { hasWarning, uid, why, WRONG_DATA_TYPE } from '../helpers/feedback.js';
import { errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { RECO_ENV, trainedDatabase, type Tt } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { token } = await trainedDatabase(api, root);

// A JSON body whose `"<deep>"` string is replaced by a value nested n deep (lists in objects in lists
// …), spelled out as text: JSON.stringify itself recurses.
function withDeep(body: unknown, n: number): Buffer {
  let open = '',
    close = '';
  for (let k = 0; k < n; k++) {
    open += k % 2 ? '{"a":' : '[';
    close = (k % 2 ? '}' : ']') + close;
  }
  return Buffer.from(JSON.stringify(body).replace('"<deep>"', `${open}1${close}`));
}
const sendDeep = (method: string, path: string, body: unknown, n: number, tok = token) =>
  api.call(method, path, { token: tok, raw: withDeep(body, n), headers: { 'content-type': 'application/json' } });

const tooDeep = (t: Tt, r: Res, what: string) => {
  t.same(errorOf(r), WRONG_DATA_TYPE, `${what}: ${why(r, 400)}`);
  t.match(r.body?.message, new RegExp(`nested deeper than ${MAX_BODY_DEPTH} levels`), `${what}: says why`);
};

// The requests: free-form values ~100 deep (the store's msgpack encoder refused them) and
// values 5,000 deep (handlers overflowed the stack).
t.test('bodies nested deeper than the limit are WRONG_DATA_TYPE, whatever field holds them', async (t) => {
  const cases: [string, string, unknown, string?][] = [
    ['POST', 'items-properties/', { property_name: 'deep_meta', value_type: 'int32', metadata: { m: '<deep>' } }],
    [
      'POST',
      'accounts/individual/',
      { email: `${unique('deep')}@test.local`, role: 'backend', password: 'Valid-password-1', metadata: { m: '<deep>' } },
      root,
    ],
    [
      'POST',
      'databases/',
      { name: unique('deep'), description: 'x', item_id_type: 'uint32', user_id_type: 'uuid', metadata: { m: '<deep>' } },
      root,
    ],
    ['PUT', 'scenarios/profile_to_items/deep/', { scenario_type: 'case', metadata: { m: '<deep>' }, case: { amt: 5 } }],
    ['POST', `users/${uid(1)}/interactions/3/`, { interaction_type: 'view', properties: { p: '<deep>' } }],
    ['PUT', `users/${uid(1)}/ratings/3/`, { rating: '<deep>' }],
    ['POST', `recommendation/context-items/users/${uid(1)}/items/`, { context_items: ['<deep>'] }],
    ['POST', 'recommendation/users-groups/items/', { users_id: ['<deep>'] }],
    [
      'POST',
      'recommendation/sessions/items/',
      { ratings: [{ item_id: 3, rating: 9 }], filters: [{ property_name: 'price', op: 'eq', value: '<deep>' }] },
    ],
    ['POST', 'recommendation/sessions/items/', { ratings: [{ item_id: 3, rating: 9 }], user_properties: { age: '<deep>' } }],
  ];
  for (const [method, path, body, tok] of cases) {
    for (const n of [100, 5_000])
      tooDeep(t, await sendDeep(method, path, body, n, tok), `${method} ${path} ${JSON.stringify(body).slice(0, 60)} at ${n} levels`);
  }
  t.equal((await api.get('items-properties/deep_meta/', { token })).status, 404, 'nothing was stored');
  t.equal((await api.get('scenarios/profile_to_items/deep/', { token })).status, 404, 'nor the scenario');
});

t.test('msgpack and pickle bodies are held to the same limit', async (t) => {
  let deep: unknown = 1;
  for (let k = 0; k < 100; k++) deep = [deep];
  const raw = Buffer.from(
    new Encoder({ maxDepth: 1000 }).encode({ property_name: 'deep_meta', value_type: 'int32', metadata: { m: deep } }),
  );
  tooDeep(t, await api.call('POST', 'items-properties/', { token, raw, headers: { 'content-type': 'application/msgpack' } }), 'msgpack');
  // protocol 4: a dict {'rating': [[[…1…]]]} 100 lists deep.
  const pickle = Buffer.from(`\x80\x04}\x8c\x06rating${']'.repeat(100)}K\x01${'a'.repeat(100)}s.`, 'latin1');
  const r = await api.call('PUT', `users/${uid(1)}/ratings/3/`, {
    token,
    raw: pickle,
    headers: { 'content-type': 'application/service-pkl' },
  });
  t.same(errorOf(r), WRONG_DATA_TYPE, `pickle: ${why(r, 400)}`);
  t.match(r.text, /nested too deeply/, 'pickle: says why');
});

t.test('free-form metadata as deep as a body may hold is stored and read back', async (t) => {
  // The body is level 1 and `metadata` level 2: the deepest metadata a body may carry.
  let metadata: Record<string, unknown> = { leaf: [1, 'x'] };
  for (let k = 0; k < MAX_BODY_DEPTH - 3; k++) metadata = { k: metadata };
  const r = await api.post('items-properties/', { property_name: 'deep_ok', value_type: 'int32', metadata }, { token });
  t.equal(r.status, 204, why(r, 204));
  const got = await api.get('items-properties/deep_ok/', { token });
  t.same(got.body?.metadata, metadata, 'the metadata comes back whole');
  const scenario = await api.put('scenarios/profile_to_items/deep-ok/', { scenario_type: 'case', metadata, case: { amt: 5 } }, { token });
  t.ok(scenario.status < 300, `a scenario with that metadata: ${why(scenario, 200)}`);
  const one = await api.post(`users/${uid(1)}/interactions/3/`, { interaction_type: 'view', properties: metadata }, { token });
  t.ok(one.status < 500, `an interaction with those properties: ${why(one, 200)}`);
});

// Unknown query keys reach the handler (the validator lets them pass): the recommendation handlers
// read only what their route declares.
t.test('query keys and body fields a recommendation route does not declare are ignored, not read', async (t) => {
  const same = async (path: string, extra: string, what: string) => {
    const plain = await api.get(path, { token });
    const odd = await api.get(path, { token, query: extra });
    t.ok(odd.status < 500, `${what}: ${why(odd, plain.status)}`);
    t.equal(odd.status, plain.status, `${what}: answered as without it`);
    t.same(odd.body?.items_id ?? odd.body?.properties, plain.body?.items_id ?? plain.body?.properties, `${what}: the same answer`);
  };
  await same('recommendation/precomputed/items/1/items/', 'filters=price:lt:3', 'precomputed items, filters');
  await same(
    `recommendation/precomputed/users/${uid(1)}/items/`,
    'filters=price:lt:3&reranking=x&amt=abc&cursor=1',
    'precomputed users, filters',
  );
  await same(`recommendation/users/${uid(1)}/items-properties/genre/`, 'reranking=genre:diversity:1', 'user property values, reranking');
  await same(
    `recommendation/users/${uid(1)}/items-properties/genre/`,
    'exclude_rated_items=maybe&table=x&cursor=zz',
    'user property values, other keys',
  );
  await same('recommendation/items/1/items/', 'table=x&exclude_rated_items=abc', 'item to items, table');
  await same(
    'recommendation/items/1/items/',
    '__proto__=1&constructor=2&toString=3&toString=4&hasOwnProperty=5',
    "item to items, keys naming Object's members",
  );
  await same(`recommendation/users/${uid(1)}/items/`, '__proto__=x&valueOf=1&__proto__=y', "user to items, keys naming Object's members");

  const body = { ratings: [{ item_id: 3, rating: 9 }] };
  const plain = await api.post('recommendation/sessions/items-properties/genre/', body, { token });
  t.equal(plain.status, 200, why(plain, 200));
  const odd = await api.post(
    'recommendation/sessions/items-properties/genre/',
    { ...body, reranking: 'genre:diversity:1', cursor: 5, exclude_rated_items: 'x' },
    { token },
  );
  t.equal(odd.status, 200, `session property values with undeclared fields: ${why(odd, 200)}`);
  t.same(odd.body?.properties, plain.body?.properties, 'the same values');
  t.ok(hasWarning(odd, 'fields ignored', 'reranking'), 'and a warning names them');
});

t.test("a session's user_properties and the items-properties values are checked against the properties' types", async (t) => {
  const session = (user_properties: unknown) =>
    api.post('recommendation/sessions/items/', { ratings: [{ item_id: 3, rating: 9 }], user_properties }, { token });
  for (const bad of [
    { age: 'abc' },
    { age: 1000 },
    { age: 1.5 },
    { age: [30, 'x'] },
    { age: [[30]] },
    { age: { a: 1 } },
    { age: null },
    { AGE: true },
  ]) {
    const r = await session(bad);
    t.same(errorOf(r), WRONG_DATA_TYPE, `${JSON.stringify(bad)}: ${why(r, 400)}`);
    t.equal(r.body?.error_data?.field, `user_properties.${Object.keys(bad)[0]}`, `${JSON.stringify(bad)}: names the field`);
  }
  for (const good of [{ age: 30 }, { age: [30, 31] }, { AGE: -128 }]) {
    const r = await session(good);
    t.equal(r.status, 200, `${JSON.stringify(good)}: ${why(r, 200)}`);
  }
  const props = await api.post('recommendation/sessions/items-properties/genre/', { user_properties: { age: 'abc' } }, { token });
  t.same(errorOf(props), WRONG_DATA_TYPE, `session property values: ${why(props, 400)}`);

  const byValues = (item_properties: unknown) => api.post('recommendation/items-properties/items/', { item_properties }, { token });
  for (const bad of [{ price: 'abc' }, { price: [1, 2.5] }, { genre: 12 }, { genre: 'x'.repeat(17) }]) {
    t.same(errorOf(await byValues(bad)), WRONG_DATA_TYPE, `item_properties ${JSON.stringify(bad).slice(0, 40)}`);
  }
  t.equal((await byValues({ price: [1, 2], genre: 'a' })).status, 200, 'fitting values are answered');
});

// The store keeps free-form values msgpack-encoded and its decoder refuses the key `__proto__`: an
// account stored with one made the organisation's account listing answer 500 from then on.
t.test('a __proto__ key is refused in any body, so nothing unreadable is stored', async (t) => {
  const email = `${unique('proto')}@test.local`;
  const raw = Buffer.from(
    `{"email": "${email}", "role": "backend", "password": "Valid-password-1", "metadata": {"__proto__": {"admin": true}}}`,
  );
  const r = await api.call('POST', 'accounts/individual/', { token: root, raw, headers: { 'content-type': 'application/json' } });
  t.same(errorOf(r), WRONG_DATA_TYPE, why(r, 400));
  const escaped = await api.call('PUT', 'scenarios/profile_to_items/proto/', {
    token,
    raw: Buffer.from('{"scenario_type": "case", "metadata": {"\\u005f_proto__": 1}}'),
    headers: { 'content-type': 'application/json' },
  });
  t.same(errorOf(escaped), WRONG_DATA_TYPE, `escaped: ${why(escaped, 400)}`);
  for (const path of ['organizations/current/accounts/', 'organizations/accounts/']) {
    const listed = await api.get(path, { token: root });
    t.equal(listed.status, 200, `${path}: ${why(listed, 200)}`);
  }
  t.equal((await api.get('scenarios/', { token })).status, 200, 'the scenarios list too');
});
