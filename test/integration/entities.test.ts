// Single items and users: items/<id>/properties/ and users/<id>/properties/ (GET, PUT, PATCH, DELETE),
// their deprecated aliases items/<id>/ and users/<id>/, identifier types, value checks, roles,
// the catalogue change stream and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import type { Res } from '../helpers/api.js';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const WRONG_DATA_TYPE = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_DATA_TYPE' };
const WRONG_PARAMETER = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' };
const DATABASE_NOT_FOUND = { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' };
const FORBIDDEN = { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' };

interface Kind {
  kind: 'item' | 'user';
  plural: 'items' | 'users';
  idField: 'item_id' | 'user_id';
  created: 'item_created' | 'user_created';
  modified: 'item_modified' | 'user_modified';
  notFound: string;
  idError: string;
  propsPrefix: string;
}

const ITEM: Kind = {
  kind: 'item',
  plural: 'items',
  idField: 'item_id',
  created: 'item_created',
  modified: 'item_modified',
  notFound: 'ITEM_NOT_FOUND',
  idError: 'INCORRECT_ITEM_ID_TYPE',
  propsPrefix: 'items-properties',
};
const USER: Kind = {
  kind: 'user',
  plural: 'users',
  idField: 'user_id',
  created: 'user_created',
  modified: 'user_modified',
  notFound: 'USER_NOT_FOUND',
  idError: 'INCORRECT_USER_ID_TYPE',
  propsPrefix: 'users-properties',
};

const notFoundOf = (k: Kind) => ({ status: 404, code: 60, errorName: 'NotFoundError', name: k.notFound });
const badIdOf = (k: Kind) => ({ status: 400, code: 40, errorName: 'WrongData', name: k.idError });

// The definitions every test database gets, for items and users alike (created in this case).
const PROPS = [
  { property_name: 'Price', value_type: 'float' },
  { property_name: 'Precise', value_type: 'float64' },
  { property_name: 'Level', value_type: 'int8' },
  { property_name: 'Count', value_type: 'uint32' },
  { property_name: 'Active', value_type: 'bool' },
  { property_name: 'Title', value_type: 'unicode5' },
  { property_name: 'Tags', value_type: 'unicode10', repeated: true },
  { property_name: 'Scores', value_type: 'float64', repeated: true },
  { property_name: 'Flags', value_type: 'bool', repeated: true },
  { property_name: 'Sizes', value_type: 'int8', repeated: true },
];

// One value of every property: type bounds, non-ASCII text (5 code points, 6 UTF-16 units), lists.
const FULL: Record<string, unknown> = {
  Price: 3.4e38,
  Precise: 1.0000000000000002,
  Level: -128,
  Count: 4294967295,
  Active: true,
  Title: '\u00dcn\u00ef\u{1F600}\u00e9',
  Tags: ['na\u00efve', '\u65e5\u672c\u8a9e', ''],
  Scores: [0.1, -2.5e-300, 1.7976931348623157e308],
  Flags: [true, false, true],
  Sizes: [-128, 0, 127],
};
// A replacement holding fewer properties and the other bounds.
const SECOND: Record<string, unknown> = {
  Level: 127,
  Count: 0,
  Active: false,
  Title: 'abcde',
  Tags: [],
  Price: -0.5,
};

interface Db {
  id: string;
  token: string;
}

async function define(token: string, k: Kind, def: Record<string, unknown>): Promise<void> {
  const r = await api.post(`${k.propsPrefix}/`, def, { token });
  if (r.status !== 204) throw new Error(`defining ${JSON.stringify(def)} failed: ${r.text}`);
}

// A database with the given identifier types, a backend token, and PROPS for items and users.
async function setupDb(itemIdType: string, userIdType: string, props = PROPS): Promise<Db> {
  const id = await createDatabase(api, root, { item_id_type: itemIdType, user_id_type: userIdType });
  const token = await tokenFor(api, root, 'backend', id);
  for (const k of [ITEM, USER]) for (const p of props) await define(token, k, p);
  return { id, token };
}

interface Id {
  raw: string; // as written in the path
  canonical: string | number; // as the API shows it
}

let seq = 1000;
const uint32Id = (): Id => {
  const v = ++seq;
  return { raw: String(v), canonical: v };
};
const uuidId = (): Id => {
  const v = randomUUID();
  return { raw: v, canonical: v };
};
const urlsafeId = (): Id => {
  const v = `u-${++seq}_Xy`;
  return { raw: v, canonical: v };
};
const hex24Id = (): Id => {
  const v = `abcdef${randomBytes(9).toString('hex')}`;
  return { raw: v, canonical: v };
};

// Every byte percent-encoded, even those that need no encoding.
const pct = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const dbA = await setupDb('uint32', 'uuid');
const dbB = await setupDb('uuid', 'urlsafe');
const dbC = await setupDb('uint32', 'hex24');

interface Target {
  label: string;
  db: Db;
  k: Kind;
  fresh(): Id;
  caseInsensitive: boolean; // the type ignores case (uuid, hexN)
}

const TARGETS: Target[] = [
  { label: 'items (uint32)', db: dbA, k: ITEM, fresh: uint32Id, caseInsensitive: false },
  { label: 'items (uuid)', db: dbB, k: ITEM, fresh: uuidId, caseInsensitive: true },
  { label: 'users (uuid)', db: dbA, k: USER, fresh: uuidId, caseInsensitive: true },
  { label: 'users (urlsafe)', db: dbB, k: USER, fresh: urlsafeId, caseInsensitive: false },
  { label: 'users (hex24)', db: dbC, k: USER, fresh: hex24Id, caseInsensitive: true },
];

const at = (k: Kind, raw: string, deprecated = false) => `${k.plural}/${raw}/${deprecated ? '' : 'properties/'}`;
const entity = (k: Kind, id: Id, values: Record<string, unknown>) => ({ [k.idField]: id.canonical, ...values });
const getBody = (k: Kind, id: Id, values: Record<string, unknown>, warnings: string[] = []) => ({
  [k.kind]: entity(k, id, values),
  warnings,
});
const changes = (db: Db) => stack.redis.xlen(`{db:${db.id}}:catalogue:changes`);

// GETs until done() holds or about 2 seconds have passed; returns the last answer.
async function poll(path: string, token: string, done: (r: Res) => boolean): Promise<Res> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const r = await api.get(path, { token });
    if (done(r) || Date.now() > deadline) return r;
    await sleep(20);
  }
}

async function putOk(tg: Target, id: Id, values: Record<string, unknown>): Promise<void> {
  const r = await api.put(at(tg.k, id.raw), { [tg.k.kind]: values }, { token: tg.db.token });
  if (r.status !== 200) throw new Error(`PUT ${id.raw} failed: ${r.text}`);
}

async function keysOf(dbId: string): Promise<string[]> {
  const tag = `{db:${dbId}}`;
  return (await stack.redis.keys('*')).filter((key) => key.startsWith(tag));
}

for (const tg of TARGETS) {
  const { k } = tg;
  const { token } = tg.db;

  t.test(`${tg.label}: PUT creates, GET shows every value type, PUT again replaces`, async (t) => {
    const id = tg.fresh();
    const missing = await api.get(at(k, id.raw), { token });
    t.same(errorOf(missing), notFoundOf(k), 'unknown before the PUT');

    const put = await api.put(at(k, id.raw), { [k.kind]: FULL }, { token });
    t.equal(put.status, 200);
    t.strictSame(put.body, { warnings: [] });
    const get = await api.get(at(k, id.raw), { token });
    t.equal(get.status, 200);
    t.strictSame(get.body, getBody(k, id, FULL), 'every value round-trips, the id in its JSON form');
    t.equal(typeof get.body[k.kind][k.idField], typeof id.canonical, `${k.idField} is a ${typeof id.canonical}`);

    const again = await api.put(at(k, id.raw), { [k.kind]: SECOND, wait_for_completion: true }, { token });
    t.equal(again.status, 200);
    t.strictSame(again.body, { warnings: [] });
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, SECOND), 'values not listed are gone, lists replaced');

    // Property names are case-insensitive in the body; GET shows them in their created case.
    const recased = await api.put(at(k, id.raw), { [k.kind]: { price: 1.5, TITLE: 'x', tAgS: ['a', 'b'] } }, { token });
    t.equal(recased.status, 200);
    t.strictSame(recased.body, { warnings: [] }, 'no warning for a known property in another case');
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 1.5, Title: 'x', Tags: ['a', 'b'] }));

    // An empty replacement removes every value.
    const emptied = await api.put(at(k, id.raw), { [k.kind]: {} }, { token });
    t.equal(emptied.status, 200);
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, {}));
  });

  t.test(`${tg.label}: PUT with wait_for_completion false answers 202 and the values appear`, async (t) => {
    const id = tg.fresh();
    const r = await api.put(at(k, id.raw), { [k.kind]: FULL, wait_for_completion: false }, { token });
    t.equal(r.status, 202);
    t.match(String(r.headers['content-type']), /^application\/json/);
    t.strictSame(r.body, { warnings: [] });
    const expected = getBody(k, id, FULL);
    const seen = await poll(at(k, id.raw), token, (g) => g.status === 200 && isDeepStrictEqual(g.body, expected));
    t.equal(seen.status, 200, 'the entity appears');
    t.strictSame(seen.body, expected, 'with every value');

    // A background replacement replaces too.
    const r2 = await api.put(at(k, id.raw), { [k.kind]: SECOND, wait_for_completion: false }, { token });
    t.equal(r2.status, 202);
    const expected2 = getBody(k, id, SECOND);
    const seen2 = await poll(at(k, id.raw), token, (g) => isDeepStrictEqual(g.body, expected2));
    t.strictSame(seen2.body, expected2, 'the replacement lands');

    // Invalid values are refused before anything is stored, for a new entity and an existing one.
    const fresh = tg.fresh();
    const bad = await api.put(at(k, fresh.raw), { [k.kind]: { Price: 1, Level: 500 }, wait_for_completion: false }, { token });
    t.same(errorOf(bad), WRONG_DATA_TYPE, 'invalid value on a new entity');
    t.equal(bad.body.error_data?.property, 'Level');
    t.same(errorOf(await api.get(at(k, fresh.raw), { token })), notFoundOf(k), 'nothing stored');
    const bad2 = await api.put(at(k, id.raw), { [k.kind]: { Price: 2, Title: 'too long' }, wait_for_completion: false }, { token });
    t.same(errorOf(bad2), WRONG_DATA_TYPE, 'invalid value on an existing entity');
    t.strictSame((await api.get(at(k, id.raw), { token })).body, expected2, 'values unchanged');
  });

  t.test(`${tg.label}: PATCH changes listed values only, null removes, created/modified flags`, async (t) => {
    const id = tg.fresh();
    await putOk(tg, id, { Price: 1, Level: 2, Title: 'abc', Tags: ['x'] });

    const p1 = await api.patch(at(k, id.raw), { [k.kind]: { Level: 3, Active: true, Tags: ['y', 'z'] } }, { token });
    t.equal(p1.status, 200);
    t.strictSame(p1.body, { [k.created]: false, [k.modified]: true, warnings: [] });
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, { Price: 1, Level: 3, Title: 'abc', Tags: ['y', 'z'], Active: true }),
    );

    const p2 = await api.patch(at(k, id.raw), { [k.kind]: { Title: null } }, { token });
    t.strictSame(p2.body, { [k.created]: false, [k.modified]: true, warnings: [] }, 'null removes a value');
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 1, Level: 3, Tags: ['y', 'z'], Active: true }));

    const same = await api.patch(at(k, id.raw), { [k.kind]: { Level: 3, Price: 1, Tags: ['y', 'z'] } }, { token });
    t.equal(same.status, 200);
    t.strictSame(same.body, { [k.created]: false, [k.modified]: false, warnings: [] }, 'identical values: not modified');
    const nullAgain = await api.patch(at(k, id.raw), { [k.kind]: { Title: null } }, { token });
    t.strictSame(nullAgain.body, { [k.created]: false, [k.modified]: false, warnings: [] }, 'removing an absent value: not modified');
    const emptyPatch = await api.patch(at(k, id.raw), { [k.kind]: {} }, { token });
    t.strictSame(emptyPatch.body, { [k.created]: false, [k.modified]: false, warnings: [] }, 'empty PATCH: not modified');
    const withFlag = await api.patch(at(k, id.raw), { [k.kind]: { Count: 9 }, create_if_missing: true }, { token });
    t.strictSame(
      withFlag.body,
      { [k.created]: false, [k.modified]: true, warnings: [] },
      'create_if_missing on an existing entity only modifies',
    );
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, { Price: 1, Level: 3, Tags: ['y', 'z'], Active: true, Count: 9 }),
    );

    // A missing entity: 404 unless create_if_missing is true.
    const ghost = tg.fresh();
    for (const extra of [{}, { create_if_missing: false }]) {
      const r = await api.patch(at(k, ghost.raw), { [k.kind]: { Price: 5 }, ...extra }, { token });
      t.same(errorOf(r), notFoundOf(k), `PATCH of a missing ${k.kind} ${JSON.stringify(extra)}`);
      t.equal(r.body.error_data?.type, k.kind);
      t.strictSame(r.body.error_data?.key, ghost.canonical);
    }
    t.same(errorOf(await api.get(at(k, ghost.raw), { token })), notFoundOf(k), 'the refused PATCH created nothing');
    const created = await api.patch(at(k, ghost.raw), { [k.kind]: { Price: 5, Flags: [false] }, create_if_missing: true }, { token });
    t.equal(created.status, 200);
    t.strictSame(created.body, { [k.created]: true, [k.modified]: false, warnings: [] });
    t.strictSame((await api.get(at(k, ghost.raw), { token })).body, getBody(k, ghost, { Price: 5, Flags: [false] }));
    const next = await api.patch(at(k, ghost.raw), { [k.kind]: { Price: 6 } }, { token });
    t.strictSame(next.body, { [k.created]: false, [k.modified]: true, warnings: [] }, 'once created, PATCH needs no flag');
  });

  t.test(`${tg.label}: DELETE removes the values, is idempotent, and PUT/PATCH create again`, async (t) => {
    const id = tg.fresh();
    await putOk(tg, id, FULL);
    const d = await api.delete(at(k, id.raw), undefined, { token });
    t.equal(d.status, 204);
    t.equal(d.text, '', 'no body');
    const g = await api.get(at(k, id.raw), { token });
    t.same(errorOf(g), notFoundOf(k));
    t.equal(g.body.error_data?.type, k.kind);
    t.strictSame(g.body.error_data?.key, id.canonical);

    t.equal((await api.delete(at(k, id.raw), undefined, { token })).status, 204, 'second DELETE');
    const never = tg.fresh();
    const dn = await api.delete(at(k, never.raw), undefined, { token });
    t.equal(dn.status, 204, 'DELETE of an unknown entity');
    t.same(errorOf(await api.get(at(k, never.raw), { token })), notFoundOf(k), 'and it is still unknown');

    // A deleted entity is missing for PATCH, and a PATCH that creates it reports a creation.
    t.same(errorOf(await api.patch(at(k, id.raw), { [k.kind]: { Price: 1 } }, { token })), notFoundOf(k), 'PATCH after DELETE');
    const p = await api.patch(at(k, id.raw), { [k.kind]: { Price: 1 }, create_if_missing: true }, { token });
    t.strictSame(p.body, { [k.created]: true, [k.modified]: false, warnings: [] }, 'PATCH after DELETE creates');
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, { Price: 1 }),
      'no value from before the DELETE comes back',
    );

    // PUT after DELETE stores exactly the new values.
    t.equal((await api.delete(at(k, id.raw), undefined, { token })).status, 204);
    await putOk(tg, id, SECOND);
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, SECOND));
    const after = await api.patch(at(k, id.raw), { [k.kind]: { Level: 0 } }, { token });
    t.strictSame(after.body, { [k.created]: false, [k.modified]: true, warnings: [] });
  });

  t.test(`${tg.label}: invalid values are WRONG_DATA_TYPE naming the property and the ${k.kind}, and store nothing`, async (t) => {
    const BAD: [string, string, unknown][] = [
      ['int8 above range', 'Level', 128],
      ['int8 below range', 'Level', -129],
      ['int8 not an integer', 'Level', 1.5],
      ['a string for a float', 'Price', 'cheap'],
      ['a float beyond float32', 'Price', 1e39],
      ['a string for a float64', 'Precise', '1.0'],
      ['a negative uint32', 'Count', -1],
      ['uint32 above range', 'Count', 4294967296],
      ['a number for a bool', 'Active', 1],
      ['a string for a bool', 'Active', 'true'],
      ['a scalar for a repeated property', 'Tags', 'solo'],
      ['a list for a non-repeated property', 'Title', ['a']],
      ['a too-long unicode5 string', 'Title', 'abcdef'],
      ['a too-long non-ASCII unicode5 string', 'Title', '\u00e9\u00e8\u00ea\u00eb\u{1F600}\u00e0'],
      ['a number for a unicode property', 'Title', 5],
      ['an object for a unicode property', 'Title', { a: 1 }],
      ['a bad element in a repeated int8', 'Sizes', [1, 128]],
      ['a bad element in a repeated bool', 'Flags', [true, 0]],
      ['a too-long element in a repeated unicode10', 'Tags', ['x'.repeat(11)]],
      ['a scalar for a repeated bool', 'Flags', true],
    ];
    const existing = tg.fresh();
    await putOk(tg, existing, FULL);
    const before = await changes(tg.db);
    for (const [what, prop, value] of BAD) {
      const fresh = tg.fresh();
      const cases: [string, Id, () => Promise<Res>][] = [
        ['PUT new', fresh, () => api.put(at(k, fresh.raw), { [k.kind]: { Price: 1, [prop]: value } }, { token })],
        [
          'PATCH new',
          fresh,
          () => api.patch(at(k, fresh.raw), { [k.kind]: { Price: 1, [prop]: value }, create_if_missing: true }, { token }),
        ],
        ['PUT existing', existing, () => api.put(at(k, existing.raw), { [k.kind]: { ...FULL, Price: 2, [prop]: value } }, { token })],
        ['PATCH existing', existing, () => api.patch(at(k, existing.raw), { [k.kind]: { Price: 2, [prop]: value } }, { token })],
      ];
      for (const [how, id, call] of cases) {
        const r = await call();
        t.same(errorOf(r), WRONG_DATA_TYPE, `${how}: ${what}`);
        t.equal(r.body.error_data?.property, prop, `${how}: ${what}: error_data.property`);
        t.strictSame(r.body.error_data?.[k.idField], id.canonical, `${how}: ${what}: error_data.${k.idField}`);
      }
      t.same(errorOf(await api.get(at(k, fresh.raw), { token })), notFoundOf(k), `${what}: nothing stored for a new ${k.kind}`);
    }
    t.strictSame((await api.get(at(k, existing.raw), { token })).body, getBody(k, existing, FULL), 'the existing entity kept its values');
    t.equal(await changes(tg.db), before, 'refused writes add nothing to the change stream');
  });

  t.test(`${tg.label}: fields that are not properties are ignored with a warning; ${k.idField} in the body`, async (t) => {
    const id = tg.fresh();
    const put = await api.put(at(k, id.raw), { [k.kind]: { Price: 1, Colour: 'red', weight_kg: 2 } }, { token });
    t.equal(put.status, 200);
    t.equal(put.body.warnings?.length, 1, 'one warning');
    t.match(put.body.warnings?.join(' '), /Colour/);
    t.match(put.body.warnings?.join(' '), /weight_kg/);
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 1 }), 'unknown fields are not stored');
    const patch = await api.patch(at(k, id.raw), { [k.kind]: { Colour: 'blue' } }, { token });
    t.equal(patch.status, 200);
    t.equal(patch.body[k.modified], false);
    t.match(patch.body.warnings?.join(' '), /Colour/);

    // Body fields next to the entity that the endpoint does not use are named too.
    const outerPut = await api.put(at(k, id.raw), { [k.kind]: { Price: 1 }, colour: 'red' }, { token });
    t.equal(outerPut.status, 200);
    t.match((outerPut.body.warnings ?? []).join(' '), /colour/, 'PUT names an unused top-level field');
    const outerPatch = await api.patch(at(k, id.raw), { [k.kind]: { Price: 1 }, colour: 'red' }, { token });
    t.equal(outerPatch.status, 200);
    t.match((outerPatch.body.warnings ?? []).join(' '), /colour/, 'PATCH names an unused top-level field');

    // The id in the body: the path's one is accepted (also in its other spellings), another one is refused.
    const same = await api.put(at(k, id.raw), { [k.kind]: { [k.idField]: id.canonical, Price: 2 } }, { token });
    t.equal(same.status, 200, `${k.idField} equal to the path id`);
    t.strictSame(same.body, { warnings: [] });
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 2 }));
    const samePatch = await api.patch(at(k, id.raw), { [k.kind]: { [k.idField]: id.canonical, Price: 3 } }, { token });
    t.strictSame(samePatch.body, { [k.created]: false, [k.modified]: true, warnings: [] });
    if (typeof id.canonical === 'number') {
      const asString = await api.put(at(k, id.raw), { [k.kind]: { [k.idField]: String(id.canonical), Price: 3 } }, { token });
      t.equal(asString.status, 200, `${k.idField} as a decimal string`);
    }
    if (tg.caseInsensitive) {
      const upper = await api.put(at(k, id.raw), { [k.kind]: { [k.idField]: id.raw.toUpperCase(), Price: 3 } }, { token });
      t.equal(upper.status, 200, `${k.idField} in upper case names the same ${k.kind}`);
    }
    const other = tg.fresh();
    const otherCases: [string, () => Promise<Res>][] = [
      ['PUT', () => api.put(at(k, id.raw), { [k.kind]: { [k.idField]: other.canonical, Price: 9 } }, { token })],
      ['PATCH', () => api.patch(at(k, id.raw), { [k.kind]: { [k.idField]: other.canonical, Price: 9 } }, { token })],
      ['PUT new', () => api.put(at(k, other.raw), { [k.kind]: { [k.idField]: id.canonical, Price: 9 } }, { token })],
    ];
    if (!tg.caseInsensitive && typeof id.canonical === 'string') {
      otherCases.push([
        'PUT other case',
        () => api.put(at(k, id.raw), { [k.kind]: { [k.idField]: id.raw.toUpperCase(), Price: 9 } }, { token }),
      ]);
    }
    for (const [how, call] of otherCases) {
      const r = await call();
      t.same(errorOf(r), WRONG_PARAMETER, `${how}: a different ${k.idField} in the body`);
    }
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 3 }), 'refused writes changed nothing');
    t.same(errorOf(await api.get(at(k, other.raw), { token })), notFoundOf(k), 'and created nothing');
  });

  t.test(`${tg.label}: deprecated ${k.plural}/<id>/ behaves the same and warns`, async (t) => {
    const id = tg.fresh();
    const isDeprecation = (w: string[] | undefined) => (w ?? []).some((x) => /deprecated/i.test(x));

    const put = await api.put(at(k, id.raw, true), { [k.kind]: FULL }, { token });
    t.equal(put.status, 200);
    t.equal(put.body.warnings?.length, 1);
    t.ok(isDeprecation(put.body.warnings), 'PUT warns');
    const get = await api.get(at(k, id.raw, true), { token });
    t.equal(get.status, 200);
    t.strictSame(get.body[k.kind], entity(k, id, FULL), 'GET shows the entity');
    t.equal(get.body.warnings?.length, 1);
    t.ok(isDeprecation(get.body.warnings), 'GET warns');
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, FULL),
      'the current path sees the same entity, without a warning',
    );

    const patch = await api.patch(at(k, id.raw, true), { [k.kind]: { Level: 5 } }, { token });
    t.equal(patch.status, 200);
    t.equal(patch.body[k.created], false);
    t.equal(patch.body[k.modified], true);
    t.ok(isDeprecation(patch.body.warnings), 'PATCH warns');
    t.equal((await api.get(at(k, id.raw), { token })).body[k.kind]?.Level, 5);

    const same = await api.patch(at(k, id.raw, true), { [k.kind]: { Level: 5 } }, { token });
    t.equal(same.body[k.modified], false, 'identical PATCH: not modified');
    const ghost = tg.fresh();
    t.same(
      errorOf(await api.patch(at(k, ghost.raw, true), { [k.kind]: { Level: 5 } }, { token })),
      notFoundOf(k),
      'PATCH of a missing entity',
    );
    const created = await api.patch(at(k, ghost.raw, true), { [k.kind]: { Level: 5 }, create_if_missing: true }, { token });
    t.equal(created.body[k.created], true, 'PATCH with create_if_missing creates');
    t.ok(isDeprecation(created.body.warnings));

    const unknown = await api.put(at(k, id.raw, true), { [k.kind]: { Price: 1, Colour: 'red' } }, { token });
    t.equal(unknown.status, 200);
    t.ok(isDeprecation(unknown.body.warnings), 'deprecation warning');
    t.match(unknown.body.warnings?.join(' '), /Colour/, 'next to the unknown-field warning');

    const bad = await api.put(at(k, id.raw, true), { [k.kind]: { Level: 128 } }, { token });
    t.same(errorOf(bad), WRONG_DATA_TYPE, 'validation as on the current path');
    t.equal(bad.body.error_data?.property, 'Level');

    const later = await api.put(at(k, id.raw, true), { [k.kind]: SECOND, wait_for_completion: false }, { token });
    t.equal(later.status, 202, 'wait_for_completion false');
    t.ok(isDeprecation(later.body.warnings), '202 warns too');
    const expected = getBody(k, id, SECOND);
    t.strictSame((await poll(at(k, id.raw), token, (g) => isDeepStrictEqual(g.body, expected))).body, expected);

    const del = await api.delete(at(k, id.raw, true), undefined, { token });
    t.equal(del.status, 204);
    t.equal(del.text, '', 'DELETE answers without a body');
    t.same(errorOf(await api.get(at(k, id.raw), { token })), notFoundOf(k), 'gone on the current path');
    t.same(errorOf(await api.get(at(k, id.raw, true), { token })), notFoundOf(k), 'gone on the deprecated path');
    t.equal((await api.delete(at(k, id.raw, true), undefined, { token })).status, 204, 'idempotent');
  });

  t.test(`${tg.label}: writes append to the catalogue change stream, no-ops do not`, async (t) => {
    const id = tg.fresh();
    const start = await changes(tg.db);
    await putOk(tg, id, { Price: 1, Level: 1 });
    t.equal(await changes(tg.db), start + 1, 'PUT of a new entity');
    const p = await api.patch(at(k, id.raw), { [k.kind]: { Level: 2 } }, { token });
    t.equal(p.body[k.modified], true);
    t.equal(await changes(tg.db), start + 2, 'PATCH that changes a value');
    const noop = await api.patch(at(k, id.raw), { [k.kind]: { Level: 2, Title: null } }, { token });
    t.equal(noop.body[k.modified], false);
    t.equal(await changes(tg.db), start + 2, 'a no-op PATCH adds nothing');
    t.equal((await api.delete(at(k, id.raw), undefined, { token })).status, 204);
    t.equal(await changes(tg.db), start + 3, 'DELETE');
    t.equal((await api.delete(at(k, id.raw), undefined, { token })).status, 204);
    t.equal((await api.delete(at(k, tg.fresh().raw), undefined, { token })).status, 204);
    t.equal(await changes(tg.db), start + 3, 'DELETE of an entity without values adds nothing');

    const last = await stack.redis.xrevrange(`{db:${tg.db.id}}:catalogue:changes`, '+', '-', 'COUNT', 3);
    t.equal(last.length, 3);
    for (const [, flat] of last) {
      const fields: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
      t.equal(fields.kind, k.kind, 'the entry names the kind');
    }
  });
}

t.test('malformed bodies are WrongData WRONG_DATA_TYPE naming the field, and store nothing', async (t) => {
  for (const k of [ITEM, USER]) {
    const { token } = dbA;
    const id = k === ITEM ? uint32Id() : uuidId();
    const cases: [string, string, Record<string, unknown>][] = [
      ['PUT', k.kind, {}],
      ['PUT', k.kind, { [k.kind]: [] }],
      ['PUT', k.kind, { [k.kind]: 'x' }],
      ['PUT', k.kind, { [k.kind]: null }],
      ['PUT', 'wait_for_completion', { [k.kind]: { Price: 1 }, wait_for_completion: 'no' }],
      ['PATCH', k.kind, { create_if_missing: true }],
      ['PATCH', k.kind, { [k.kind]: [{ Price: 1 }], create_if_missing: true }],
      ['PATCH', 'create_if_missing', { [k.kind]: { Price: 1 }, create_if_missing: 'yes' }],
    ];
    for (const [method, field, body] of cases) {
      const r = await api.call(method, at(k, id.raw), { token, body });
      t.same(errorOf(r), WRONG_DATA_TYPE, `${method} ${JSON.stringify(body)}`);
      t.equal(r.body.error_data?.field, field, `${method} ${JSON.stringify(body)}: names ${field}`);
    }
    t.same(errorOf(await api.get(at(k, id.raw), { token })), notFoundOf(k), `no ${k.kind} stored`);
  }
});

t.test('uint32 item ids: bad and out-of-range ids, 0, the maximum, percent-encoding', async (t) => {
  const { token } = dbA;
  for (const bad of ['abc', '4294967296', '-1', '1.5', '0x10', '1e3', '99999999999999999999999']) {
    const calls: [string, () => Promise<Res>][] = [
      ['GET', () => api.get(at(ITEM, bad), { token })],
      ['PUT', () => api.put(at(ITEM, bad), { item: { Price: 1 } }, { token })],
      ['PATCH', () => api.patch(at(ITEM, bad), { item: { Price: 1 }, create_if_missing: true }, { token })],
      ['DELETE', () => api.delete(at(ITEM, bad), undefined, { token })],
    ];
    for (const [how, call] of calls) t.same(errorOf(await call()), badIdOf(ITEM), `${how} items/${bad}/`);
  }
  for (const how of ['PUT', 'PATCH'] as const) {
    const r =
      how === 'PUT'
        ? await api.put(at(ITEM, '0'), { item: { Price: 1 } }, { token })
        : await api.patch(at(ITEM, '0'), { item: { Price: 1 }, create_if_missing: true }, { token });
    t.same(errorOf(r), badIdOf(ITEM), `${how} of item 0`);
  }
  const zero = await api.get(at(ITEM, '0'), { token });
  t.same(errorOf(zero), notFoundOf(ITEM), 'GET of item 0 is a plain 404');
  t.strictSame(zero.body.error_data?.key, 0);

  const max: Id = { raw: '4294967295', canonical: 4294967295 };
  t.equal((await api.put(at(ITEM, max.raw), { item: { Level: 1 } }, { token })).status, 200, 'the largest uint32');
  t.strictSame((await api.get(at(ITEM, max.raw), { token })).body, getBody(ITEM, max, { Level: 1 }));

  const enc = uint32Id();
  t.equal((await api.put(at(ITEM, pct(enc.raw)), { item: { Level: 7 } }, { token })).status, 200, 'PUT with a percent-encoded id');
  t.strictSame((await api.get(at(ITEM, enc.raw), { token })).body, getBody(ITEM, enc, { Level: 7 }), 'reached through the plain id');
  t.strictSame((await api.get(at(ITEM, pct(enc.raw)), { token })).body, getBody(ITEM, enc, { Level: 7 }), 'and the encoded one');
});

t.test('uuid ids: bad ones refused, upper case reaches the lower-case entity', async (t) => {
  for (const [db, k] of [
    [dbA, USER],
    [dbB, ITEM],
  ] as const) {
    const { token } = db;
    const good = randomUUID();
    for (const bad of ['not-a-uuid', good.replace(/-/g, ''), good.slice(0, -1), `${good.slice(0, -1)}g`, `${good}0`, '12']) {
      const calls: [string, () => Promise<Res>][] = [
        ['GET', () => api.get(at(k, bad), { token })],
        ['PUT', () => api.put(at(k, bad), { [k.kind]: { Price: 1 } }, { token })],
        ['PATCH', () => api.patch(at(k, bad), { [k.kind]: { Price: 1 }, create_if_missing: true }, { token })],
        ['DELETE', () => api.delete(at(k, bad), undefined, { token })],
      ];
      for (const [how, call] of calls) t.same(errorOf(await call()), badIdOf(k), `${how} ${k.plural}/${bad}/`);
    }

    const id: Id = { raw: good, canonical: good };
    const upper = good.toUpperCase();
    t.equal((await api.put(at(k, upper), { [k.kind]: { Price: 1 } }, { token })).status, 200, 'PUT in upper case');
    const g = await api.get(at(k, good), { token });
    t.strictSame(g.body, getBody(k, id, { Price: 1 }), 'GET in lower case, the id shown in lower case');
    t.strictSame((await api.get(at(k, upper), { token })).body, getBody(k, id, { Price: 1 }), 'GET in upper case shows it lower-cased');
    t.strictSame((await api.get(at(k, pct(upper)), { token })).body, getBody(k, id, { Price: 1 }), 'percent-encoded upper case');
    const p = await api.patch(at(k, upper), { [k.kind]: { Price: 2 } }, { token });
    t.strictSame(p.body, { [k.created]: false, [k.modified]: true, warnings: [] }, 'PATCH in upper case modifies the same entity');
    const mixed = good.slice(0, 10).toUpperCase() + good.slice(10);
    t.equal((await api.get(at(k, mixed), { token })).body[k.kind]?.Price, 2, 'mixed case too');
    t.equal((await api.delete(at(k, upper), undefined, { token })).status, 204);
    t.same(errorOf(await api.get(at(k, good), { token })), notFoundOf(k), 'DELETE in upper case removed it');
  }
});

t.test('urlsafe user ids: case-sensitive, percent-encoded, bad characters refused', async (t) => {
  const { token } = dbB;
  const id: Id = { raw: 'a-b_C', canonical: 'a-b_C' };
  await api.delete(at(USER, id.raw), undefined, { token });
  t.equal(
    (await api.put(at(USER, pct(id.raw)), { user: { Title: 'one' } }, { token })).status,
    200,
    'PUT with every character percent-encoded',
  );
  t.strictSame((await api.get(at(USER, id.raw), { token })).body, getBody(USER, id, { Title: 'one' }), 'GET with the plain id');
  t.strictSame((await api.get(at(USER, pct(id.raw)), { token })).body, getBody(USER, id, { Title: 'one' }), 'GET percent-encoded');
  t.same(errorOf(await api.get(at(USER, 'a-b_c'), { token })), notFoundOf(USER), 'another case is another user');
  t.same(errorOf(await api.get(at(USER, 'A-B_C'), { token })), notFoundOf(USER));
  const p = await api.patch(at(USER, pct(id.raw)), { user: { Title: 'two' } }, { token });
  t.strictSame(p.body, { user_created: false, user_modified: true, warnings: [] });
  t.equal((await api.delete(at(USER, pct(id.raw)), undefined, { token })).status, 204);
  t.same(errorOf(await api.get(at(USER, id.raw), { token })), notFoundOf(USER), 'deleted through the encoded path');

  for (const bad of ['a.b', 'a%20b', 'a%2Fb', '%C3%A9t%C3%A9', 'a+b']) {
    t.same(errorOf(await api.get(at(USER, bad), { token })), badIdOf(USER), `GET users/${bad}/`);
    t.same(errorOf(await api.put(at(USER, bad), { user: { Price: 1 } }, { token })), badIdOf(USER), `PUT users/${bad}/`);
  }
});

t.test('hex24 user ids: lower and upper case, percent-encoded, bad ones refused', async (t) => {
  const { token } = dbC;
  const lower = 'abcdef0123456789abcdef01';
  const id: Id = { raw: lower, canonical: lower };
  await api.delete(at(USER, lower), undefined, { token });
  t.equal(
    (await api.put(at(USER, pct(lower.toUpperCase())), { user: { Count: 3 } }, { token })).status,
    200,
    'PUT upper case, percent-encoded',
  );
  t.strictSame((await api.get(at(USER, lower), { token })).body, getBody(USER, id, { Count: 3 }), 'GET lower case');
  t.strictSame((await api.get(at(USER, pct(lower)), { token })).body, getBody(USER, id, { Count: 3 }), 'GET lower case, percent-encoded');
  t.strictSame((await api.get(at(USER, lower.toUpperCase()), { token })).body, getBody(USER, id, { Count: 3 }), 'GET upper case');
  const p = await api.patch(at(USER, lower.toUpperCase()), { user: { Count: 4 } }, { token });
  t.strictSame(p.body, { user_created: false, user_modified: true, warnings: [] });
  for (const bad of [lower.slice(1), `${lower}0`, `${lower.slice(1)}g`, '12']) {
    t.same(errorOf(await api.get(at(USER, bad), { token })), badIdOf(USER), `GET users/${bad}/`);
    t.same(
      errorOf(await api.patch(at(USER, bad), { user: { Count: 1 }, create_if_missing: true }, { token })),
      badIdOf(USER),
      `PATCH users/${bad}/`,
    );
  }
});

t.test('values of deleted properties no longer appear', async (t) => {
  const props = [
    { property_name: 'Price', value_type: 'float' },
    { property_name: 'Temp', value_type: 'unicode10' },
  ];
  const db = await setupDb('uint32', 'uuid', props);
  const { token } = db;
  const item = uint32Id();
  const user = uuidId();
  for (const [k, id] of [
    [ITEM, item],
    [USER, user],
  ] as const) {
    const tg: Target = { label: k.kind, db, k, fresh: () => id, caseInsensitive: false };
    await putOk(tg, id, { Price: 1, Temp: 'hot' });
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 1, Temp: 'hot' }));
    t.equal((await api.delete(`${k.propsPrefix}/TEMP/`, undefined, { token })).status, 204, `${k.kind} property Temp deleted`);
    t.strictSame((await api.get(at(k, id.raw), { token })).body, getBody(k, id, { Price: 1 }), `${k.kind}: Temp is gone from GET`);
    t.strictSame(
      (await api.get(at(k, id.raw, true), { token })).body[k.kind],
      entity(k, id, { Price: 1 }),
      `${k.kind}: and from the deprecated GET`,
    );
    const w = await api.patch(at(k, id.raw), { [k.kind]: { Temp: 'cold' } }, { token });
    t.equal(w.status, 200);
    t.match(w.body.warnings?.join(' '), /Temp/, 'writing the deleted property is ignored with a warning');
    t.equal(w.body[k.modified], false);

    // A property defined again under that name starts without values, whatever its type.
    await define(token, k, { property_name: 'temp', value_type: 'int8' });
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, { Price: 1 }),
      `${k.kind}: the old value does not come back under the new definition`,
    );
    const again = await api.patch(at(k, id.raw), { [k.kind]: { temp: 5 } }, { token });
    t.equal(again.status, 200);
    t.strictSame(
      (await api.get(at(k, id.raw), { token })).body,
      getBody(k, id, { Price: 1, temp: 5 }),
      'the new definition takes values in its own case',
    );
  }
});

t.test('roles: frontend reads items only, demo_viewer nothing; root and manager write like backend', async (t) => {
  const { token, id: dbId } = dbA;
  const frontend = await tokenFor(api, root, 'frontend', dbId);
  const item = uint32Id();
  const user = uuidId();
  await putOk(TARGETS[0]!, item, { Price: 1 });
  await putOk(TARGETS[2]!, user, { Price: 1 });

  for (const deprecated of [false, true]) {
    const g = await api.get(at(ITEM, item.raw, deprecated), { token: frontend });
    t.equal(g.status, 200, `frontend GET item (deprecated: ${deprecated})`);
    t.strictSame(g.body.item, entity(ITEM, item, { Price: 1 }));
    t.same(
      errorOf(await api.get(at(ITEM, uint32Id().raw, deprecated), { token: frontend })),
      notFoundOf(ITEM),
      'frontend GET of a missing item',
    );

    const refused: [string, () => Promise<Res>][] = [
      ['PUT item', () => api.put(at(ITEM, item.raw, deprecated), { item: { Price: 2 } }, { token: frontend })],
      ['PATCH item', () => api.patch(at(ITEM, item.raw, deprecated), { item: { Price: 2 }, create_if_missing: true }, { token: frontend })],
      ['DELETE item', () => api.delete(at(ITEM, item.raw, deprecated), undefined, { token: frontend })],
      ['GET user', () => api.get(at(USER, user.raw, deprecated), { token: frontend })],
      ['PUT user', () => api.put(at(USER, user.raw, deprecated), { user: { Price: 2 } }, { token: frontend })],
      ['PATCH user', () => api.patch(at(USER, user.raw, deprecated), { user: { Price: 2 }, create_if_missing: true }, { token: frontend })],
      ['DELETE user', () => api.delete(at(USER, user.raw, deprecated), undefined, { token: frontend })],
    ];
    for (const [how, call] of refused) t.same(errorOf(await call()), FORBIDDEN, `frontend ${how} (deprecated: ${deprecated})`);
  }
  t.strictSame((await api.get(at(ITEM, item.raw), { token })).body, getBody(ITEM, item, { Price: 1 }), 'the item is unchanged');
  t.strictSame((await api.get(at(USER, user.raw), { token })).body, getBody(USER, user, { Price: 1 }), 'the user is unchanged');

  const viewer = await tokenFor(api, root, 'demo_viewer', dbId);
  for (const [how, call] of [
    ['GET item', () => api.get(at(ITEM, item.raw), { token: viewer })],
    ['PUT item', () => api.put(at(ITEM, item.raw), { item: { Price: 2 } }, { token: viewer })],
    ['GET user', () => api.get(at(USER, user.raw), { token: viewer })],
    ['DELETE user', () => api.delete(at(USER, user.raw), undefined, { token: viewer })],
  ] as [string, () => Promise<Res>][]) {
    t.same(errorOf(await call()), FORBIDDEN, `demo_viewer ${how}`);
  }

  for (const role of ['root', 'manager']) {
    const tok = await tokenFor(api, root, role, dbId);
    for (const [k, id] of [
      [ITEM, uint32Id()],
      [USER, uuidId()],
    ] as const) {
      t.equal((await api.put(at(k, id.raw), { [k.kind]: { Level: 1 } }, { token: tok })).status, 200, `${role} PUT ${k.kind}`);
      const p = await api.patch(at(k, id.raw), { [k.kind]: { Level: 2 } }, { token: tok });
      t.strictSame(p.body, { [k.created]: false, [k.modified]: true, warnings: [] }, `${role} PATCH ${k.kind}`);
      t.strictSame((await api.get(at(k, id.raw), { token: tok })).body, getBody(k, id, { Level: 2 }), `${role} GET ${k.kind}`);
      t.equal((await api.delete(at(k, id.raw), undefined, { token: tok })).status, 204, `${role} DELETE ${k.kind}`);
    }
  }
});

t.test('a token bound to a deleted database gets DATABASE_NOT_FOUND and creates nothing', async (t) => {
  const db = await setupDb('uint32', 'uuid');
  const manager = await tokenFor(api, root, 'manager', db.id);
  const item = uint32Id();
  const user = uuidId();
  await putOk({ label: 'items', db, k: ITEM, fresh: () => item, caseInsensitive: false }, item, { Price: 1 });
  await putOk({ label: 'users', db, k: USER, fresh: () => user, caseInsensitive: true }, user, { Price: 1 });
  const d = await api.delete('databases/current/', undefined, { token: manager });
  t.ok(d.status === 200 || d.status === 204, `database deleted (${d.status})`);
  t.same(await keysOf(db.id), [], 'no key left');

  for (const [k, id] of [
    [ITEM, item],
    [USER, user],
  ] as const) {
    for (const deprecated of [false, true]) {
      for (const raw of [id.raw, k === ITEM ? uint32Id().raw : uuidId().raw]) {
        const calls: [string, () => Promise<Res>][] = [
          ['PUT', () => api.put(at(k, raw, deprecated), { [k.kind]: { Price: 2 } }, { token: db.token })],
          [
            'PUT without waiting',
            () => api.put(at(k, raw, deprecated), { [k.kind]: { Price: 2 }, wait_for_completion: false }, { token: db.token }),
          ],
          ['PATCH', () => api.patch(at(k, raw, deprecated), { [k.kind]: { Price: 2 } }, { token: db.token })],
          [
            'PATCH create_if_missing',
            () => api.patch(at(k, raw, deprecated), { [k.kind]: { Price: 2 }, create_if_missing: true }, { token: db.token }),
          ],
          ['GET', () => api.get(at(k, raw, deprecated), { token: db.token })],
          ['DELETE', () => api.delete(at(k, raw, deprecated), undefined, { token: db.token })],
        ];
        for (const [how, call] of calls) t.same(errorOf(await call()), DATABASE_NOT_FOUND, `${how} ${at(k, raw, deprecated)}`);
      }
    }
  }
  await sleep(100); // let a (wrongly) started background write land before looking
  t.same(await keysOf(db.id), [], 'the refused requests created no key of the database');
});

t.test('DELETE users/<id>/*/ removes everything about the user', async (t) => {
  const root = await rootToken(api);
  const db = await createDatabase(api, root, { user_id_type: 'uuid' });
  const token = await tokenFor(api, root, 'backend', db);
  t.equal((await api.post('users-properties/', { property_name: 'age', value_type: 'int8' }, { token })).status, 204);
  const id = '6f1c2a4e-0000-4000-8000-000000000001';
  t.equal((await api.put(`users/${id}/properties/`, { user: { age: 30 } }, { token })).status, 200);
  const del = await api.delete(`users/${id}/*/`, undefined, { token });
  t.equal(del.status, 204);
  t.same(errorOf(await api.get(`users/${id}/properties/`, { token })), {
    status: 404,
    code: 60,
    errorName: 'NotFoundError',
    name: 'USER_NOT_FOUND',
  });
  t.equal((await api.delete('users/not-a-uuid/*/', undefined, { token })).body.error_data.name, 'INCORRECT_USER_ID_TYPE');
  const frontend = await tokenFor(api, root, 'frontend', db);
  t.equal((await api.delete(`users/${id}/*/`, undefined, { token: frontend })).body.error_data.name, 'INCORRECT_ROLE');
});

t.test('once the view is built, GET items/<id>/properties/ answers pipelined requests, and follows writes', async (t) => {
  const db = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', db);
  t.equal((await api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token })).status, 204);
  t.equal(
    (
      await api.put(
        'items-bulk/properties/',
        {
          items: [
            { item_id: 1, n: 1 },
            { item_id: 2, n: 2 },
          ],
        },
        { token },
      )
    ).status,
    200,
  );
  t.equal((await api.get('items-bulk/properties/', { token })).status, 200, 'a listing builds the view');
  const port = Number(new URL(api.base).port);
  const pipelined = (ids: number[]) =>
    new Promise<string>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1');
      let out = '';
      sock.on('data', (d) => {
        out += d.toString();
        if ((out.match(/HTTP\/1.1 \d{3}/g) ?? []).length === ids.length) {
          sock.destroy();
          resolve(out);
        }
      });
      sock.on('error', reject);
      sock.on('close', () => resolve(out));
      sock.write(ids.map((id) => `GET /v1/items/${id}/properties/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`).join(''));
    });
  const text = await pipelined([1, 2, 1, 3]);
  t.equal((text.match(/HTTP\/1.1 200/g) ?? []).length, 3, 'three found');
  t.equal((text.match(/HTTP\/1.1 404/g) ?? []).length, 1, 'one not found');
  t.match(
    text,
    /"item":\{"item_id":1,"n":1\}[\s\S]*"item":\{"item_id":2,"n":2\}[\s\S]*"item":\{"item_id":1,"n":1\}[\s\S]*ITEM_NOT_FOUND/,
    'in request order',
  );
  t.equal((await api.patch('items/1/properties/', { item: { n: 10 } }, { token })).status, 200);
  t.same((await api.get('items/1/properties/', { token })).body.item, { item_id: 1, n: 10 }, 'the same process reads its write at once');
  t.match(await pipelined([1]), /"n":10/);
  t.equal((await api.delete('items/1/properties/', undefined, { token })).status, 204);
  t.equal(errorOf(await api.get('items/1/properties/', { token })).name, 'ITEM_NOT_FOUND');
});
