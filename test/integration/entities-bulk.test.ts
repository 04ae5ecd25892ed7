// Bulk item and user property values: items-bulk/properties/ and users-bulk/properties/ (PUT, PATCH,
// DELETE), their list/ endpoints, m2m blocks, all-or-nothing writes, the change stream, the
// ml_new_items task, deprecated aliases, roles and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import type { Res } from '../helpers/api.js';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

type Id = string | number;
type Rec = Record<string, unknown>;

interface Kind {
  kind: 'item' | 'user';
  path: string; // bulk writes
  list: string; // list by id
  oldPath: string; // deprecated aliases
  oldList: string;
  props: string; // property definitions
  plural: 'items' | 'users';
  idField: 'item_id' | 'user_id';
  idsField: 'items_id' | 'users_id';
  m2m: 'items_m2m' | 'users_m2m';
  index: 'item_index' | 'user_index';
  notFound: string;
  duplicated: string;
  idError: string;
  id: (n: number) => Id; // the n-th test id (n >= 0), canonical form
  badIds: unknown[]; // ids of the wrong type for the database
}

const ITEMS: Kind = {
  kind: 'item',
  path: 'items-bulk/properties/',
  list: 'items-bulk/properties/list/',
  oldPath: 'items-bulk/',
  oldList: 'items-bulk/list/',
  props: 'items-properties/',
  plural: 'items',
  idField: 'item_id',
  idsField: 'items_id',
  m2m: 'items_m2m',
  index: 'item_index',
  notFound: 'ITEM_NOT_FOUND',
  duplicated: 'DUPLICATED_ITEM_ID',
  idError: 'INCORRECT_ITEM_ID_TYPE',
  id: (n) => n + 1, // uint32; 0 cannot be written
  badIds: ['abc', -1, 1.5, 4294967296, '12x', '00000000-0000-4000-8000-000000000001'],
};

const USERS: Kind = {
  kind: 'user',
  path: 'users-bulk/properties/',
  list: 'users-bulk/properties/list/',
  oldPath: 'users-bulk/',
  oldList: 'users-bulk/list/',
  props: 'users-properties/',
  plural: 'users',
  idField: 'user_id',
  idsField: 'users_id',
  m2m: 'users_m2m',
  index: 'user_index',
  notFound: 'USER_NOT_FOUND',
  duplicated: 'DUPLICATED_USER_ID',
  idError: 'INCORRECT_USER_ID_TYPE',
  id: (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`, // uuid
  badIds: ['not-a-uuid', 5, '00000000-0000-4000-8000-00000000000g', '00000000000040008000000000000001', ''],
};

const KINDS = [ITEMS, USERS];

const PROPERTIES = [
  { property_name: 'price', value_type: 'float' },
  { property_name: 'stock', value_type: 'int32' },
  { property_name: 'active', value_type: 'bool' },
  { property_name: 'title', value_type: 'unicode16' },
  { property_name: 'tags', value_type: 'unicode16', repeated: true },
];

const wrong = (name: string) => ({ status: 400, code: 40, errorName: 'WrongData', name });
const dup = (k: Kind) => ({ status: 400, code: 42, errorName: 'DuplicatedError', name: k.duplicated });
const notFound = (name: string) => ({ status: 404, code: 60, errorName: 'NotFoundError', name });
const FORBIDDEN = { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' };

// A fresh database (items uint32, users uuid) with the test properties, and a backend token on it.
async function fresh(k: Kind): Promise<{ db: string; token: string }> {
  const db = await createDatabase(api, root, { item_id_type: 'uint32', user_id_type: 'uuid' });
  const token = await tokenFor(api, root, 'backend', db);
  for (const p of PROPERTIES) {
    const r = await api.post(k.props, p, { token });
    if (r.status !== 204 && r.status !== 200) throw new Error(`property creation failed: ${r.text}`);
  }
  return { db, token };
}

// The n-th record with every property set; `v` shifts the values to make a changed version.
function rec(k: Kind, n: number, v = 0): Rec {
  return {
    [k.idField]: k.id(n),
    price: n + 0.25 + v,
    stock: ((n * 37) % 1000) - 500 + v,
    active: (n + v) % 3 === 0,
    title: `título-${n}-😀${v || ''}`,
    tags: [`ä${n % 5}`, `t${n}`, `v${v}`],
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
// In id order: numbers numerically, strings (uuids of one length) by code units.
function sortRecs(k: Kind, recs: Rec[]): Rec[] {
  const cmp = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return [...recs].sort((a, b) => cmp(a[k.idField], b[k.idField]));
}
const changes = (db: string) => stack.redis.xlen(keys.catalogueChanges(db));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function listed(k: Kind, token: string, ids: unknown[], properties?: string[]): Promise<Rec[]> {
  const r = await api.post(k.list, properties ? { [k.idsField]: ids, properties } : { [k.idsField]: ids }, { token });
  if (r.status !== 200) throw new Error(`list failed: ${r.text}`);
  return r.body[k.plural];
}

// The records of `ids` as stored, in id order.
async function stored(k: Kind, token: string, ids: Id[]): Promise<Rec[]> {
  return sortRecs(k, await listed(k, token, ids));
}

// A status assertion's message: the body only when the status is not the expected one.
const why = (r: Res, expected: number) => (r.status === expected ? `status ${expected}` : `status ${r.status}: ${r.text.slice(0, 800)}`);

function hasWarning(r: Res, ...parts: string[]): boolean {
  const warnings: unknown = r.body?.warnings;
  return Array.isArray(warnings) && warnings.some((w) => typeof w === 'string' && parts.every((p) => w.includes(p)));
}

for (const k of KINDS) {
  t.test(`${k.kind}s: PUT ${k.path} with 500 records creates them all; ${k.list} reads them back`, async (t) => {
    const { db, token } = await fresh(k);
    const sent = range(0, 500).map((n) => rec(k, n));
    const before = await changes(db);
    const r = await api.put(k.path, { [k.plural]: sent }, { token });
    t.equal(r.status, 200, why(r, 200));
    t.equal(r.body.n_created, 500);
    t.equal(r.body.n_modified, 0);
    t.same(r.body.warnings, []);
    t.equal(await changes(db), before + 1, 'one change-stream entry for the whole request');

    if (k.kind === 'item') {
      t.type(r.body.ml_task_id, 'string', 'ml_task_id when items were created');
      const tasks = await api.get('tasks/ml_new_items/recents/', { token, query: 'amt=500' });
      t.equal(tasks.status, 200);
      const task = tasks.body.tasks.find((x: Rec) => x.task_id === r.body.ml_task_id);
      t.ok(task, 'the task is listed under ml_new_items');
      t.equal(task?.name, 'ml_new_items');
      for (const f of ['task_id', 'name', 'start_time', 'status', 'progress']) t.ok(task && f in task, `task record has ${f}`);
      t.type(task?.start_time, 'number');
      t.type(task?.progress, 'string');
      t.ok(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'].includes(task?.status), 'task status');
    } else {
      t.notOk('ml_task_id' in r.body, 'no ml_task_id for users');
      const tasks = await api.get('tasks/ml_new_items/recents/', { token });
      t.same(tasks.body.tasks, [], 'users start no ml_new_items task');
    }

    const back = await stored(
      k,
      token,
      sent.map((s) => s[k.idField] as Id),
    );
    t.equal(back.length, 500);
    t.same(back, sortRecs(k, sent), 'every value reads back as sent');
    // Exactly the fields sent, nothing more.
    for (const b of back.slice(0, 3)) t.same(Object.keys(b).sort(), [k.idField, 'active', 'price', 'stock', 'tags', 'title'].sort());
  });

  t.test(`${k.kind}s: n_created counts new ids, n_modified existing ids whose values changed; PUT replaces, PATCH merges`, async (t) => {
    const { db, token } = await fresh(k);
    const first = await api.put(k.path, { [k.plural]: range(0, 20).map((n) => rec(k, n)) }, { token });
    t.equal(first.status, 200, why(first, 200));
    t.equal(first.body.n_created, 20);

    // 0..4 changed, 5..9 identical, 20..29 new.
    const second = [...range(0, 5).map((n) => rec(k, n, 1)), ...range(5, 10).map((n) => rec(k, n)), ...range(20, 30).map((n) => rec(k, n))];
    let before = await changes(db);
    const r2 = await api.put(k.path, { [k.plural]: second }, { token });
    t.equal(r2.status, 200, why(r2, 200));
    t.equal(r2.body.n_created, 10);
    t.equal(r2.body.n_modified, 5);
    if (k.kind === 'item') t.type(r2.body.ml_task_id, 'string');
    else t.notOk('ml_task_id' in r2.body);
    t.equal(await changes(db), before + 1);
    t.same(await stored(k, token, range(0, 30).map(k.id)), sortRecs(k, [...second, ...range(10, 20).map((n) => rec(k, n))]));

    // Only existing ids, three changed: no ml_task_id.
    const third = [rec(k, 0, 2), rec(k, 1, 2), rec(k, 2, 2), rec(k, 3, 1), rec(k, 10)];
    const r3 = await api.put(k.path, { [k.plural]: third }, { token });
    t.equal(r3.status, 200, why(r3, 200));
    t.equal(r3.body.n_created, 0);
    t.equal(r3.body.n_modified, 3);
    t.notOk('ml_task_id' in r3.body, 'no ml_task_id when nothing was created');

    // Nothing changes: no change-stream entry either.
    before = await changes(db);
    const r4 = await api.put(k.path, { [k.plural]: third }, { token });
    t.equal(r4.status, 200);
    t.equal(r4.body.n_created, 0);
    t.equal(r4.body.n_modified, 0);
    t.notOk('ml_task_id' in r4.body);
    t.equal(await changes(db), before, 'a PUT that changes nothing adds no change-stream entry');

    // PUT replaces: values not listed disappear.
    const r5 = await api.put(
      k.path,
      {
        [k.plural]: [
          { [k.idField]: k.id(11), price: 7.5 },
          { [k.idField]: k.id(12), tags: [] },
        ],
      },
      { token },
    );
    t.equal(r5.status, 200, why(r5, 200));
    t.equal(r5.body.n_created, 0);
    t.equal(r5.body.n_modified, 2);
    t.same(await stored(k, token, [k.id(11), k.id(12)]), [
      { [k.idField]: k.id(11), price: 7.5 },
      { [k.idField]: k.id(12), tags: [] },
    ]);

    // PATCH keeps unlisted values; null removes one.
    const r6 = await api.patch(
      k.path,
      {
        [k.plural]: [
          { [k.idField]: k.id(13), stock: 12345 },
          { [k.idField]: k.id(14), title: null, tags: ['x', 'y'] },
          { [k.idField]: k.id(15), price: rec(k, 15).price }, // identical
        ],
      },
      { token },
    );
    t.equal(r6.status, 200, why(r6, 200));
    t.equal(r6.body.n_created, 0);
    t.equal(r6.body.n_modified, 2);
    t.notOk('ml_task_id' in r6.body);
    const { title: _drop, ...without14 } = rec(k, 14);
    t.same(await stored(k, token, [k.id(13), k.id(14), k.id(15)]), [
      { ...rec(k, 13), stock: 12345 },
      { ...without14, tags: ['x', 'y'] },
      rec(k, 15),
    ]);
    // A PATCH listing a null for a value that is not there changes nothing.
    before = await changes(db);
    const r7 = await api.patch(k.path, { [k.plural]: [{ [k.idField]: k.id(14), title: null }] }, { token });
    t.equal(r7.status, 200);
    t.equal(r7.body.n_modified, 0);
    t.equal(await changes(db), before);
  });

  t.test(`${k.kind}s: PATCH without create_if_missing refuses the whole request when one id is missing`, async (t) => {
    const { db, token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: range(0, 5).map((n) => rec(k, n)) }, { token })).status, 200);
    const before = await changes(db);
    const body = {
      [k.plural]: [
        { [k.idField]: k.id(0), stock: 1 },
        { [k.idField]: k.id(100), stock: 2 },
        { [k.idField]: k.id(1), stock: 3 },
        { [k.idField]: k.id(101), stock: 4 },
      ],
    };
    for (const extra of [{}, { create_if_missing: false }]) {
      const r = await api.patch(k.path, { ...body, ...extra }, { token });
      t.same(errorOf(r), notFound(k.notFound), JSON.stringify(extra));
      t.equal(r.body.error_data?.type, k.kind);
      t.equal(r.body.error_data?.key, k.id(100), 'error_data.key is the (first) missing id');
    }
    t.equal(await changes(db), before, 'no change-stream entry');
    t.same(
      await stored(k, token, range(0, 5).map(k.id)),
      sortRecs(
        k,
        range(0, 5).map((n) => rec(k, n)),
      ),
      'existing ids keep their old values',
    );
    t.same(await listed(k, token, [k.id(100), k.id(101)]), [], 'missing ids were not created');

    const ok = await api.patch(k.path, { ...body, create_if_missing: true }, { token });
    t.equal(ok.status, 200, why(ok, 200));
    t.equal(ok.body.n_created, 2);
    t.equal(ok.body.n_modified, 2);
    if (k.kind === 'item') t.type(ok.body.ml_task_id, 'string');
    else t.notOk('ml_task_id' in ok.body);
    t.same(await stored(k, token, [k.id(0), k.id(1), k.id(100), k.id(101)]), [
      { ...rec(k, 0), stock: 1 },
      { ...rec(k, 1), stock: 3 },
      { [k.idField]: k.id(100), stock: 2 },
      { [k.idField]: k.id(101), stock: 4 },
    ]);
  });

  t.test(`${k.kind}s: a repeated id is DuplicatedError ${k.duplicated}; nothing written`, async (t) => {
    const { db, token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: [rec(k, 0)] }, { token })).status, 200);
    const before = await changes(db);
    // The same id twice, among valid new records and a change to an existing one.
    const twice = [rec(k, 0, 1), ...range(1, 10).map((n) => rec(k, n)), rec(k, 5, 1)];
    // The same id under two spellings of the type.
    const spelled =
      k.kind === 'item'
        ? [rec(k, 1), { ...rec(k, 2), item_id: String(k.id(1)) }]
        : [rec(k, 1), { ...rec(k, 2), user_id: String(k.id(1)).toUpperCase() }];
    const cases: [string, Rec[], Id][] = [
      ['same id twice', twice, k.id(5)],
      ['same id, other spelling', spelled, k.id(1)],
    ];
    for (const [what, records, key] of cases) {
      for (const method of ['put', 'patch'] as const) {
        const body = method === 'patch' ? { [k.plural]: records, create_if_missing: true } : { [k.plural]: records };
        const r = await api[method](k.path, body, { token });
        t.same(errorOf(r), dup(k), `${what} (${method})`);
        t.equal(r.body.error_data?.type, k.kind, what);
        t.equal(r.body.error_data?.key, key, what);
      }
    }
    t.equal(await changes(db), before, 'no change-stream entry');
    t.same(await stored(k, token, range(0, 10).map(k.id)), [rec(k, 0)], 'nothing of the refused requests was written');
  });

  t.test(`${k.kind}s: one invalid value anywhere refuses the whole request with WRONG_DATA_TYPE`, async (t) => {
    const { db, token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: range(0, 10).map((n) => rec(k, n)) }, { token })).status, 200);
    const before = await changes(db);
    const bad: [string, unknown][] = [
      ['stock', 2 ** 31],
      ['stock', 1.5],
      ['price', 'cheap'],
      ['price', 1e39],
      ['active', 1],
      ['title', 'x'.repeat(17)],
      ['title', ['a']],
      ['tags', 'not-a-list'],
      ['tags', ['ok', 7]],
      ['tags', ['ok', 'y'.repeat(17)]],
    ];
    for (const [property, value] of bad) {
      // Changes to existing ids first, then 290 new ids; the last record carries the bad value.
      const records = [...range(0, 10).map((n) => rec(k, n, 3)), ...range(10, 300).map((n) => rec(k, n))];
      const badId = k.id(299);
      records[299] = { ...records[299], [property]: value };
      for (const method of ['put', 'patch'] as const) {
        const body = method === 'patch' ? { [k.plural]: records, create_if_missing: true } : { [k.plural]: records };
        const r = await api[method](k.path, body, { token });
        const what = `${property}=${JSON.stringify(value)} (${method})`;
        t.same(errorOf(r), wrong('WRONG_DATA_TYPE'), what);
        t.equal(r.body.error_data?.property, property, `${what}: names the property`);
        t.equal(r.body.error_data?.[k.idField], badId, `${what}: names the id`);
        t.ok(r.body.message.includes(property), `${what}: the message names the property`);
      }
    }
    t.equal(await changes(db), before, 'no change-stream entry');
    t.same(await listed(k, token, range(10, 300).map(k.id)), [], 'none of the new ids was written');
    t.same(
      await stored(k, token, range(0, 10).map(k.id)),
      sortRecs(
        k,
        range(0, 10).map((n) => rec(k, n)),
      ),
      'existing ids keep their values',
    );
  });

  t.test(`${k.kind}s: records without ${k.idField} or with ids of the wrong type are refused`, async (t) => {
    const { db, token } = await fresh(k);
    const before = await changes(db);
    const good = range(0, 3).map((n) => rec(k, n));
    const noId = { ...rec(k, 3) } as Rec;
    delete noId[k.idField];
    for (const method of ['put', 'patch'] as const) {
      const extra = method === 'patch' ? { create_if_missing: true } : {};
      const r = await api[method](k.path, { [k.plural]: [...good, noId], ...extra }, { token });
      t.same(errorOf(r), wrong('WRONG_DATA_TYPE'), `no ${k.idField} (${method})`);
      for (const bad of k.badIds) {
        const r2 = await api[method](k.path, { [k.plural]: [...good, { ...rec(k, 3), [k.idField]: bad }], ...extra }, { token });
        t.same(errorOf(r2), wrong(k.idError), `${k.idField} ${JSON.stringify(bad)} (${method})`);
      }
      if (k.kind === 'item') {
        for (const zero of [0, '0']) {
          const r3 = await api[method](k.path, { [k.plural]: [...good, { ...rec(k, 3), item_id: zero }], ...extra }, { token });
          t.same(errorOf(r3), wrong('INCORRECT_ITEM_ID_TYPE'), `item_id ${JSON.stringify(zero)} (${method})`);
        }
      }
    }
    t.equal(await changes(db), before, 'no change-stream entry');
    t.same(await listed(k, token, range(0, 4).map(k.id)), [], 'nothing written');
  });

  t.test(`${k.kind}s: ${k.m2m} fills repeated properties of the records it points at`, async (t) => {
    const { db, token } = await fresh(k);
    const records = [
      { [k.idField]: k.id(0), tags: ['own'] },
      { [k.idField]: k.id(1), price: 1 },
      { [k.idField]: k.id(2), price: 2 },
    ];
    const m2m = [
      {
        name: 'tags',
        array: [
          { [k.index]: 0, value_id: 'm1' },
          { [k.index]: 1, value_id: 'm2' },
          { [k.index]: 0, value_id: 'm3' },
        ],
      },
    ];
    const r = await api.put(k.path, { [k.plural]: records, [k.m2m]: m2m }, { token });
    t.equal(r.status, 200, why(r, 200));
    t.equal(r.body.n_created, 3);
    t.same(await stored(k, token, range(0, 3).map(k.id)), [
      { [k.idField]: k.id(0), tags: ['own', 'm1', 'm3'] },
      { [k.idField]: k.id(1), price: 1, tags: ['m2'] },
      { [k.idField]: k.id(2), price: 2 },
    ]);

    // PATCH with m2m: the pointed-at record gets the new list (lists replace), its other values stay.
    const p = await api.patch(
      k.path,
      {
        [k.plural]: [{ [k.idField]: k.id(1) }, { [k.idField]: k.id(2), price: 3 }],
        [k.m2m]: [{ name: 'tags', array: [{ [k.index]: 0, value_id: 'p1' }] }],
      },
      { token },
    );
    t.equal(p.status, 200, why(p, 200));
    t.equal(p.body.n_created, 0);
    t.equal(p.body.n_modified, 2);
    t.same(await stored(k, token, [k.id(1), k.id(2)]), [
      { [k.idField]: k.id(1), price: 1, tags: ['p1'] },
      { [k.idField]: k.id(2), price: 3 },
    ]);

    // Refused m2m blocks write nothing.
    const before = await changes(db);
    const newRecords = [
      { [k.idField]: k.id(10), tags: ['a'] },
      { [k.idField]: k.id(11), price: 5 },
      { [k.idField]: k.id(0), price: 9 },
    ];
    const bad: [string, unknown][] = [
      ['not a repeated property', [{ name: 'price', array: [{ [k.index]: 0, value_id: 1 }] }]],
      ['not a property', [{ name: 'nothing', array: [{ [k.index]: 0, value_id: 'x' }] }]],
      [
        'index past the end',
        [
          {
            name: 'tags',
            array: [
              { [k.index]: 0, value_id: 'x' },
              { [k.index]: 3, value_id: 'y' },
            ],
          },
        ],
      ],
      ['negative index', [{ name: 'tags', array: [{ [k.index]: -1, value_id: 'x' }] }]],
      ['fractional index', [{ name: 'tags', array: [{ [k.index]: 0.5, value_id: 'x' }] }]],
      ['index missing', [{ name: 'tags', array: [{ value_id: 'x' }] }]],
      [
        'value_id of the wrong type',
        [
          {
            name: 'tags',
            array: [
              { [k.index]: 1, value_id: 'ok' },
              { [k.index]: 2, value_id: 42 },
            ],
          },
        ],
      ],
      ['value_id too long', [{ name: 'tags', array: [{ [k.index]: 1, value_id: 'z'.repeat(17) }] }]],
    ];
    for (const [what, block] of bad) {
      for (const method of ['put', 'patch'] as const) {
        const body = { [k.plural]: newRecords, [k.m2m]: block, ...(method === 'patch' ? { create_if_missing: true } : {}) };
        const res = await api[method](k.path, body, { token });
        t.same(errorOf(res), wrong('WRONG_DATA_TYPE'), `${what} (${method})`);
      }
    }
    t.equal(await changes(db), before, 'no change-stream entry');
    t.same(await listed(k, token, [k.id(10), k.id(11)]), [], 'no new id written');
    t.same(await stored(k, token, [k.id(0)]), [{ [k.idField]: k.id(0), tags: ['own', 'm1', 'm3'] }], 'the existing record is unchanged');
  });

  t.test(`${k.kind}s: ${k.m2m} appends after the record's own list whatever the case of its property name`, async (t) => {
    const { token } = await fresh(k);
    const r = await api.put(
      k.path,
      {
        [k.plural]: [
          { [k.idField]: k.id(0), TAGS: ['own'] },
          { [k.idField]: k.id(1), tags: ['own1'] },
        ],
        [k.m2m]: [
          {
            name: 'Tags',
            array: [
              { [k.index]: 0, value_id: 'm1' },
              { [k.index]: 1, value_id: 'm2' },
            ],
          },
        ],
      },
      { token },
    );
    t.equal(r.status, 200, why(r, 200));
    t.same(await stored(k, token, [k.id(0), k.id(1)]), [
      { [k.idField]: k.id(0), tags: ['own', 'm1'] },
      { [k.idField]: k.id(1), tags: ['own1', 'm2'] },
    ]);
  });

  t.test(`${k.kind}s: wait_for_completion false answers 202 {warnings}; the records appear shortly after`, async (t) => {
    const { token } = await fresh(k);
    const sent = range(0, 200).map((n) => rec(k, n));
    const r = await api.put(k.path, { [k.plural]: sent, wait_for_completion: false }, { token });
    t.equal(r.status, 202, why(r, 202));
    t.type(r.body, 'object');
    t.ok(Array.isArray(r.body.warnings), 'a warnings list');
    for (const f of ['n_created', 'n_modified', 'ml_task_id']) t.notOk(f in r.body, `no ${f}`);
    const ids = sent.map((s) => s[k.idField] as Id);
    const deadline = Date.now() + 2000;
    let back = await stored(k, token, ids);
    while (back.length < ids.length && Date.now() < deadline) {
      await sleep(20);
      back = await stored(k, token, ids);
    }
    t.same(back, sortRecs(k, sent), 'all written');

    // PATCH too.
    const p = await api.patch(
      k.path,
      {
        [k.plural]: [
          { [k.idField]: k.id(0), stock: 99 },
          { [k.idField]: k.id(500), stock: 5 },
        ],
        create_if_missing: true,
        wait_for_completion: false,
      },
      { token },
    );
    t.equal(p.status, 202, why(p, 202));
    t.notOk('n_created' in p.body);
    const deadline2 = Date.now() + 2000;
    let got = await stored(k, token, [k.id(0), k.id(500)]);
    while (got.length < 2 && Date.now() < deadline2) {
      await sleep(20);
      got = await stored(k, token, [k.id(0), k.id(500)]);
    }
    t.same(got, [
      { ...rec(k, 0), stock: 99 },
      { [k.idField]: k.id(500), stock: 5 },
    ]);

    // Values are still checked before answering.
    const bad = await api.put(
      k.path,
      { [k.plural]: [rec(k, 600), { ...rec(k, 601), stock: 'many' }], wait_for_completion: false },
      { token },
    );
    t.same(errorOf(bad), wrong('WRONG_DATA_TYPE'));
    const dupl = await api.put(k.path, { [k.plural]: [rec(k, 600), rec(k, 600)], wait_for_completion: false }, { token });
    t.same(errorOf(dupl), dup(k));
    // A write sent after them (and awaited) lands after anything they could have started.
    t.equal((await api.put(k.path, { [k.plural]: [rec(k, 700)] }, { token })).status, 200);
    t.same(await listed(k, token, [k.id(600), k.id(601)]), [], 'refused requests wrote nothing');
  });

  t.test(`${k.kind}s: unknown fields in records are ignored with a warning naming them`, async (t) => {
    const { token } = await fresh(k);
    const r = await api.put(
      k.path,
      {
        [k.plural]: [
          { ...rec(k, 0), colour: 'red', Weight: 3 },
          { ...rec(k, 1), colour: 'blue' },
        ],
      },
      { token },
    );
    t.equal(r.status, 200, why(r, 200));
    t.equal(r.body.n_created, 2);
    t.ok(hasWarning(r, 'colour'), 'warning names colour');
    t.ok(hasWarning(r, 'Weight'), 'warning names Weight');
    t.same(await stored(k, token, [k.id(0), k.id(1)]), [rec(k, 0), rec(k, 1)], 'unknown fields are not stored');

    const p = await api.patch(k.path, { [k.plural]: [{ [k.idField]: k.id(0), stock: 1, shape: 'round' }] }, { token });
    t.equal(p.status, 200, why(p, 200));
    t.ok(hasWarning(p, 'shape'), 'PATCH warns too');
    const plain = await api.put(k.path, { [k.plural]: [rec(k, 1)] }, { token });
    t.same(plain.body.warnings, [], 'no warning without unknown fields');
  });

  t.test(`${k.kind}s: unknown top-level body fields are ignored with a warning naming them`, async (t) => {
    // docs/api-choices.md, Transport: body fields an endpoint does not use are named in `warnings`.
    const { token } = await fresh(k);
    const put = await api.put(k.path, { [k.plural]: [rec(k, 0)], surplus_field: 1, create_if_missing: true }, { token });
    t.equal(put.status, 200, why(put, 200));
    t.equal(put.body.n_created, 1);
    t.ok(hasWarning(put, 'surplus_field'), 'PUT names the unknown field');
    t.ok(hasWarning(put, 'create_if_missing'), 'PUT does not use create_if_missing');
    const patch = await api.patch(k.path, { [k.plural]: [{ [k.idField]: k.id(0), stock: 1 }], other_field: true }, { token });
    t.equal(patch.status, 200, why(patch, 200));
    t.ok(hasWarning(patch, 'other_field'), 'PATCH names the unknown field');
    const async = await api.put(k.path, { [k.plural]: [rec(k, 1)], wait_for_completion: false, third_field: 'x' }, { token });
    t.equal(async.status, 202, why(async, 202));
    t.ok(hasWarning(async, 'third_field'), 'a 202 answer names it too');
    const list = await api.post(k.list, { [k.idsField]: [k.id(0)], fourth_field: [] }, { token });
    t.equal(list.status, 200, why(list, 200));
    t.ok(hasWarning(list, 'fourth_field'), 'list names the unknown field');
  });

  t.test(`${k.kind}s: a record whose every value was removed still exists, with its id only`, async (t) => {
    // docs/api-choices.md: an entity exists from its first write until it is deleted, values or not
    // (a catalogue may have no properties at all).
    const { token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: [{ [k.idField]: k.id(0), price: 1, tags: ['a'] }, rec(k, 1)] }, { token })).status, 200);
    const p = await api.patch(k.path, { [k.plural]: [{ [k.idField]: k.id(0), price: null, tags: null }] }, { token });
    t.equal(p.status, 200, why(p, 200));
    t.equal(p.body.n_modified, 1);
    t.same(
      await stored(k, token, [k.id(0), k.id(1)]),
      sortRecs(k, [{ [k.idField]: k.id(0) }, rec(k, 1)]),
      'the emptied id is listed with its id only',
    );
    // A PUT listing no value replaces every value with none.
    const put = await api.put(k.path, { [k.plural]: [{ [k.idField]: k.id(1) }] }, { token });
    t.equal(put.status, 200, why(put, 200));
    t.equal(put.body.n_modified, 1);
    t.same(
      await stored(k, token, [k.id(0), k.id(1)]),
      sortRecs(k, [{ [k.idField]: k.id(0) }, { [k.idField]: k.id(1) }]),
      'both listed, ids only',
    );
    // DELETE is what makes an entity missing.
    t.equal((await api.delete(k.path, { [k.idsField]: [k.id(0), k.id(1)] }, { token })).status, 204);
    t.same(await listed(k, token, [k.id(0), k.id(1)]), [], 'deleted ones are left out');
  });

  t.test(`${k.kind}s: DELETE ${k.path} removes the values and keeps the indices`, async (t) => {
    const { db, token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: range(0, 10).map((n) => rec(k, n)) }, { token })).status, 200);
    const indexKey = keys.entityIndex(db, k.kind);
    const idx3 = await stack.redis.hget(indexKey, String(k.id(3)));
    t.ok(idx3 !== null, 'the id has an index');

    let before = await changes(db);
    const d = await api.delete(k.path, { [k.idsField]: [k.id(3), k.id(4), k.id(1000), k.id(1001)] }, { token });
    t.equal(d.status, 204, why(d, 204));
    t.equal(d.text, '');
    t.equal(await changes(db), before + 1, 'one change-stream entry');
    t.same(
      (await stored(k, token, range(0, 10).map(k.id))).map((x) => x[k.idField]),
      sortRecs(
        k,
        range(0, 10)
          .filter((n) => n !== 3 && n !== 4)
          .map((n) => rec(k, n)),
      ).map((x) => x[k.idField]),
      'deleted ids are missing from list, the others stay',
    );
    t.same(await listed(k, token, [k.id(1000)]), [], 'unknown ids were ignored and not created');

    // Deleting again, or only unknown ids: still 204, nothing changes.
    before = await changes(db);
    t.equal((await api.delete(k.path, { [k.idsField]: [k.id(3), k.id(2000)] }, { token })).status, 204);
    t.equal((await api.delete(k.path, { [k.idsField]: [] }, { token })).status, 204);
    t.equal(await changes(db), before, 'deleting nothing adds no change-stream entry');

    // A wrong-type id refuses the whole delete.
    const bad = await api.delete(k.path, { [k.idsField]: [k.id(5), k.badIds[0]] }, { token });
    t.same(errorOf(bad), wrong(k.idError));
    t.equal((await listed(k, token, [k.id(5)])).length, 1, 'nothing deleted by the refused request');

    // A deleted id is missing for PATCH without create_if_missing.
    const patch = await api.patch(
      k.path,
      {
        [k.plural]: [
          { [k.idField]: k.id(2), stock: 1 },
          { [k.idField]: k.id(3), stock: 1 },
        ],
      },
      { token },
    );
    t.same(errorOf(patch), notFound(k.notFound));
    t.equal(patch.body.error_data?.key, k.id(3));

    // Writing it again creates it, under the same index.
    const again = await api.put(k.path, { [k.plural]: [rec(k, 3, 1), rec(k, 5)] }, { token });
    t.equal(again.status, 200, why(again, 200));
    t.equal(again.body.n_created, 1);
    t.equal(again.body.n_modified, 0);
    if (k.kind === 'item') t.type(again.body.ml_task_id, 'string');
    t.equal(await stack.redis.hget(indexKey, String(k.id(3))), idx3, 'the index is kept');
    t.same(await stored(k, token, [k.id(3)]), [rec(k, 3, 1)]);
  });

  t.test(`${k.kind}s: POST ${k.list} leaves out missing ids and limits the fields with properties`, async (t) => {
    const { token } = await fresh(k);
    t.equal((await api.put(k.path, { [k.plural]: range(0, 5).map((n) => rec(k, n)) }, { token })).status, 200);

    const r = await api.post(k.list, { [k.idsField]: [k.id(4), k.id(999), k.id(0), k.id(2)] }, { token });
    t.equal(r.status, 200, why(r, 200));
    t.same(sortRecs(k, r.body[k.plural]), [rec(k, 0), rec(k, 2), rec(k, 4)], 'missing ids are left out');
    t.same(
      r.body[k.plural].map((x: Rec) => x[k.idField]),
      [k.id(4), k.id(0), k.id(2)],
      'in request order (docs/api-choices.md)',
    );
    t.ok(Array.isArray(r.body.warnings));

    const empty = await api.post(k.list, { [k.idsField]: [] }, { token });
    t.equal(empty.status, 200);
    t.same(empty.body[k.plural], []);

    const some = await api.post(k.list, { [k.idsField]: [k.id(1), k.id(3)], properties: ['price', 'TAGS'] }, { token });
    t.equal(some.status, 200, why(some, 200));
    t.same(
      sortRecs(k, some.body[k.plural]),
      [1, 3].map((n) => ({ [k.idField]: k.id(n), price: rec(k, n).price, tags: rec(k, n).tags })),
      'only the named properties (names case-insensitive)',
    );
    t.notOk(hasWarning(some, 'price'), 'no warning for known names');

    const unknown = await api.post(k.list, { [k.idsField]: [k.id(1)], properties: ['stock', 'nosuch'] }, { token });
    t.equal(unknown.status, 200, why(unknown, 200));
    t.same(unknown.body[k.plural], [{ [k.idField]: k.id(1), stock: rec(k, 1).stock }]);
    t.ok(hasWarning(unknown, 'nosuch'), 'an unknown property name gives a warning naming it');

    const none = await api.post(k.list, { [k.idsField]: [k.id(1)], properties: [] }, { token });
    t.same(none.body[k.plural], [{ [k.idField]: k.id(1) }], 'an empty properties list leaves the id only');

    for (const bad of k.badIds) {
      const b = await api.post(k.list, { [k.idsField]: [k.id(0), bad] }, { token });
      t.same(errorOf(b), wrong(k.idError), `list with ${JSON.stringify(bad)}`);
    }

    if (k.kind === 'user') {
      // uuids are case-insensitive and come back lower-case.
      const upper = await api.post(k.list, { users_id: [String(k.id(2)).toUpperCase()] }, { token });
      t.same(upper.body.users, [rec(k, 2)]);
    } else {
      // uint32 ids may be sent as decimal strings and come back as numbers.
      const asString = await api.post(k.list, { items_id: [String(k.id(2))] }, { token });
      t.same(asString.body.items, [rec(k, 2)]);
    }
  });

  t.test(`${k.kind}s: deprecated ${k.oldPath} and ${k.oldList} behave the same and warn`, async (t) => {
    const { db, token } = await fresh(k);
    const before = await changes(db);
    const put = await api.put(k.oldPath, { [k.plural]: range(0, 50).map((n) => rec(k, n)) }, { token });
    t.equal(put.status, 200, why(put, 200));
    t.equal(put.body.n_created, 50);
    t.equal(put.body.n_modified, 0);
    if (k.kind === 'item') t.type(put.body.ml_task_id, 'string');
    else t.notOk('ml_task_id' in put.body);
    t.ok(hasWarning(put, 'deprecated'), 'PUT warns');
    t.equal(await changes(db), before + 1);

    const list = await api.post(k.oldList, { [k.idsField]: range(0, 50).map(k.id), properties: ['price', 'nosuch'] }, { token });
    t.equal(list.status, 200, why(list, 200));
    t.same(
      sortRecs(k, list.body[k.plural]),
      sortRecs(
        k,
        range(0, 50).map((n) => ({ [k.idField]: k.id(n), price: rec(k, n).price })),
      ),
    );
    t.ok(hasWarning(list, 'deprecated'), 'list warns');
    t.ok(hasWarning(list, 'nosuch'), 'list keeps its own warnings');

    const patch = await api.patch(
      k.oldPath,
      {
        [k.plural]: [
          { [k.idField]: k.id(0), stock: 1 },
          { [k.idField]: k.id(60), stock: 2 },
        ],
        create_if_missing: true,
      },
      { token },
    );
    t.equal(patch.status, 200, why(patch, 200));
    t.equal(patch.body.n_created, 1);
    t.equal(patch.body.n_modified, 1);
    t.ok(hasWarning(patch, 'deprecated'), 'PATCH warns');

    const missing = await api.patch(
      k.oldPath,
      {
        [k.plural]: [
          { [k.idField]: k.id(0), stock: 5 },
          { [k.idField]: k.id(70), stock: 2 },
        ],
      },
      { token },
    );
    t.same(errorOf(missing), notFound(k.notFound));
    t.equal(missing.body.error_data?.key, k.id(70));
    const duplicate = await api.put(k.oldPath, { [k.plural]: [rec(k, 80), rec(k, 80)] }, { token });
    t.same(errorOf(duplicate), dup(k));
    const invalid = await api.put(k.oldPath, { [k.plural]: [rec(k, 81), { ...rec(k, 82), active: 'yes' }] }, { token });
    t.same(errorOf(invalid), wrong('WRONG_DATA_TYPE'));
    t.same(await listed(k, token, [k.id(70), k.id(80), k.id(81), k.id(82)]), []);
    t.same(await stored(k, token, [k.id(0)]), [{ ...rec(k, 0), stock: 1 }]);

    const async = await api.put(k.oldPath, { [k.plural]: [rec(k, 90)], wait_for_completion: false }, { token });
    t.equal(async.status, 202, why(async, 202));
    t.ok(hasWarning(async, 'deprecated'), '202 warns too');

    const del = await api.delete(k.oldPath, { [k.idsField]: [k.id(1), k.id(2)] }, { token });
    t.equal(del.status, 204);
    t.same(await listed(k, token, [k.id(1), k.id(2)]), []);
  });

  t.test(`${k.kind}s: one request is one change-stream entry naming every changed record`, async (t) => {
    const { db, token } = await fresh(k);
    const before = await changes(db);
    const r = await api.put(k.path, { [k.plural]: range(0, 500).map((n) => rec(k, n)) }, { token });
    t.equal(r.status, 200, why(r, 200));
    t.equal(await changes(db), before + 1);
    const [last] = await stack.redis.xrevrange(keys.catalogueChanges(db), '+', '-', 'COUNT', 1);
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < (last?.[1].length ?? 0); i += 2) fields[last![1][i]!] = last![1][i + 1]!;
    t.equal(fields.kind, k.kind);
    t.equal(new Set((fields.idx ?? '').split(',').filter((x) => x !== '')).size, 500, 'the entry names the 500 records');

    // Unchanged: none. One changed among 500: one entry naming it.
    t.equal((await api.put(k.path, { [k.plural]: range(0, 500).map((n) => rec(k, n)) }, { token })).status, 200);
    t.equal(await changes(db), before + 1, 'an identical PUT adds none');
    const one = await api.put(k.path, { [k.plural]: range(0, 500).map((n) => rec(k, n, n === 250 ? 1 : 0)) }, { token });
    t.equal(one.body.n_modified, 1);
    t.equal(await changes(db), before + 2);
    const [latest] = await stack.redis.xrevrange(keys.catalogueChanges(db), '+', '-', 'COUNT', 1);
    const idxAt = latest![1].indexOf('idx');
    t.equal(
      latest![1][idxAt + 1],
      await stack.redis.hget(keys.entityIndex(db, k.kind), String(k.id(250))),
      'the entry names the changed record',
    );
  });
}

t.test('roles: frontend may list items but not write them, and may not touch users', async (t) => {
  const { db, token } = await fresh(ITEMS);
  for (const p of PROPERTIES) await api.post(USERS.props, p, { token });
  t.equal((await api.put(ITEMS.path, { items: [rec(ITEMS, 0)] }, { token })).status, 200);
  t.equal((await api.put(USERS.path, { users: [rec(USERS, 0)] }, { token })).status, 200);
  const frontend = await tokenFor(api, root, 'frontend', db);

  for (const list of [ITEMS.list, ITEMS.oldList]) {
    const r = await api.post(list, { items_id: [ITEMS.id(0)] }, { token: frontend });
    t.equal(r.status, 200, `${list}: ${why(r, 200)}`);
    t.same(r.body.items, [rec(ITEMS, 0)]);
  }
  const before = await changes(db);
  for (const path of [ITEMS.path, ITEMS.oldPath]) {
    t.same(errorOf(await api.put(path, { items: [rec(ITEMS, 1)] }, { token: frontend })), FORBIDDEN, `PUT ${path}`);
    t.same(errorOf(await api.patch(path, { items: [rec(ITEMS, 0, 1)] }, { token: frontend })), FORBIDDEN, `PATCH ${path}`);
    t.same(errorOf(await api.delete(path, { items_id: [ITEMS.id(0)] }, { token: frontend })), FORBIDDEN, `DELETE ${path}`);
  }
  for (const path of [USERS.path, USERS.oldPath]) {
    t.same(errorOf(await api.put(path, { users: [rec(USERS, 1)] }, { token: frontend })), FORBIDDEN, `PUT ${path}`);
    t.same(errorOf(await api.patch(path, { users: [rec(USERS, 0, 1)] }, { token: frontend })), FORBIDDEN, `PATCH ${path}`);
    t.same(errorOf(await api.delete(path, { users_id: [USERS.id(0)] }, { token: frontend })), FORBIDDEN, `DELETE ${path}`);
  }
  for (const list of [USERS.list, USERS.oldList]) {
    t.same(errorOf(await api.post(list, { users_id: [USERS.id(0)] }, { token: frontend })), FORBIDDEN, `POST ${list}`);
  }
  t.equal(await changes(db), before, 'the refused requests wrote nothing');
  t.same(await stored(ITEMS, token, [ITEMS.id(0), ITEMS.id(1)]), [rec(ITEMS, 0)]);
  t.same(await stored(USERS, token, [USERS.id(0), USERS.id(1)]), [rec(USERS, 0)]);

  // root and manager may write both.
  for (const role of ['root', 'manager']) {
    const tok = await tokenFor(api, root, role, db);
    const n = role === 'root' ? 10 : 20;
    const i = await api.put(ITEMS.path, { items: [rec(ITEMS, n)] }, { token: tok });
    t.equal(i.status, 200, `${role} items: ${why(i, 200)}`);
    t.equal(i.body.n_created, 1);
    const u = await api.patch(USERS.path, { users: [rec(USERS, n)], create_if_missing: true }, { token: tok });
    t.equal(u.status, 200, `${role} users: ${why(u, 200)}`);
    t.equal(u.body.n_created, 1);
    t.equal((await api.post(USERS.list, { users_id: [USERS.id(n)] }, { token: tok })).body.users.length, 1);
    t.equal((await api.delete(ITEMS.path, { items_id: [ITEMS.id(n)] }, { token: tok })).status, 204);
  }
});

t.test('a token bound to a deleted database gets DATABASE_NOT_FOUND on the bulk endpoints', async (t) => {
  const { db, token } = await fresh(ITEMS);
  for (const p of PROPERTIES) await api.post(USERS.props, p, { token });
  t.equal((await api.put(ITEMS.path, { items: [rec(ITEMS, 0)] }, { token })).status, 200);
  const admin = await tokenFor(api, root, 'root', db);
  const d = await api.delete('databases/current/', undefined, { token: admin });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);

  const NF = notFound('DATABASE_NOT_FOUND');
  for (const k of KINDS) {
    for (const path of [k.path, k.oldPath]) {
      t.same(errorOf(await api.put(path, { [k.plural]: [rec(k, 1)] }, { token })), NF, `PUT ${path}`);
      t.same(errorOf(await api.patch(path, { [k.plural]: [rec(k, 1)], create_if_missing: true }, { token })), NF, `PATCH ${path}`);
      t.same(errorOf(await api.delete(path, { [k.idsField]: [k.id(0)] }, { token })), NF, `DELETE ${path}`);
    }
    for (const list of [k.list, k.oldList]) {
      t.same(errorOf(await api.post(list, { [k.idsField]: [k.id(0)] }, { token })), NF, `POST ${list}`);
    }
  }
  const left = (await stack.redis.keys('*')).filter((key) => key.startsWith(`{db:${db}}`));
  t.same(left, [], 'the refused requests recreated no key of the database');
});
