// The client side of test/chaos/fuzz-routes.test.ts, in a worker thread so that generating, sending
// and reading requests does not run on the server's event loop (whose latency the test measures):
// seeded requests for every route of the route table, sent PARALLEL at a time, and what came back.
// Protocol: posts {kind: 'ready'} once the requests are generated, runs them on 'go', then posts
// {kind: 'done'} with the statuses, the 5xx answers described, and the routes that never answered.
import { parentPort, workerData } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { decode as msgpackDecode, Encoder } from '@msgpack/msgpack';
import fc from 'fast-check';
import { decodePickle } from '../../src/codecs/pickle/decode.js';
import { encodePickle, NumpyArray, NumpyRecords } from '../../src/codecs/pickle/encode.js';
import { ROLES, type Role } from '../../src/contract/roles.js';
import type { Route } from '../../src/contract/routes.js';
import { allRoutes } from '../../src/routes/index.js';
import { RECO_TYPES } from '../../src/contract/reco-types.js';
import { Api, type Res } from './api.js';
import { uid } from './feedback.js';
import { createDatabase, tokenFor } from './fixtures.js';

export interface FuzzSetup {
  base: string; // the API's base URL
  db: string; // the shared database
  root: string; // a root token (throwaway databases and accounts for the destructive routes)
  tokens: Record<Role, string>; // a token of each role on db
  seed: number;
  runs: number; // random requests, spread over the routes (each route's deep-value requests come on top)
  parallel: number;
}

export interface FuzzReady {
  kind: 'ready';
  requests: number;
  routes: number;
}

export interface FuzzDone {
  kind: 'done';
  seconds: number;
  statuses: Record<number, number>;
  failures: string[]; // the 5xx answers, request and answer described
  unanswered: string[]; // routes none of whose requests got an answer below 500
}

const { base, db, root, tokens, seed, runs, parallel } = workerData as FuzzSetup;
const backend = tokens.backend;
const api = new Api(base);
// Building the rows calls no service, so no services are needed.
const routes: Route[] = allRoutes({} as never);
const keyOf = (r: Route) => `${r.method} ${r.path}`;
// Requests that would end the shared database or accounts: sent last, each on throwaway ones.
const DESTRUCTIVE = new Set(['DELETE accounts/', 'DELETE databases/current/']);

// ---- values --------------------------------------------------------------------------------------

// A value nested n deep. JSON.stringify and the msgpack and pickle encoders recurse, so the value
// travels as a marker that JSON bodies spell out as text and the binary codecs cap at 120 levels (the
// codecs' unit tests send them far deeper).
class Deep {
  constructor(readonly n: number) {}
  value(n = this.n): unknown {
    let v: unknown = 1;
    for (let k = 0; k < n; k++) v = k % 2 ? [v] : { a: v };
    return v;
  }
  text(): string {
    let open = '',
      close = '';
    for (let k = this.n - 1; k >= 0; k--) {
      open += k % 2 ? '[' : '{"a":';
      close = (k % 2 ? ']' : '}') + close;
    }
    return `${open}1${close}`;
  }
}
const deep = (n: number) => (n <= 120 ? new Deep(n).value() : new Deep(n));
const NASTY_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-0',
  '1e999',
  '0x1f',
  '1.5',
  '٣',
  '../',
  '..%2F',
  '%00',
  '\u0000',
  '\ud800',
  'a'.repeat(5000),
  '💥'.repeat(70),
  'null',
  'true',
  '[]',
  '{}',
  'x:y:z',
  '::',
  'price:lt:',
  'price:lt:abc',
  'genre:in:',
  'genre:diversity:abc',
  'tags:eq:a',
];
const bad: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      -0.5,
      1.5,
      1e308,
      -1e308,
      2 ** 53,
      2 ** 64,
      4294967296,
      -2147483649,
      [],
      {},
      [[]],
      { a: {} },
      [null],
      [1, 'a', null],
    ),
  },
  // Keys an object used as a map could trip on (JSON.parse makes `__proto__` an own key, as a body would).
  {
    weight: 1,
    arbitrary: fc.constant(JSON.parse('{"__proto__": {"x": 1}, "constructor": 1, "toString": "x", "hasOwnProperty": 1, "valueOf": null}')),
  },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(Number)) },
  { weight: 4, arbitrary: fc.constantFrom(10, 25, 33, 100, 120, 5_000).map((n) => deep(n)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(2_000, 20_000).map((n) => Array.from({ length: n }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }) },
);

const itemId = fc.oneof(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 45 }).map(String));
const userId = fc.integer({ min: 0, max: 75 }).map(uid);
const sessionId = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.uuid());
// Fresh names now and then, so that creations succeed and store what they carry.
const fresh = (prefix: string) => fc.nat({ max: 1_000_000 }).map((n) => `${prefix}${n}`);
// A few pooled names: whichever request first creates one (property, scenario) with whatever type or
// content, later ones write, filter, rank and read through it.
const POOL = ['pool_a', 'pool_b', 'pool_c'];
const propName = fc.oneof(
  fc.constantFrom('genre', 'price', 'tags', 'age', 'nope', 'GENRE', 'constructor', '__proto__', 'toString', ...POOL),
  fresh('fz_'),
);
const poolValue = fc.oneof(
  fc.integer({ min: -200, max: 200 }),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
);
const filterRule = fc.oneof(
  fc.constantFrom('price:lt:10', 'genre:eq:a', 'genre:in:a,b', 'tags:notempty', 'price:gte:3', 'genre:ftsearch:a', 'price:zz:1'),
  fc
    .tuple(
      fc.constantFrom(...POOL),
      fc.constantFrom('eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'notin', 'notempty', 'empty', 'ftsearch'),
      fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom('a', 'a,b', '1,2', 'true', '1.5', '')),
    )
    .map(([p, op, v]) => `${p}:${op}:${v}`),
  fc.record({
    property_name: propName,
    op: fc.constantFrom('eq', 'lt', 'in', 'notempty', 'bogus'),
    value: fc.oneof(fc.integer(), fc.constant('a'), fc.constant(['a', 'b'])),
  }),
);
const rerankRule = fc.oneof(
  fc.constantFrom('genre:diversity:1', 'price:diversity:0.5', 'genre:boost:a:2', 'tags:diversity', ...POOL.map((p) => `${p}:diversity:1`)),
  fc.record({
    property_name: propName,
    op: fc.constantFrom('diversity', 'boost', 'bogus'),
    weight: fc.double({ min: -2, max: 2, noNaN: true }),
    options: fc.constant({}),
  }),
);
const ts = fc.integer({ min: 1_600_000_000, max: 1_800_000_000 });
const rating = fc.record(
  { item_id: itemId, rating: fc.integer({ min: 1, max: 10 }), timestamp: ts },
  { requiredKeys: ['item_id', 'rating'] },
);
const interaction = fc.record(
  { item_id: itemId, interaction_type: fc.constantFrom('view', 'VIEW', 'purchase'), timestamp: ts, properties: fc.constant({ k: 1 }) },
  { requiredKeys: ['item_id', 'interaction_type'] },
);
const metadata = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
const itemValues = fc.record(
  {
    genre: fc.constantFrom('a', 'b'),
    price: fc.integer({ min: 0, max: 100 }),
    tags: fc.array(fc.constantFrom('x', 'y'), { maxLength: 3 }),
    pool_a: poolValue,
    pool_b: poolValue,
  },
  { requiredKeys: [] },
);
const userValues = fc.record({ age: fc.integer({ min: 0, max: 127 }), pool_c: poolValue, pool_a: poolValue }, { requiredKeys: [] });
const text = fc.string({ minLength: 1, maxLength: 16 });
const scenarioName = fc.oneof(fc.constantFrom('cheap', 'diverse', 'nope', ...POOL), fresh('fz'));

// Plausible values by field name: bodies built from them reach the handlers' deeper checks.
const GOOD: Record<string, fc.Arbitrary<unknown>> = {
  item_id: itemId,
  user_id: userId,
  session_id: sessionId,
  items_id: fc.array(itemId, { maxLength: 5 }),
  users_id: fc.array(userId, { minLength: 1, maxLength: 5 }),
  context_items: fc.array(itemId, { minLength: 1, maxLength: 3 }),
  rating: fc.integer({ min: 1, max: 10 }),
  timestamp: ts,
  start_timestamp: ts,
  end_timestamp: ts,
  ratings: fc.array(
    fc.oneof(
      rating,
      rating.map((r) => ({ ...r, user_id: uid(1) })),
    ),
    { maxLength: 4 },
  ),
  interactions: fc.array(
    fc.oneof(
      interaction,
      interaction.map((r) => ({ ...r, user_id: uid(2), session_id: 7 })),
    ),
    { maxLength: 4 },
  ),
  interaction_type: fc.constantFrom('view', 'purchase'),
  properties: fc.oneof(fc.constant({ k: 'v' }), fc.array(propName, { maxLength: 3 })),
  user_properties: fc.oneof(userValues, fc.constant({ age: [30, 31] })),
  item_properties: fc.oneof(fc.constant({ genre: 'a' }), fc.constant({ tags: ['x'] }), itemValues),
  item: itemValues,
  user: userValues,
  items: fc.array(
    itemValues.map((v) => ({ ...v, item_id: 7 })),
    { maxLength: 3 },
  ),
  users: fc.array(
    userValues.map((v) => ({ ...v, user_id: uid(3) })),
    { maxLength: 3 },
  ),
  items_m2m: fc.constant([{ name: 'tags', array: [{ item_index: 0, value_id: 'x' }] }]),
  users_m2m: fc.constant([{ name: 'age', array: [{ user_index: 0, value_id: 3 }] }]),
  filters: fc.array(filterRule, { maxLength: 3 }),
  reranking: fc.array(rerankRule, { maxLength: 2 }),
  amt: fc.integer({ min: 1, max: 64 }),
  cursor: fc.constantFrom('', 'abc', 'MTA', '0'),
  scenario: scenarioName,
  skip_default_scenario: fc.boolean(),
  exclude_rated_items: fc.boolean(),
  consensus_factor: fc.double({ min: 0, max: 1, noNaN: true }),
  wait_for_completion: fc.boolean(),
  create_if_missing: fc.boolean(),
  property_name: propName,
  value_type: fc.constantFrom('int32', 'unicode8', 'float', 'bool', 'uint64', 'unicode0', 'int128'),
  repeated: fc.boolean(),
  metadata,
  email: fc.oneof(
    fc.constantFrom('someone@test.local', 'x@y', 'no-at-sign'),
    fresh('fz').map((n) => `${n}@test.local`),
  ),
  password: fc.constantFrom('Valid-password-1', 'short', 'Another-pass-99'),
  new_password: fc.constantFrom('Valid-password-1', 'short'),
  role: fc.constantFrom(...ROLES, 'demo_viewer', 'god'),
  name: fc.oneof(text, fresh('fz')),
  first_name: text,
  last_name: text,
  description: text,
  db_id: fc.constantFrom(db, 'nope'),
  db_name: text,
  item_id_type: fc.constantFrom('uint32', 'uuid', 'str', 'int'),
  user_id_type: fc.constantFrom('uint32', 'uuid', 'str'),
  session_id_type: fc.constantFrom('uint32', 'uuid', 'str'),
  frontend_user_id: userId,
  frontend_session_id: sessionId,
  refresh_token: fc.constant('not-a-token'),
  code: fc.constant('123456'),
  expiration_timestamp: ts,
  code_expiration_timestamp: ts,
  email_redirect_url: fc.constant('https://example.test/x'),
  rules: fc.constant({ view: { rating: 6, combine: 'max' } }),
  reco_type: fc.constantFrom(...RECO_TYPES),
  scenario_type: fc.constantFrom('case', 'condition', 'alias', 'ab_test'),
  case: fc.record(
    {
      filters: fc.array(filterRule, { maxLength: 2 }),
      reranking: fc.array(rerankRule, { maxLength: 2 }),
      amt: fc.integer({ min: 0, max: 64 }),
    },
    { requiredKeys: [] },
  ),
  condition: fc.constantFrom(
    { condition_type: 'user_function', if: { function_name: 'n_ratings', op: 'gte', value: 5 }, then: 'cheap', else: 'diverse' },
    { condition_type: 'item_property', if: { property_name: 'genre', op: 'eq', value: 'a' }, then: 'cheap', else: 'diverse' },
    { condition_type: 'user_property', if: { property_name: 'age', op: 'lt', value: 30 }, then: 'cheap', else: 'diverse' },
  ),
  alias: fc.constant({ scenario_name: 'cheap' }),
  ab_test: fc.constant({ id: 'ab1', scenario_a: 'cheap', scenario_b: 'diverse' }),
  probability_a: fc.double({ min: 0, max: 1, noNaN: true }),
  label: fc.constantFrom('ALL', 'SCENARIOS', 'recommendation', 'nope'),
  page: fc.integer({ min: 1, max: 3 }),
};
const anyGood = fc.oneof(text, fc.integer(), fc.boolean());

// A good value with one node somewhere inside replaced by a bad one.
function broken(good: unknown, badValue: unknown, pick: number): unknown {
  const slots: [Record<string | number, unknown>, string | number][] = [];
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    for (const k of Object.keys(v)) {
      slots.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
      walk((v as Record<string, unknown>)[k]);
    }
  };
  walk(good);
  if (slots.length === 0 || pick % 3 === 0) return badValue;
  const [holder, key] = slots[pick % slots.length]!;
  holder[key] = badValue;
  return good;
}

const valueFor = (field: string): fc.Arbitrary<unknown> => {
  const good = GOOD[field] ?? anyGood;
  return fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 3, arbitrary: fc.tuple(good, bad, fc.nat()).map(([g, b, k]) => broken(structuredClone(g), b, k)) },
    { weight: 1, arbitrary: bad },
  );
};

const schemaKeys = (schema: unknown): string[] => {
  const s = schema as { properties?: Record<string, unknown>; anyOf?: unknown[] } | undefined;
  if (!s) return [];
  if (s.properties) return Object.keys(s.properties);
  return [...new Set((s.anyOf ?? []).flatMap(schemaKeys))];
};

// An object with some of the route's fields (and now and then an unknown one).
const fieldsOf = (keys: string[]): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(k)])), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.constantFrom('unknown_field', '__proto__', 'constructor', 'x'.repeat(300)), bad), { freq: 6 }),
    )
    .map(([o, extra]) => {
      if (extra) Object.defineProperty(o, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return o;
    });

// ---- requests ------------------------------------------------------------------------------------

const PARAM_GOOD: Record<string, fc.Arbitrary<string>> = {
  item_id: itemId.map(String),
  user_id: userId,
  session_id: sessionId.map(String),
  property_name: propName,
  task_name: fc.constantFrom('ml_model_retrain', 'ml_new_items', 'nope'),
  key_id: fc.constantFrom('k1', '0'),
  name: fc.oneof(fc.constantFrom('similar', 'cheap', 'diverse', 'nope', 'a.b-c_d', ...POOL), fresh('fz')),
  reco_type: fc.constantFrom(...RECO_TYPES, 'nope'),
  label: fc.constantFrom('ALL', 'SCENARIOS', 'recommendation', 'users', 'nope'),
};
const BAD_SEGMENTS = [
  '-1',
  'abc',
  '0',
  '4294967296',
  '1.5',
  '1e3',
  ' ',
  '%20',
  '%2F',
  '%25',
  '%00',
  '%ZZ',
  '%',
  '..',
  '.',
  'x'.repeat(300),
  encodeURIComponent('💥'),
  encodeURIComponent(uid(1).toUpperCase()),
  '00000000-0000-4000-8000-00000000000g',
];
const segment = (name: string) =>
  fc.oneof(
    { weight: 12, arbitrary: (PARAM_GOOD[name] ?? text).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...BAD_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
  );

// goodOnly: plausible path parameters only.
const pathOf = (route: Route, goodOnly = false): fc.Arbitrary<string> => {
  const parts = route.path.split('/').map((seg) => {
    const m = /^<([^>]+)>$/.exec(seg);
    if (!m) return fc.constant(seg);
    return goodOnly ? (PARAM_GOOD[m[1]!] ?? text).map(encodeURIComponent) : segment(m[1]!);
  });
  return fc.tuple(...parts).map((segs) => segs.join('/'));
};

const queryValue = (key: string) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: (GOOD[key] ?? anyGood).map((v) =>
        Array.isArray(v)
          ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x)))
          : typeof v === 'object'
            ? JSON.stringify(v)
            : String(v),
      ),
    },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...NASTY_STRINGS), { minLength: 2, maxLength: 4 }) },
  );
const QUERY_EXTRA = [
  'filters',
  'reranking',
  'amt',
  'cursor',
  'table',
  'scenario',
  'user_id',
  'page',
  'exclude_rated_items',
  'skip_default_scenario',
  'start_timestamp',
  'properties',
];
const queryOf = (route: Route) =>
  fc
    .tuple(
      fc
        .subarray([...new Set([...schemaKeys(route.query), ...QUERY_EXTRA])], { maxLength: 4 })
        .chain((keys) => fc.tuple(...keys.map((k) => queryValue(k).map((v) => [k, v] as const)))),
      fc.option(fc.constantFrom('&', '=', '&&=&', 'a=%ZZ', '%=1', '=x', 'amt', 'filters[]=1', `${'a'.repeat(3000)}=1`), { freq: 8 }),
    )
    .map(([pairs, raw]) => {
      const p = new URLSearchParams();
      for (const [k, v] of pairs) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      const q = p.toString();
      return raw ? (q ? `${q}&${raw}` : raw) : q;
    });

type Encoding = 'json' | 'msgpack' | 'pickle' | 'raw';
const msgpack = new Encoder({ maxDepth: 20_000, ignoreUndefined: true });
const RAW_BODIES = [
  '{',
  '[',
  '{"a":}',
  'null',
  '"x"',
  '1',
  '[1,2]',
  'NaN',
  '{"amt": 1e999}',
  '\u0000',
  '\xff\xfe',
  '{"__proto__": {"x": 1}}',
  '{"a":1,"a":2}',
  '{"filters": "price:lt:3"}',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
];

function encodeBody(value: unknown, how: Encoding): Buffer {
  switch (how) {
    case 'json': {
      const deeps: Deep[] = [];
      const text = JSON.stringify(value, (_k, v: unknown) => (v instanceof Deep ? `\u0000deep${deeps.push(v) - 1}` : v)) ?? 'null';
      return Buffer.from(text.replace(/"\\u0000deep(\d+)"/g, (_m, k: string) => deeps[Number(k)]!.text()));
    }
    case 'msgpack':
      return Buffer.from(msgpack.encode(capped(value)));
    case 'pickle':
      return Buffer.from(encodePickle(capped(value)));
    case 'raw':
      return Buffer.from(value as string, 'latin1');
  }
}
function capped(v: unknown): unknown {
  if (v instanceof Deep) return v.value(120);
  if (v instanceof NumpyRecords) return v;
  if (Array.isArray(v)) return v.map(capped);
  if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, capped(x)]));
  return v;
}
const CONTENT_TYPE: Record<Encoding, string> = {
  json: 'application/json',
  msgpack: 'application/msgpack',
  pickle: 'application/service-pkl',
  raw: 'application/json',
};

interface Req {
  route: string;
  method: string;
  path: string;
  query: string;
  // none: no Authorization header; odd: the header as `headers` has it.
  role: Role | 'none' | 'odd';
  headers: Record<string, string>;
  body: Buffer | undefined;
}

// Authorization headers that are not a valid token: malformed, tampered, alg none, another scheme.
const [jwtHead, jwtBody, jwtSig] = backend.split('.') as [string, string, string];
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ODD_AUTH = [
  'Bearer abc.def.ghi',
  'Bearer',
  'Bearer ',
  'Basic dXNlcjpwYXNz',
  `bearer ${backend}`,
  `Bearer ${backend}x`,
  `Bearer ${jwtHead}.${b64({ ...JSON.parse(Buffer.from(jwtBody, 'base64url').toString()), role: 'root' })}.${jwtSig}`,
  `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${jwtBody}.`,
  `Bearer ${jwtHead}.${b64({ exp: 'never', role: ['root'], db: { a: 1 } })}.${jwtSig}`,
  `Bearer ${jwtHead}.!!!.${jwtSig}`,
  `Bearer ${'a'.repeat(10_000)}`,
  `Bearer ${backend}, Bearer ${backend}`,
];
const headersArb = fc.record(
  {
    authorization: fc.constantFrom(...ODD_AUTH),
    accept: fc.constantFrom(
      'application/json',
      'application/msgpack',
      'application/service-pkl',
      '*/*',
      'text/html',
      'application/json;q=abc',
      ',,;;',
      '',
    ),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'gzip;q=0', 'x-nope', ''),
    'x-odd-header': fc.constantFrom('\t', 'x'.repeat(4000)),
  },
  { requiredKeys: [] },
);

// Columnar bodies as Python clients send them (numpy structured arrays), with columns of any dtype.
const column = (n: number): fc.Arbitrary<NumpyArray> =>
  fc.oneof(
    fc.array(fc.nat({ max: 60 }), { minLength: n, maxLength: n }).map((a) => new NumpyArray(Uint32Array.from(a))),
    fc.array(fc.integer({ min: -5, max: 2 ** 31 - 1 }), { minLength: n, maxLength: n }).map((a) => new NumpyArray(Int32Array.from(a))),
    fc.array(fc.double(), { minLength: n, maxLength: n }).map((a) => new NumpyArray(Float64Array.from(a))),
    fc.array(fc.float({ min: 0, max: 12, noNaN: true }), { minLength: n, maxLength: n }).map((a) => new NumpyArray(Float32Array.from(a))),
    fc
      .array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { minLength: n, maxLength: n })
      .map((a) => new NumpyArray(BigInt64Array.from(a))),
    fc
      .array(fc.oneof(fc.constantFrom('a', 'b', 'x', uid(1), '7'), fc.string({ maxLength: 10 })), { minLength: n, maxLength: n })
      .map((a) => new NumpyArray(a)),
    fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((a) => new NumpyArray(Uint8Array.from(a, Number), 'bool')),
  );
const COLUMNS = [
  'item_id',
  'user_id',
  'rating',
  'timestamp',
  'genre',
  'price',
  'tags',
  'age',
  'item_index',
  'user_index',
  'value_id',
  'other',
];
const numpyColumnar = fc
  .tuple(fc.integer({ min: 0, max: 5 }), fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 5 }))
  .chain(([n, names]) => fc.tuple(...names.map((name) => column(n).map((c) => [name, c] as const))))
  .map((cols) => new NumpyRecords(Object.fromEntries(cols)));

const allowedRoles = (route: Route): Role[] => (typeof route.access === 'string' ? [...ROLES] : [...route.access]);

function requestOf(route: Route): fc.Arbitrary<Req> {
  const allowed = allowedRoles(route);
  const role = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom<Role>(...allowed) },
    { weight: 1, arbitrary: fc.constantFrom<Req['role']>(...ROLES, 'none', 'odd') },
  );
  const keys = schemaKeys(route.body);
  const value = fc.oneof(
    { weight: 8, arbitrary: fieldsOf(keys.length ? keys : ['amt']) as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: bad },
  );
  // The route's columnar fields as numpy structured arrays (and an m2m entry's `array`), in pickle.
  const columnar = route.columnar ?? [];
  const withColumnar = fc.tuple(value, ...columnar.map(() => numpyColumnar)).map(([v, ...ts]) => {
    const body = typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : {};
    columnar.forEach((f, k) => ((body as Record<string, unknown>)[f] = f.endsWith('_m2m') ? [{ name: 'tags', array: ts[k] }] : ts[k]));
    return body;
  });
  const body = fc.oneof(
    {
      weight: route.body ? 10 : 1,
      arbitrary: fc.tuple(value, fc.constantFrom<Encoding>('json', 'json', 'json', 'json', 'msgpack', 'pickle')),
    },
    { weight: columnar.length ? 4 : 0, arbitrary: fc.tuple(withColumnar, fc.constant<Encoding>('pickle')) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom<unknown>(...RAW_BODIES), fc.constant<Encoding>('raw')) },
    { weight: route.body ? 1 : 6, arbitrary: fc.constant(undefined) },
  );
  const contentType = fc.option(
    fc.constantFrom(
      'text/plain',
      'application/json; charset=latin1',
      'application/x-msgpack',
      'application/xminds-pkl',
      'multipart/form-data; boundary=x',
      ';',
      'application/json, application/msgpack',
    ),
    { freq: 10 },
  );
  const contentEncoding = fc.oneof(
    { weight: 10, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.constantFrom('gzip', 'gzip-lie', 'br', 'deflate', 'x-nope', 'gzip, gzip') },
  );
  return fc
    .tuple(
      role,
      pathOf(route),
      route.query ? queryOf(route) : fc.option(queryOf(route), { freq: 6 }).map((q) => q ?? ''),
      body,
      contentType,
      contentEncoding,
      headersArb,
    )
    .map(([who, path, query, b, ct, ce, hs]) => {
      const headers: Record<string, string> = { ...hs };
      let bytes: Buffer | undefined;
      if (b) {
        const [v, how] = b;
        bytes = encodeBody(v, how);
        headers['content-type'] = ct ?? CONTENT_TYPE[how];
        if (ce === 'gzip') bytes = gzipSync(bytes);
        if (ce !== '') headers['content-encoding'] = ce === 'gzip-lie' ? 'gzip' : ce;
      }
      return { route: keyOf(route), method: route.method, path, query, role: who, headers, body: bytes };
    });
}

// Besides the random ones: each body field of each route holding a value 33, 100 and 5,000 deep, at
// the top of the field and somewhere inside a plausible value, the rest of the body plausible.
function deepEverywhere(route: Route): fc.Arbitrary<Req[]> {
  const keys = schemaKeys(route.body);
  const role = allowedRoles(route).includes('backend') ? 'backend' : allowedRoles(route)[0]!;
  const goodBody = fc.record(Object.fromEntries(keys.map((k) => [k, GOOD[k] ?? anyGood])));
  return fc.tuple(pathOf(route, true), goodBody, fc.nat()).map(([path, good, pick]) =>
    keys.flatMap((k) =>
      [33, 100, 5_000].flatMap((n) =>
        [deep(n), broken(structuredClone(good[k]), deep(n), pick + 1)].map((v) => ({
          route: keyOf(route),
          method: route.method,
          path,
          query: '',
          role,
          headers: { 'content-type': 'application/json' },
          body: encodeBody({ ...good, [k]: v }, 'json'),
        })),
      ),
    ),
  );
}

// Spread evenly over the routes, then shuffled by the seed.
const perRoute = Math.ceil(runs / routes.length);
const fuzzed = routes.filter((r) => !DESTRUCTIVE.has(keyOf(r)));
const generated = fuzzed.flatMap((r) => [
  ...fc.sample(requestOf(r), { seed: seed ^ hash(keyOf(r)), numRuns: perRoute }),
  ...fc.sample(deepEverywhere(r), { seed: seed ^ hash(keyOf(r)), numRuns: 1 })[0]!,
]);
const requests: Req[] = fc.sample(fc.shuffledSubarray(generated, { minLength: generated.length }), { seed, numRuns: 1 })[0]!;
const lastOnes = routes
  .filter((r) => DESTRUCTIVE.has(keyOf(r)))
  .flatMap((r) => fc.sample(requestOf(r), { seed: seed ^ hash(keyOf(r)), numRuns: 4 }));

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

// ---- running -------------------------------------------------------------------------------------

// The error body in whichever codec the request's Accept chose.
function errorBody(r: Res): { error_data?: { name?: string } } | undefined {
  const type = String(r.headers['content-type'] ?? '');
  try {
    if (type.startsWith('application/msgpack')) return msgpackDecode(r.bytes) as never;
    if (type.startsWith('application/service-pkl')) return decodePickle(r.bytes) as never;
    return r.body;
  } catch {
    return undefined;
  }
}
// 503s a client's request may get by the spec: an interaction type without a rule.
const clientsOwn503 = (r: Res) => r.status === 503 && errorBody(r)?.error_data?.name === 'DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND';

function send(req: Req, token: (role: Role) => Promise<string> | string): Promise<Res> | Res {
  const headers = { ...req.headers };
  if (req.role === 'none') delete headers.authorization;
  if (req.role === 'none' || req.role === 'odd')
    return api.call(req.method, req.path, { raw: req.body, headers, query: req.query || undefined });
  return Promise.resolve(token(req.role)).then((t) =>
    api.call(req.method, req.path, { raw: req.body, headers: { ...headers, authorization: `Bearer ${t}` }, query: req.query || undefined }),
  );
}

function describe(index: number, req: Req, r: Res): string {
  const body = req.body ? req.body.subarray(0, 300).toString('latin1') : '';
  return `#${index} ${req.method} /v1/${req.path}${req.query ? `?${req.query.slice(0, 200)}` : ''} as ${req.role} ${JSON.stringify(req.headers).slice(0, 300)} body(${req.body?.length ?? 0}) ${JSON.stringify(body)} → ${r.status} ${r.text.slice(0, 300)}`;
}

async function run(): Promise<FuzzDone> {
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  const answered = new Set<string>();
  const note = (index: number, req: Req, r: Res) => {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status < 500) answered.add(req.route);
    else if (!clientsOwn503(r)) failures.push(describe(index, req, r));
  };
  const started = Date.now();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < requests.length; i = next++) note(i, requests[i]!, await send(requests[i]!, (role) => tokens[role]));
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const seconds = (Date.now() - started) / 1000;
  // Each destructive request with an account of its role on a throwaway database.
  for (const [k, req] of lastOnes.entries())
    note(requests.length + k, req, await send(req, async (role) => tokenFor(api, root, role, await createDatabase(api, root))));
  return { kind: 'done', seconds, statuses, failures, unanswered: routes.map(keyOf).filter((k) => !answered.has(k)) };
}

// The main thread measures memory with this thread's garbage collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
parentPort!.postMessage({ kind: 'ready', requests: requests.length + lastOnes.length, routes: routes.length } satisfies FuzzReady);
parentPort!.once('message', async () => {
  const done = await run();
  gc();
  parentPort!.postMessage(done);
});
