// Item and user property definitions: items-properties/ and users-properties/ (list, create, get, delete),
// value types, names, case-insensitive identity, metadata, roles, isolation and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

interface Kind {
  kind: 'item' | 'user';
  prefix: string;
  duplicated: string;
  notFound: string;
}

const KINDS: readonly Kind[] = [
  { kind: 'item', prefix: 'items-properties', duplicated: 'DUPLICATED_ITEM_PROPERTY', notFound: 'ITEM_PROPERTY_NOT_FOUND' },
  { kind: 'user', prefix: 'users-properties', duplicated: 'DUPLICATED_USER_PROPERTY', notFound: 'USER_PROPERTY_NOT_FOUND' },
];

const VALUE_TYPES = [
  'float',
  'float32',
  'float64',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'bool',
  'unicode1',
  'unicode10',
  'unicode999',
];
const BAD_VALUE_TYPES = ['int', 'unicode', 'unicode0', 'unicode1000', 'float16', 'str', ''];
const BAD_NAMES = ['', 'a b', 'naïve', 'x/y', 'a'.repeat(65)];
const RESERVED_NAMES = ['item_id', 'USER_ID', 'user_id'];
const GOOD_NAMES = ['a'.repeat(64), 'a.b', 'a_b', 'a-b', 'Mixed.Case_name-9'];

const NOT_FOUND_DB = { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' };
const FORBIDDEN = { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' };

// A new database and a backend token bound to it.
async function freshDb(): Promise<{ id: string; token: string }> {
  const id = await createDatabase(api, root);
  return { id, token: await tokenFor(api, root, 'backend', id) };
}

const one = (k: Kind, name: string) => `${k.prefix}/${encodeURIComponent(name)}/`;

// The public record the service should answer for a definition.
function record(k: Kind, name: string, valueType: string, repeated = false, metadata: unknown = {}) {
  return k.kind === 'item'
    ? { property_name: name, value_type: valueType, repeated, metadata }
    : { property_name: name, value_type: valueType, repeated };
}

async function listed(k: Kind, token: string): Promise<any[]> {
  const r = await api.get(`${k.prefix}/`, { token });
  if (r.status !== 200) throw new Error(`listing ${k.prefix} failed: ${r.text}`);
  return r.body.properties;
}

const names = (props: { property_name: string }[]) => props.map((p) => p.property_name);

// Every key of the Redis instance that carries the database's hash tag.
async function keysOf(dbId: string): Promise<string[]> {
  const tag = `{db:${dbId}}`;
  return (await stack.redis.keys('*')).filter((key) => key.startsWith(tag));
}

for (const k of KINDS) {
  t.test(`${k.prefix}: every value type can be defined, repeated or not; the listing keeps creation order`, async (t) => {
    const { token } = await freshDb();
    const empty = await api.get(`${k.prefix}/`, { token });
    t.equal(empty.status, 200);
    t.same(empty.body.properties, [], 'a new database has no definitions');
    t.ok(Array.isArray(empty.body.warnings), 'warnings is a list');

    const expected: ReturnType<typeof record>[] = [];
    for (const vt of VALUE_TYPES) {
      const variants: [string, Record<string, unknown>, boolean][] = [
        [`Prop_${vt}`, {}, false],
        [`Prop_${vt}.List`, { repeated: true }, true],
        [`prop-${vt}-single`, { repeated: false }, false],
      ];
      for (const [name, extra, repeated] of variants) {
        const r = await api.post(`${k.prefix}/`, { property_name: name, value_type: vt, ...extra }, { token });
        t.equal(r.status, 204, `${name} created`);
        t.equal(r.text, '', `${name}: empty body`);
        expected.push(record(k, name, vt, repeated));
      }
    }

    const list = await api.get(`${k.prefix}/`, { token });
    t.equal(list.status, 200);
    t.ok(Array.isArray(list.body.warnings), 'warnings is a list');
    t.same(names(list.body.properties), names(expected), 'creation order, original case');
    t.same(list.body.properties, expected, 'every record as created');
    for (const p of list.body.properties) {
      if (k.kind === 'item') t.ok('metadata' in p, `${p.property_name} carries metadata`);
      else t.notOk('metadata' in p, `${p.property_name} carries no metadata key`);
    }

    for (const e of expected) {
      const g = await api.get(one(k, e.property_name), { token });
      t.equal(g.status, 200, e.property_name);
      t.same(g.body, e, `GET ${e.property_name}`);
      if (k.kind === 'user') t.notOk('metadata' in g.body, `${e.property_name}: no metadata key`);
    }
  });

  t.test(`${k.prefix}: GET one answers for any letter case with the original name`, async (t) => {
    const { token } = await freshDb();
    const name = 'Genre.Main-x_1';
    t.equal((await api.post(`${k.prefix}/`, { property_name: name, value_type: 'unicode32', repeated: true }, { token })).status, 204);
    for (const variant of [name, name.toLowerCase(), name.toUpperCase(), 'gEnRe.mAiN-X_1']) {
      const g = await api.get(one(k, variant), { token });
      t.equal(g.status, 200, variant);
      t.same(g.body, record(k, name, 'unicode32', true), variant);
    }
  });

  t.test(`${k.prefix}: a name is taken case-insensitively (${k.duplicated})`, async (t) => {
    const { token } = await freshDb();
    t.equal((await api.post(`${k.prefix}/`, { property_name: 'Genre', value_type: 'unicode16' }, { token })).status, 204);
    const attempts: [string, string][] = [
      ['genre', 'unicode16'],
      ['GENRE', 'int8'],
      ['Genre', 'unicode16'],
      ['gEnRe', 'bool'],
    ];
    for (const [variant, vt] of attempts) {
      const r = await api.post(`${k.prefix}/`, { property_name: variant, value_type: vt, repeated: true }, { token });
      t.same(errorOf(r), { status: 400, code: 42, errorName: 'DuplicatedError', name: k.duplicated }, variant);
      t.equal(r.body.error_data?.type, 'property', variant);
      t.equal(r.body.error_data?.key, variant, variant);
    }
    t.same(await listed(k, token), [record(k, 'Genre', 'unicode16')], 'only the first definition, unchanged');
  });

  t.test(`${k.prefix}: unsupported value types are WrongData WRONG_DATA_TYPE`, async (t) => {
    const { token } = await freshDb();
    for (const bad of BAD_VALUE_TYPES) {
      const name = `p_${bad}`;
      const r = await api.post(`${k.prefix}/`, { property_name: name, value_type: bad }, { token });
      t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_DATA_TYPE' }, JSON.stringify(bad));
      t.equal(r.body.error_data?.field, 'value_type', JSON.stringify(bad));
    }
    for (const long of ['unicode1000', 'float64float64', 'x'.repeat(11)]) {
      const r = await api.post(`${k.prefix}/`, { property_name: 'too_long', value_type: long }, { token });
      t.equal(r.status, 400, long);
      t.equal(r.body.error_name, 'WrongData', long);
      t.equal(r.body.error_code, 40, long);
    }
    t.same(await listed(k, token), [], 'no refused definition was stored');
    // A refused creation claims nothing: the name is still free.
    t.equal((await api.post(`${k.prefix}/`, { property_name: 'p_int', value_type: 'int32' }, { token })).status, 204);
  });

  t.test(`${k.prefix}: invalid and reserved names are WrongData WRONG_PARAMETER on property_name`, async (t) => {
    const { token } = await freshDb();
    for (const bad of [...BAD_NAMES, ...RESERVED_NAMES]) {
      const r = await api.post(`${k.prefix}/`, { property_name: bad, value_type: 'float' }, { token });
      const what = `${JSON.stringify(bad)}`;
      t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, what);
      t.equal(r.body.error_data?.field, 'property_name', what);
    }
    t.same(await listed(k, token), [], 'no refused name was stored');

    for (const good of GOOD_NAMES) {
      const r = await api.post(`${k.prefix}/`, { property_name: good, value_type: 'float' }, { token });
      t.equal(r.status, 204, `${good} accepted (${good.length} chars)`);
      const g = await api.get(one(k, good), { token });
      t.equal(g.status, 200, `${good} readable`);
      t.equal(g.body.property_name, good);
    }
    t.same(names(await listed(k, token)), GOOD_NAMES);
  });

  t.test(`${k.prefix}: DELETE removes a definition (any case); the name can be defined again`, async (t) => {
    const { token } = await freshDb();
    const defs: [string, string][] = [
      ['Colour', 'unicode8'],
      ['size', 'uint16'],
      ['weight', 'float64'],
    ];
    for (const [name, vt] of defs) {
      t.equal((await api.post(`${k.prefix}/`, { property_name: name, value_type: vt }, { token })).status, 204, name);
    }

    const d = await api.delete(one(k, 'COLOUR'), undefined, { token });
    t.equal(d.status, 204, 'deleted through another case');
    t.equal(d.text, '', 'empty body');
    for (const variant of ['Colour', 'colour']) {
      const g = await api.get(one(k, variant), { token });
      t.same(errorOf(g), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, `GET ${variant}`);
      t.equal(g.body.error_data?.type, 'property', variant);
      t.equal(g.body.error_data?.key, variant, variant);
    }
    const again = await api.delete(one(k, 'Colour'), undefined, { token });
    t.same(errorOf(again), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, 'second DELETE');
    t.equal(again.body.error_data?.type, 'property');
    t.equal(again.body.error_data?.key, 'Colour');

    const never = await api.get(one(k, 'never-defined'), { token });
    t.same(errorOf(never), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, 'GET of a name never defined');
    t.equal(never.body.error_data?.key, 'never-defined');
    const neverDel = await api.delete(one(k, 'never-defined'), undefined, { token });
    t.same(errorOf(neverDel), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, 'DELETE of a name never defined');

    t.same(await listed(k, token), [record(k, 'size', 'uint16'), record(k, 'weight', 'float64')], 'the others are untouched');

    // Defined again, in another case and with another type: it is a new definition, listed last.
    const re = await api.post(`${k.prefix}/`, { property_name: 'colour', value_type: 'int32', repeated: true }, { token });
    t.equal(re.status, 204, 'a deleted name can be created again');
    t.same(await listed(k, token), [record(k, 'size', 'uint16'), record(k, 'weight', 'float64'), record(k, 'colour', 'int32', true)]);
    const g = await api.get(one(k, 'COLOUR'), { token });
    t.same(g.body, record(k, 'colour', 'int32', true));
  });

  t.test(`${k.prefix}: definitions of one database are invisible from another`, async (t) => {
    const a = await freshDb();
    const b = await freshDb();
    t.equal((await api.post(`${k.prefix}/`, { property_name: 'Shared', value_type: 'bool' }, { token: a.token })).status, 204);

    t.same(await listed(k, b.token), [], 'not listed in the other database');
    const g = await api.get(one(k, 'shared'), { token: b.token });
    t.same(errorOf(g), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, 'not readable from the other database');
    const d = await api.delete(one(k, 'Shared'), undefined, { token: b.token });
    t.same(errorOf(d), { status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound }, 'not deletable from the other database');

    // The other database may use the name for its own definition.
    t.equal(
      (await api.post(`${k.prefix}/`, { property_name: 'SHARED', value_type: 'int64', repeated: true }, { token: b.token })).status,
      204,
    );
    t.same(await listed(k, b.token), [record(k, 'SHARED', 'int64', true)]);
    t.same(await listed(k, a.token), [record(k, 'Shared', 'bool')], 'the first database keeps its own definition');
    t.equal((await api.delete(one(k, 'shared'), undefined, { token: b.token })).status, 204);
    t.same(await listed(k, a.token), [record(k, 'Shared', 'bool')], 'deleting in one database leaves the other alone');
  });
}

t.test('missing or mistyped fields are WrongData and store nothing', async (t) => {
  const { token } = await freshDb();
  for (const k of KINDS) {
    const bodies: Record<string, unknown>[] = [
      { value_type: 'float' },
      { property_name: 'no_type' },
      { property_name: 'numeric_type', value_type: 5 },
      { property_name: 7, value_type: 'float' },
      { property_name: 'bad_repeated', value_type: 'float', repeated: 'yes' },
    ];
    for (const body of bodies) {
      const r = await api.post(`${k.prefix}/`, body, { token });
      t.equal(r.status, 400, `${k.prefix} ${JSON.stringify(body)}`);
      t.equal(r.body.error_name, 'WrongData', `${k.prefix} ${JSON.stringify(body)}`);
    }
    t.same(await listed(k, token), [], `${k.prefix}: nothing stored`);
  }
});

t.test('item and user properties are separate namespaces', async (t) => {
  const { token } = await freshDb();
  t.equal((await api.post('items-properties/', { property_name: 'age', value_type: 'uint8' }, { token })).status, 204);
  t.same(errorOf(await api.get('users-properties/age/', { token })), {
    status: 404,
    code: 60,
    errorName: 'NotFoundError',
    name: 'USER_PROPERTY_NOT_FOUND',
  });
  t.equal(
    (await api.post('users-properties/', { property_name: 'AGE', value_type: 'int16', repeated: true }, { token })).status,
    204,
    'the same name as a user property',
  );
  t.same(await listed(KINDS[0]!, token), [record(KINDS[0]!, 'age', 'uint8')]);
  t.same(await listed(KINDS[1]!, token), [record(KINDS[1]!, 'AGE', 'int16', true)]);
  t.equal((await api.delete('users-properties/age/', undefined, { token })).status, 204);
  t.same(await listed(KINDS[0]!, token), [record(KINDS[0]!, 'age', 'uint8')], 'deleting the user property keeps the item property');
  t.same(await listed(KINDS[1]!, token), []);
});

t.test('item property metadata: any JSON round-trips, default {}', async (t) => {
  const items = KINDS[0]!;
  const { token } = await freshDb();
  const cases: [string, unknown][] = [
    ['m_object', { label: 'Genre', nested: { a: [1, 2.5, 'x'], b: null, c: true }, ünïcode: '日本' }],
    ['m_list', [1, 'two', { three: 3 }, [4], null, false]],
    ['m_string', 'just a string'],
    ['m_number', 42.5],
    ['m_zero', 0],
    ['m_negative', -7],
    ['m_false', false],
    ['m_true', true],
    ['m_empty_string', ''],
    ['m_empty_list', []],
    ['m_empty_object', {}],
  ];
  for (const [name, metadata] of cases) {
    const r = await api.post('items-properties/', { property_name: name, value_type: 'float', metadata }, { token });
    t.equal(r.status, 204, name);
  }
  t.equal((await api.post('items-properties/', { property_name: 'm_default', value_type: 'float' }, { token })).status, 204);

  const expected = [
    ...cases.map(([name, metadata]) => record(items, name, 'float', false, metadata)),
    record(items, 'm_default', 'float', false, {}),
  ];
  // Order is checked elsewhere: here each listed record is matched by name.
  const byName = new Map((await listed(items, token)).map((p) => [p.property_name as string, p]));
  t.same([...byName.keys()].sort(), expected.map((e) => e.property_name).sort(), 'every definition is listed');
  for (const e of expected) t.strictSame(byName.get(e.property_name), e, `listing carries the metadata of ${e.property_name} as sent`);
  for (const e of expected) {
    const g = await api.get(one(items, e.property_name), { token });
    t.equal(g.status, 200, e.property_name);
    t.same(g.body, e, `GET ${e.property_name}`);
    t.strictSame((g.body as { metadata: unknown }).metadata, (e as { metadata: unknown }).metadata, `${e.property_name}: metadata exactly`);
  }
});

t.test('user property creation ignores indexed and does not store metadata', async (t) => {
  const users = KINDS[1]!;
  const { token } = await freshDb();
  const withIndexed = await api.post('users-properties/', { property_name: 'country', value_type: 'unicode2', indexed: true }, { token });
  t.equal(withIndexed.status, 204, 'indexed is accepted and ignored');
  t.equal(withIndexed.text, '');
  const notIndexed = await api.post(
    'users-properties/',
    { property_name: 'tags', value_type: 'unicode16', repeated: true, indexed: false },
    { token },
  );
  t.equal(notIndexed.status, 204);
  const withMeta = await api.post(
    'users-properties/',
    { property_name: 'score', value_type: 'float32', metadata: { label: 'Score' } },
    { token },
  );
  t.equal(withMeta.status, 204, 'metadata on a user property does not fail creation');

  const expected = [record(users, 'country', 'unicode2'), record(users, 'tags', 'unicode16', true), record(users, 'score', 'float32')];
  const list = await listed(users, token);
  t.same(list, expected);
  for (const p of list) {
    t.notOk('metadata' in p, `${p.property_name}: no metadata`);
    t.notOk('indexed' in p, `${p.property_name}: no indexed`);
  }
  for (const e of expected) {
    const g = await api.get(one(users, e.property_name), { token });
    t.equal(g.status, 200);
    t.strictSame(g.body, e, `GET ${e.property_name}: exactly the user property record`);
  }
});

t.test('a token whose database was deleted gets DATABASE_NOT_FOUND and recreates no key', async (t) => {
  const id = await createDatabase(api, root);
  const backend = await tokenFor(api, root, 'backend', id);
  const manager = await tokenFor(api, root, 'manager', id);
  for (const k of KINDS) {
    t.equal((await api.post(`${k.prefix}/`, { property_name: 'Before', value_type: 'int32' }, { token: backend })).status, 204, k.prefix);
  }
  t.ok((await keysOf(id)).length > 0, 'the database has keys');

  const d = await api.delete('databases/current/', undefined, { token: manager });
  t.ok(d.status === 200 || d.status === 204, `database delete answered ${d.status}`);
  t.same(await keysOf(id), [], 'no key left after the database delete');

  for (const k of KINDS) {
    t.same(errorOf(await api.get(`${k.prefix}/`, { token: backend })), NOT_FOUND_DB, `${k.prefix} list`);
    const c = await api.post(`${k.prefix}/`, { property_name: 'After', value_type: 'int32' }, { token: backend });
    t.same(errorOf(c), NOT_FOUND_DB, `${k.prefix} create`);
    t.same(errorOf(await api.get(one(k, 'Before'), { token: backend })), NOT_FOUND_DB, `${k.prefix} get`);
    t.same(errorOf(await api.get(one(k, 'After'), { token: backend })), NOT_FOUND_DB, `${k.prefix} get of the refused name`);
    t.same(errorOf(await api.delete(one(k, 'Before'), undefined, { token: backend })), NOT_FOUND_DB, `${k.prefix} delete`);
    // Once more with a name that never existed, for the write paths.
    t.same(
      errorOf(await api.post(`${k.prefix}/`, { property_name: 'Before', value_type: 'float' }, { token: backend })),
      NOT_FOUND_DB,
      `${k.prefix} create of the old name`,
    );
  }
  t.same(await keysOf(id), [], 'no key of the deleted database came back');
});

t.test('roles: frontend may only list item properties; root, manager and backend may do all', async (t) => {
  const id = await createDatabase(api, root);
  const tokens: Record<string, string> = {};
  for (const role of ['root', 'manager', 'backend', 'frontend']) tokens[role] = await tokenFor(api, root, role, id);
  const frontend = tokens.frontend!;
  const backend = tokens.backend!;

  t.equal((await api.post('items-properties/', { property_name: 'Existing', value_type: 'bool' }, { token: backend })).status, 204);
  t.equal((await api.post('users-properties/', { property_name: 'Existing', value_type: 'bool' }, { token: backend })).status, 204);

  const list = await api.get('items-properties/', { token: frontend });
  t.equal(list.status, 200, 'frontend lists item properties');
  t.same(list.body.properties, [record(KINDS[0]!, 'Existing', 'bool')]);
  t.ok(Array.isArray(list.body.warnings));

  const refused: [string, string, unknown][] = [
    ['POST', 'items-properties/', { property_name: 'ByFrontend', value_type: 'bool' }],
    ['GET', 'items-properties/Existing/', undefined],
    ['DELETE', 'items-properties/Existing/', undefined],
    ['GET', 'users-properties/', undefined],
    ['POST', 'users-properties/', { property_name: 'ByFrontend', value_type: 'bool' }],
    ['GET', 'users-properties/Existing/', undefined],
    ['DELETE', 'users-properties/Existing/', undefined],
  ];
  for (const [method, path, body] of refused) {
    const r = await api.call(method, path, { token: frontend, body });
    t.same(errorOf(r), FORBIDDEN, `frontend ${method} ${path}`);
  }
  // The refused calls changed nothing.
  t.same(names(await listed(KINDS[0]!, backend)), ['Existing'], 'item definitions unchanged');
  t.same(names(await listed(KINDS[1]!, backend)), ['Existing'], 'user definitions unchanged');

  for (const role of ['root', 'manager', 'backend']) {
    const token = tokens[role]!;
    for (const k of KINDS) {
      const name = `By_${role}`;
      const c = await api.post(`${k.prefix}/`, { property_name: name, value_type: 'uint32', repeated: true }, { token });
      t.equal(c.status, 204, `${role} creates on ${k.prefix}`);
      const l = await api.get(`${k.prefix}/`, { token });
      t.equal(l.status, 200, `${role} lists ${k.prefix}`);
      t.same(names(l.body.properties), ['Existing', name], `${role} sees ${k.prefix}`);
      const g = await api.get(one(k, name.toLowerCase()), { token });
      t.equal(g.status, 200, `${role} reads on ${k.prefix}`);
      t.same(g.body, record(k, name, 'uint32', true));
      const d = await api.delete(one(k, name), undefined, { token });
      t.equal(d.status, 204, `${role} deletes on ${k.prefix}`);
      t.same(names(await listed(k, token)), ['Existing'], `${role}: deleted from ${k.prefix}`);
    }
  }
});
