// Bulk listings: GET items-bulk/properties/ and users-bulk/properties/ (and the deprecated items-bulk/ and
// users-bulk/): cursor pagination in creation order, exact pages while others write, `properties`,
// filters as query strings (every op and value type, percent-encoding, AND), filter errors, roles.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const WRONG_PARAMETER = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' };
const WRONG_DATA_TYPE = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_DATA_TYPE' };
const WRONG_OP_USE = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_OP_USE' };
const FORBIDDEN = { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' };
const ITEM_PROPERTY_NOT_FOUND = { status: 404, code: 60, errorName: 'NotFoundError', name: 'ITEM_PROPERTY_NOT_FOUND' };
const USER_PROPERTY_NOT_FOUND = { status: 404, code: 60, errorName: 'NotFoundError', name: 'USER_PROPERTY_NOT_FOUND' };

const ITEMS = 'items-bulk/properties/';
const USERS = 'users-bulk/properties/';
const ITEMS_OLD = 'items-bulk/';
const USERS_OLD = 'users-bulk/';

type Rec = Record<string, unknown>;
type Plural = 'items' | 'users';

interface PageBody {
  items?: Rec[];
  users?: Rec[];
  has_next: boolean;
  next_cursor: string;
  warnings: string[];
}

const recordsOf = (body: PageBody, plural: Plural): Rec[] => body[plural] ?? [];
const idsOf = (records: Rec[], idField: string) => records.map((r) => r[idField]);

async function define(token: string, prefix: 'items-properties' | 'users-properties', defs: Rec[]): Promise<void> {
  for (const def of defs) {
    const r = await api.post(`${prefix}/`, def, { token });
    if (r.status !== 204) throw new Error(`defining ${JSON.stringify(def)} failed: ${r.text}`);
  }
}

// PUT …-bulk/properties/ in batches of `batch` records (the spec's suggested 500).
async function upload(token: string, path: string, plural: Plural, records: Rec[], batch = 500): Promise<void> {
  for (let i = 0; i < records.length; i += batch) {
    const chunk = records.slice(i, i + batch);
    const r = await api.put(path, { [plural]: chunk }, { token });
    if (r.status !== 200 || r.body.n_created !== chunk.length)
      throw new Error(`upload of ${chunk.length} ${plural} failed: ${r.status} ${r.text}`);
  }
}

async function removeAll(token: string, path: string, idsKey: 'items_id' | 'users_id', ids: unknown[]): Promise<void> {
  const r = await api.delete(path, { [idsKey]: ids }, { token });
  if (r.status !== 204) throw new Error(`delete failed: ${r.status} ${r.text}`);
}

const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join('&');
const filtersQuery = (...filters: string[]) => filters.map((f) => `filters=${encodeURIComponent(f)}`).join('&');
const cursorQuery = (cursor: string | undefined) => (cursor === undefined ? undefined : `cursor=${encodeURIComponent(cursor)}`);

// Follows next_cursor from the first page to the one with has_next false; every page must answer 200.
async function walk(path: string, token: string, o: { amt?: number; query?: string } = {}): Promise<PageBody[]> {
  const pages: PageBody[] = [];
  let cursor: string | undefined;
  for (;;) {
    if (pages.length > 3000) throw new Error(`${path}: the walk does not end`);
    const r = await api.get(path, { token, query: join(o.query, o.amt === undefined ? undefined : `amt=${o.amt}`, cursorQuery(cursor)) });
    if (r.status !== 200) throw new Error(`${path} page ${pages.length + 1}: ${r.status} ${r.text}`);
    const body = r.body as PageBody;
    pages.push(body);
    if (body.has_next !== true) return pages;
    if (typeof body.next_cursor !== 'string' || body.next_cursor === '')
      throw new Error(`${path} page ${pages.length}: has_next without next_cursor`);
    cursor = body.next_cursor;
  }
}

const all = (pages: PageBody[], plural: Plural) => pages.flatMap((p) => recordsOf(p, plural));
// Expected page sizes when `n` records are walked `amt` at a time (one empty page when n is 0).
function sizesFor(n: number, amt: number): number[] {
  const out: number[] = [];
  for (let left = n; left > 0; left -= amt) out.push(Math.min(amt, left));
  return out.length === 0 ? [0] : out;
}

// What checkPageShape needs of a test.
interface Tap {
  equal(found: unknown, wanted: unknown, message: string): boolean;
  ok(value: unknown, message: string): boolean;
}

// Every page but the last is full, says has_next and carries a cursor; the last says neither.
function checkPageShape(t: Tap, pages: PageBody[], plural: Plural, amt: number, what: string): void {
  pages.forEach((p, i) => {
    const last = i === pages.length - 1;
    t.equal(p.has_next, !last, `${what}: page ${i + 1} has_next`);
    if (last) t.equal(p.next_cursor, '', `${what}: the last page's next_cursor is ''`);
    else {
      t.equal(recordsOf(p, plural).length, amt, `${what}: page ${i + 1} is full`);
      t.ok(typeof p.next_cursor === 'string' && p.next_cursor.length > 0, `${what}: page ${i + 1} carries a cursor`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The catalogue: 1,200 items whose ids are a permutation of 1..1,200 (so creation order is not id
// order), and 650 users with random uuids.

const cat = await createDatabase(api, root);
const backend = await tokenFor(api, root, 'backend', cat);
await define(backend, 'items-properties', [
  { property_name: 'Price', value_type: 'float' },
  { property_name: 'title', value_type: 'unicode64' },
  { property_name: 'tags', value_type: 'unicode16', repeated: true },
]);
await define(backend, 'users-properties', [
  { property_name: 'age', value_type: 'int32' },
  { property_name: 'City', value_type: 'unicode32' },
  { property_name: 'hobbies', value_type: 'unicode16', repeated: true },
]);

const N_ITEMS = 1200;
const catItems: Rec[] = Array.from({ length: N_ITEMS }, (_, i) => ({
  item_id: ((i * 7919) % N_ITEMS) + 1,
  Price: i + 0.25,
  title: `item ${i}`,
  tags: [`t${i % 3}`, 'all'],
}));
const catIds = idsOf(catItems, 'item_id');
await upload(backend, ITEMS, 'items', catItems);

const CITIES = ['Paris', 'Zürich', 'Tōkyō', 'Lima'];
const N_USERS = 650;
const catUsers: Rec[] = Array.from({ length: N_USERS }, (_, i) => ({
  user_id: randomUUID(),
  age: 18 + (i % 60),
  City: CITIES[i % 4],
  hobbies: i % 5 === 0 ? [] : ['chess', `h${i % 7}`],
}));
const userIds = idsOf(catUsers, 'user_id');
await upload(backend, USERS, 'users', catUsers);

t.test('the id permutation really differs from creation order', async (t) => {
  t.equal(new Set(catIds).size, N_ITEMS);
  t.notSame(
    catIds,
    [...catIds].sort((a, b) => (a as number) - (b as number)),
  );
});

t.test('GET items-bulk/properties/ walks 1,200 items 500 at a time in creation order', async (t) => {
  const pages = await walk(ITEMS, backend, { amt: 500 });
  t.same(
    pages.map((p) => recordsOf(p, 'items').length),
    [500, 500, 200],
  );
  t.same(
    pages.map((p) => p.has_next),
    [true, true, false],
  );
  t.equal(pages[2]!.next_cursor, '', "next_cursor is '' on the last page");
  t.not(pages[0]!.next_cursor, pages[1]!.next_cursor, 'every page has its own cursor');
  for (const p of pages) t.same(p.warnings, []);
  const seen = all(pages, 'items');
  t.same(idsOf(seen, 'item_id'), catIds, 'every item exactly once, in creation order');
  t.strictSame(seen, catItems, 'every record carries its id and all its values');
});

t.test('the default amt is 300, and amt=7 walks 172 pages', async (t) => {
  const dflt = await walk(ITEMS, backend);
  t.same(
    dflt.map((p) => recordsOf(p, 'items').length),
    [300, 300, 300, 300],
  );
  checkPageShape(t, dflt, 'items', 300, 'default amt');
  t.same(idsOf(all(dflt, 'items'), 'item_id'), catIds);

  const seven = await walk(ITEMS, backend, { amt: 7 });
  t.equal(seven.length, 172);
  t.same(
    seven.map((p) => recordsOf(p, 'items').length),
    sizesFor(N_ITEMS, 7),
  );
  checkPageShape(t, seven, 'items', 7, 'amt=7');
  const ids = idsOf(all(seven, 'items'), 'item_id');
  t.equal(new Set(ids).size, ids.length, 'no item on two pages');
  t.same(ids, catIds);

  const one = await api.get(ITEMS, { token: backend, query: 'amt=1' });
  t.equal(one.status, 200);
  t.strictSame(one.body.items, [catItems[0]]);
  t.equal(one.body.has_next, true);
});

t.test('a cursor is a position: reusable, and independent of the amt that produced it', async (t) => {
  const first = await api.get(ITEMS, { token: backend, query: 'amt=500' });
  const cursor: string = first.body.next_cursor;
  const a = await api.get(ITEMS, { token: backend, query: join('amt=500', cursorQuery(cursor)) });
  const b = await api.get(ITEMS, { token: backend, query: join('amt=500', cursorQuery(cursor)) });
  t.equal(a.status, 200);
  t.strictSame(a.body, b.body, 'the same cursor gives the same page again');
  t.same(idsOf(a.body.items, 'item_id'), catIds.slice(500, 1000));
  const small = await api.get(ITEMS, { token: backend, query: join('amt=7', cursorQuery(cursor)) });
  t.same(idsOf(small.body.items, 'item_id'), catIds.slice(500, 507), 'amt=7 from the amt=500 cursor continues at item 501');
  const next = await api.get(ITEMS, { token: backend, query: join('amt=3', cursorQuery(small.body.next_cursor)) });
  t.same(idsOf(next.body.items, 'item_id'), catIds.slice(507, 510));
});

t.test('amt outside 1..500 is WrongData WRONG_PARAMETER', async (t) => {
  for (const amt of ['501', '1000', '0', '-1', 'abc', '2.5', '']) {
    for (const path of [ITEMS, USERS]) {
      const r = await api.get(path, { token: backend, query: `amt=${amt}` });
      t.same(errorOf(r), WRONG_PARAMETER, `${path} amt=${amt}`);
      t.equal(r.body.error_data?.field, 'amt', `${path} amt=${amt} names the field`);
    }
  }
  const max = await api.get(ITEMS, { token: backend, query: 'amt=500' });
  t.equal(max.status, 200, 'amt=500 is allowed');
});

t.test('a cursor the service did not give out is WrongData WRONG_PARAMETER', async (t) => {
  const forged = (s: string) => Buffer.from(s).toString('base64url');
  const bad = ['garbage', '!!!', 'x'.repeat(300), forged('i2:5'), forged('i1:-5'), forged('i1:abc'), forged('5'), forged('i1:12345678901')];
  for (const cursor of bad) {
    for (const path of [ITEMS, USERS]) {
      const r = await api.get(path, { token: backend, query: join('amt=5', cursorQuery(cursor)) });
      t.same(errorOf(r), WRONG_PARAMETER, `${path} cursor=${cursor.slice(0, 20)}`);
      t.equal(r.body.error_data?.field, 'cursor', `${path} cursor=${cursor.slice(0, 20)} names the field`);
    }
  }
});

t.test('properties (a repeated query key) limits the fields; unknown names give a warning', async (t) => {
  const two = await api.get(ITEMS, { token: backend, query: 'amt=4&properties=price&properties=TAGS' });
  t.equal(two.status, 200);
  t.strictSame(
    two.body.items,
    catItems.slice(0, 4).map((r) => ({ item_id: r.item_id, Price: r.Price, tags: r.tags })),
    'names match case-insensitively and come back as defined',
  );
  t.same(two.body.warnings, []);

  const one = await api.get(ITEMS, { token: backend, query: 'amt=3&properties=title' });
  t.strictSame(
    one.body.items,
    catItems.slice(0, 3).map((r) => ({ item_id: r.item_id, title: r.title })),
    'a single properties key is a list of one',
  );

  const unknown = await api.get(ITEMS, { token: backend, query: 'amt=3&properties=title&properties=nosuchprop' });
  t.equal(unknown.status, 200);
  t.strictSame(
    unknown.body.items,
    catItems.slice(0, 3).map((r) => ({ item_id: r.item_id, title: r.title })),
  );
  t.equal(unknown.body.warnings.length, 1);
  t.match(unknown.body.warnings[0], /nosuchprop/, 'the warning names the unknown property');
  t.notMatch(unknown.body.warnings[0], /title/, 'and only that one');

  const none = await api.get(ITEMS, { token: backend, query: 'amt=2&properties=nosuchprop' });
  t.strictSame(
    none.body.items,
    catItems.slice(0, 2).map((r) => ({ item_id: r.item_id })),
    'only the id is left',
  );

  // A walk with properties still visits every item once.
  const pages = await walk(ITEMS, backend, { amt: 250, query: 'properties=title' });
  t.strictSame(
    all(pages, 'items'),
    catItems.map((r) => ({ item_id: r.item_id, title: r.title })),
  );

  // Filters apply to properties that are not shown.
  const filtered = await api.get(ITEMS, { token: backend, query: join('properties=title', filtersQuery('price:lt:5')) });
  t.strictSame(
    filtered.body.items,
    catItems.filter((r) => (r.Price as number) < 5).map((r) => ({ item_id: r.item_id, title: r.title })),
  );
});

t.test('GET users-bulk/properties/ pages through 650 users the same way', async (t) => {
  const big = await walk(USERS, backend, { amt: 500 });
  t.same(
    big.map((p) => recordsOf(p, 'users').length),
    [500, 150],
  );
  checkPageShape(t, big, 'users', 500, 'users amt=500');
  t.strictSame(all(big, 'users'), catUsers, 'every user once, in creation order, with all values');

  const dflt = await walk(USERS, backend);
  t.same(
    dflt.map((p) => recordsOf(p, 'users').length),
    [300, 300, 50],
  );
  checkPageShape(t, dflt, 'users', 300, 'users default amt');
  t.same(idsOf(all(dflt, 'users'), 'user_id'), userIds);

  const seven = await walk(USERS, backend, { amt: 7 });
  t.same(
    seven.map((p) => recordsOf(p, 'users').length),
    sizesFor(N_USERS, 7),
  );
  checkPageShape(t, seven, 'users', 7, 'users amt=7');
  t.same(idsOf(all(seven, 'users'), 'user_id'), userIds);

  const props = await api.get(USERS, { token: backend, query: 'amt=5&properties=city&properties=Hobbies&properties=shoe_size' });
  t.equal(props.status, 200);
  t.strictSame(
    props.body.users,
    catUsers.slice(0, 5).map((u) => ({ user_id: u.user_id, City: u.City, hobbies: u.hobbies })),
  );
  t.equal(props.body.warnings.length, 1);
  t.match(props.body.warnings[0], /shoe_size/);
});

t.test('the users listing takes filters too, as documented in docs/api-choices.md', async (t) => {
  const pages = await walk(USERS, backend, { amt: 9, query: filtersQuery('AGE:GTE:70', 'city:in:Zürich,Lima') });
  checkPageShape(t, pages, 'users', 9, 'filtered users');
  const want = catUsers.filter((u) => (u.age as number) >= 70 && (u.City === 'Zürich' || u.City === 'Lima'));
  t.ok(want.length > 9, 'more than one page of matches');
  t.strictSame(all(pages, 'users'), want);
  const hob = await api.get(USERS, { token: backend, query: join('amt=500', filtersQuery('hobbies:empty')) });
  t.same(
    idsOf(hob.body.users, 'user_id'),
    idsOf(
      catUsers.filter((u) => (u.hobbies as unknown[]).length === 0),
      'user_id',
    ),
  );
  t.same(errorOf(await api.get(USERS, { token: backend, query: filtersQuery('nosuch:eq:1') })), USER_PROPERTY_NOT_FOUND);
  t.same(
    errorOf(await api.get(USERS, { token: backend, query: filtersQuery('price:eq:1') })),
    USER_PROPERTY_NOT_FOUND,
    'an item property is not a user property',
  );
});

t.test('roles: backend, manager and root may list; frontend gets INCORRECT_ROLE', async (t) => {
  const tokens: Record<string, string> = {};
  for (const role of ['root', 'manager', 'backend', 'frontend']) tokens[role] = await tokenFor(api, root, role, cat);
  const query = 'amt=6&properties=title';
  const items = await api.get(ITEMS, { token: backend, query });
  const users = await api.get(USERS, { token: backend, query: 'amt=6' });
  for (const role of ['root', 'manager', 'backend']) {
    const i = await api.get(ITEMS, { token: tokens[role], query });
    t.equal(i.status, 200, `${role} items`);
    t.strictSame(i.body, items.body, `${role} sees the same items page`);
    const u = await api.get(USERS, { token: tokens[role], query: 'amt=6' });
    t.equal(u.status, 200, `${role} users`);
    t.strictSame(u.body, users.body, `${role} sees the same users page`);
  }
  for (const path of [ITEMS, USERS, ITEMS_OLD, USERS_OLD]) {
    t.same(errorOf(await api.get(path, { token: tokens.frontend, query: 'amt=6' })), FORBIDDEN, `frontend GET ${path}`);
  }
  // The frontend token itself is good: it may read items by id.
  const byId = await api.post('items-bulk/properties/list/', { items_id: [catIds[0]] }, { token: tokens.frontend });
  t.equal(byId.status, 200);
  t.strictSame(byId.body.items, [catItems[0]]);
  t.equal((await api.get(ITEMS, { query: 'amt=6' })).status, 401, 'no token: 401');
});

t.test('deprecated GET items-bulk/ and users-bulk/ give the same pages plus a deprecation warning', async (t) => {
  const pairs: [string, string, Plural, string][] = [
    [ITEMS, ITEMS_OLD, 'items', join('amt=7', 'properties=title', 'properties=nosuchprop', filtersQuery('tags:eq:t1'))],
    [ITEMS, ITEMS_OLD, 'items', 'amt=500'],
    [USERS, USERS_OLD, 'users', 'amt=200'],
  ];
  for (const [path, old, plural, query] of pairs) {
    const now = await walk(path, backend, { query });
    const then = await walk(old, backend, { query });
    t.equal(then.length, now.length, `${old}?${query}: as many pages`);
    now.forEach((p, i) => {
      const o = then[i]!;
      t.strictSame(recordsOf(o, plural), recordsOf(p, plural), `${old} page ${i + 1}: same records`);
      t.equal(o.has_next, p.has_next);
      t.equal(o.next_cursor, p.next_cursor, 'same cursor');
      t.notOk(
        p.warnings.some((w) => /deprecated/i.test(w)),
        `${path} is not deprecated`,
      );
      t.ok(
        o.warnings.some((w) => w.includes('deprecated')),
        `${old} page ${i + 1} warns that it is deprecated`,
      );
      t.same(
        o.warnings.filter((w) => !w.includes('deprecated')),
        p.warnings,
        'and keeps the other warnings',
      );
    });
  }
  // A cursor from the deprecated path works on the new one and the other way round.
  const oldFirst = await api.get(ITEMS_OLD, { token: backend, query: 'amt=10' });
  const newSecond = await api.get(ITEMS, { token: backend, query: join('amt=10', cursorQuery(oldFirst.body.next_cursor)) });
  t.same(idsOf(newSecond.body.items, 'item_id'), catIds.slice(10, 20));
  // Errors are the same.
  t.same(errorOf(await api.get(ITEMS_OLD, { token: backend, query: 'amt=501' })), WRONG_PARAMETER);
  t.same(errorOf(await api.get(ITEMS_OLD, { token: backend, query: filtersQuery('nosuch:eq:1') })), ITEM_PROPERTY_NOT_FOUND);
});

// ---------------------------------------------------------------------------------------------
// Pages stay exact while others write.

t.test('a walk sees every item that existed throughout exactly once while items are created, changed and deleted', async (t) => {
  const db = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', db);
  await define(token, 'items-properties', [
    { property_name: 'n', value_type: 'int32' },
    { property_name: 'label', value_type: 'unicode32' },
  ]);
  const N = 600;
  const AMT = 40;
  const originals: Rec[] = Array.from({ length: N }, (_, i) => ({ item_id: 5000 + ((i * 7) % N), n: i, label: `orig ${i}` }));
  await upload(token, ITEMS, 'items', originals);
  const current = new Map<unknown, Rec>(originals.map((r) => [r.item_id, r]));
  const idAt = (pos: number) => originals[pos]!.item_id;

  // Not yet visited when deleted: positions 400, 404, …, 596, five before each of the first ten pages.
  const deletedUnseen = Array.from({ length: 50 }, (_, m) => 400 + 4 * m);
  const deletedSeen: number[] = [];
  const created: Rec[] = [];

  const pages: PageBody[] = [];
  let cursor: string | undefined;
  for (let k = 1; ; k++) {
    if (k > 100) throw new Error('the walk does not end');
    const r = await api.get(ITEMS, { token, query: join(`amt=${AMT}`, cursorQuery(cursor)) });
    t.equal(r.status, 200, `page ${k}`);
    const page = r.body as PageBody;
    pages.push(page);
    const records = recordsOf(page, 'items');
    t.strictSame(
      records,
      records.map((rec) => current.get(rec.item_id)),
      `page ${k} shows the values current when it was read`,
    );
    if (!page.has_next) break;
    t.equal(records.length, AMT, `page ${k} is full`);
    cursor = page.next_cursor;
    if (k > 10) continue;

    const visited = AMT * k; // every position below this has been returned
    // 10 new items.
    const fresh = Array.from({ length: 10 }, (_, j) => ({ item_id: 90000 + 10 * k + j, n: -1, label: `new ${k}.${j}` }));
    await upload(token, ITEMS, 'items', fresh);
    for (const rec of fresh) current.set(rec.item_id, rec);
    created.push(...fresh);
    // 5 not yet visited, and 2 already visited, deleted.
    const gone = deletedUnseen.slice(5 * (k - 1), 5 * k);
    const goneSeen = [visited - 1, visited - 2];
    t.ok(
      gone.every((p) => p >= visited),
      'the 5 were not visited yet',
    );
    await removeAll(token, ITEMS, 'items_id', [...gone, ...goneSeen].map(idAt));
    for (const p of [...gone, ...goneSeen]) current.delete(idAt(p));
    deletedSeen.push(...goneSeen);
    // 1 visited and 2 unvisited items replaced with new values.
    const changed = [visited - 3, visited + 101, visited + 102].map((p) => ({
      item_id: idAt(p),
      n: p,
      label: `changed before page ${k + 1}`,
    }));
    const put = await api.put(ITEMS, { items: changed }, { token });
    t.equal(put.status, 200);
    t.equal(put.body.n_modified, 3);
    for (const rec of changed) current.set(rec.item_id, rec);
  }

  const seen = idsOf(all(pages, 'items'), 'item_id');
  t.equal(new Set(seen).size, seen.length, 'no item twice');
  const unseenGone = new Set(deletedUnseen);
  const expected = [
    ...originals.map((r, pos) => (unseenGone.has(pos) ? undefined : r.item_id)).filter((id) => id !== undefined),
    ...idsOf(created, 'item_id'),
  ];
  t.same(seen, expected, 'originals in creation order without the 50 deleted before their turn, then the 100 new items');
  for (const p of deletedSeen) t.ok(seen.includes(idAt(p)), `item at ${p}, deleted after its page, was seen`);
  t.equal(seen.length, N - 50 + 100);
  t.same(
    pages.map((p) => recordsOf(p, 'items').length),
    sizesFor(N - 50 + 100, AMT),
  );
  checkPageShape(t, pages, 'items', AMT, 'walk during writes');

  // A fresh walk now sees the final state.
  const after = await walk(ITEMS, token, { amt: 500 });
  t.strictSame(
    all(after, 'items'),
    [...current.values()].sort((a, b) => expected.indexOf(a.item_id) - expected.indexOf(b.item_id)).filter((r) => seen.includes(r.item_id)),
    'a new walk shows the current values in the same order',
  );
});

// ---------------------------------------------------------------------------------------------
// Filters. 80 items with every kind of value, missing values and empty lists.

const fdb = await createDatabase(api, root);
const ftoken = await tokenFor(api, root, 'backend', fdb);
await define(ftoken, 'items-properties', [
  { property_name: 'price', value_type: 'float' },
  { property_name: 'count', value_type: 'int32' },
  { property_name: 'Active', value_type: 'bool' },
  { property_name: 'title', value_type: 'unicode64' },
  { property_name: 'tags', value_type: 'unicode16', repeated: true },
  { property_name: 'code', value_type: 'unicode32' },
]);

const ADJ = ['Red', 'green', 'BLUE', 'Café', 'Über'];
const NOUN = ['Apple', 'pear', 'PLUM', '日本'];
const TAGS = ['sale', 'new', 'eco', 'café', 'x:y', 'two words'];
const CODES = ['a:b', 'c,d', 'e f', 'plain', 'ünï'];
const N_F = 80;
const fItems: Rec[] = Array.from({ length: N_F }, (_, i) => {
  const r: Rec = { item_id: 1000 + ((i * 37) % N_F) };
  if (i % 7 !== 0) r.price = (i % 10) + 0.5;
  if (i % 5 !== 1) r.count = ((i * 13) % 21) - 10;
  if (i % 4 !== 0) r.Active = i % 3 === 0;
  if (i % 9 !== 0) r.title = `${ADJ[i % 5]} ${NOUN[i % 4]}${i % 3 === 0 ? ' deluxe' : ''}`;
  if (i % 6 === 1) r.tags = [];
  else if (i % 6 !== 0) r.tags = TAGS.filter((_, b) => ((i >> b) & 1) === 1);
  if (i % 8 !== 3) r.code = CODES[i % 5];
  return r;
});
await upload(ftoken, ITEMS, 'items', fItems);

// The expected matches, from the uploaded data: a missing value is an empty list.
const vals = (r: Rec, p: string): unknown[] => {
  const v = r[p];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};
type Pred = (r: Rec) => boolean;
const some =
  (p: string, f: (x: unknown) => boolean): Pred =>
  (r) =>
    vals(r, p).some(f);
const none =
  (p: string, f: (x: unknown) => boolean): Pred =>
  (r) =>
    !vals(r, p).some(f);
const eq = (p: string, v: unknown) => some(p, (x) => x === v);
const neq = (p: string, v: unknown) => none(p, (x) => x === v);
const num = (p: string, f: (x: number) => boolean) => some(p, (x) => f(x as number));
const isIn = (p: string, vs: unknown[]) => some(p, (x) => vs.includes(x));
const notIn = (p: string, vs: unknown[]) => none(p, (x) => vs.includes(x));
const filled =
  (p: string): Pred =>
  (r) =>
    vals(r, p).length > 0;
const empty =
  (p: string): Pred =>
  (r) =>
    vals(r, p).length === 0;
const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean);
const ft = (p: string, q: string) => some(p, (x) => typeof x === 'string' && words(q).every((w) => words(x).includes(w)));
const and =
  (...ps: Pred[]): Pred =>
  (r) =>
    ps.every((p) => p(r));

interface Case {
  query: string; // the query string as sent (the filters part)
  want: Pred;
  mayBeEmpty?: boolean;
}

const f = filtersQuery;
const CASES: Case[] = [
  // float
  { query: f('price:eq:2.5'), want: eq('price', 2.5) },
  { query: f('price:neq:2.5'), want: neq('price', 2.5) },
  { query: f('price:lt:3'), want: num('price', (x) => x < 3) },
  { query: f('price:lte:3.5'), want: num('price', (x) => x <= 3.5) },
  { query: f('price:gt:7.5'), want: num('price', (x) => x > 7.5) },
  { query: f('price:gte:7.5'), want: num('price', (x) => x >= 7.5) },
  { query: f('price:in:0.5,2.5,9.5'), want: isIn('price', [0.5, 2.5, 9.5]) },
  { query: 'filters=price:notin:0.5,2.5,9.5', want: notIn('price', [0.5, 2.5, 9.5]) },
  { query: f('price:notempty'), want: filled('price') },
  { query: f('price:empty'), want: empty('price') },
  { query: 'filters=price:gte:2.50&filters=price:lt:4e0', want: num('price', (x) => x >= 2.5 && x < 4) },
  // int32
  { query: f('count:eq:-3'), want: eq('count', -3) },
  { query: f('count:neq:0'), want: neq('count', 0) },
  { query: f('count:lt:0'), want: num('count', (x) => x < 0) },
  { query: f('count:lte:-5'), want: num('count', (x) => x <= -5) },
  { query: f('count:gt:5'), want: num('count', (x) => x > 5) },
  { query: f('count:gte:10'), want: num('count', (x) => x >= 10) },
  { query: f('count:in:-10,0,10'), want: isIn('count', [-10, 0, 10]) },
  { query: f('count:notin:-10,0,10'), want: notIn('count', [-10, 0, 10]) },
  { query: f('count:empty'), want: empty('count') },
  { query: f('count:notempty'), want: filled('count') },
  // bool, with each accepted spelling
  { query: f('active:eq:true'), want: eq('Active', true) },
  { query: f('active:eq:True'), want: eq('Active', true) },
  { query: f('active:eq:1'), want: eq('Active', true) },
  { query: f('active:eq:false'), want: eq('Active', false) },
  { query: f('active:eq:False'), want: eq('Active', false) },
  { query: f('active:eq:0'), want: eq('Active', false) },
  { query: f('active:neq:true'), want: neq('Active', true) },
  { query: f('active:empty'), want: empty('Active') },
  { query: f('active:notempty'), want: filled('Active') },
  // unicode
  { query: f('title:eq:Red Apple'), want: eq('title', 'Red Apple') },
  { query: 'filters=title:eq:Red+Apple', want: eq('title', 'Red Apple') },
  { query: 'filters=title%3Aeq%3ARed%20Apple%20deluxe', want: eq('title', 'Red Apple deluxe') },
  { query: f('title:neq:Red Apple'), want: neq('title', 'Red Apple') },
  { query: f('title:in:Red Apple,green pear deluxe,Über 日本'), want: isIn('title', ['Red Apple', 'green pear deluxe', 'Über 日本']) },
  { query: f('title:notin:Red Apple,BLUE PLUM'), want: notIn('title', ['Red Apple', 'BLUE PLUM']) },
  { query: f('title:eq:red apple'), want: eq('title', 'red apple'), mayBeEmpty: true },
  { query: f('title:ftsearch:RED apple'), want: ft('title', 'red apple') },
  { query: 'filters=title:ftsearch:deluxe+PLUM', want: ft('title', 'deluxe plum') },
  { query: f('title:ftsearch:ÜBER'), want: ft('title', 'über') },
  { query: f('title:ftsearch:CAFÉ 日本'), want: ft('title', 'café 日本') },
  { query: f('title:ftsearch:apple pear'), want: ft('title', 'apple pear'), mayBeEmpty: true },
  { query: f('title:empty'), want: empty('title') },
  { query: f('title:notempty'), want: filled('title') },
  { query: 'filters=code:eq:a%3Ab', want: eq('code', 'a:b') },
  { query: 'filters=code:eq:a:b', want: eq('code', 'a:b') },
  { query: 'filters=code:eq:c%2Cd', want: eq('code', 'c,d') },
  { query: 'filters=code:eq:e+f', want: eq('code', 'e f') },
  { query: 'filters=code:eq:e%20f', want: eq('code', 'e f') },
  { query: f('code:eq:ünï'), want: eq('code', 'ünï') },
  { query: 'filters=code:in:a%3Ab,plain', want: isIn('code', ['a:b', 'plain']) },
  { query: 'filters=code:notin:plain,e+f', want: notIn('code', ['plain', 'e f']) },
  { query: 'filters=code%3Aeq%3Aplain', want: eq('code', 'plain') },
  // repeated unicode
  { query: f('tags:eq:sale'), want: eq('tags', 'sale') },
  { query: 'filters=tags:eq:x%3Ay', want: eq('tags', 'x:y') },
  { query: f('tags:eq:café'), want: eq('tags', 'café') },
  { query: f('tags:eq:two words'), want: eq('tags', 'two words') },
  { query: f('tags:neq:sale'), want: neq('tags', 'sale') },
  { query: f('tags:in:new,eco'), want: isIn('tags', ['new', 'eco']) },
  { query: f('tags:notin:new,eco'), want: notIn('tags', ['new', 'eco']) },
  { query: f('tags:empty'), want: empty('tags') },
  { query: f('tags:notempty'), want: filled('tags') },
  { query: f('tags:ftsearch:WORDS'), want: ft('tags', 'words') },
  { query: 'filters=tags:ftsearch:two+words', want: ft('tags', 'two words') },
  { query: f('tags:ftsearch:CAFÉ'), want: ft('tags', 'café') },
  // op and property names in any case
  { query: 'filters=price:EQ:2.5', want: eq('price', 2.5) },
  { query: 'filters=PRICE:Gt:5', want: num('price', (x) => x > 5) },
  { query: 'filters=Tags:NotEmpty', want: filled('tags') },
  { query: 'filters=ACTIVE:EMPTY', want: empty('Active') },
  { query: 'filters=title:FTSEARCH:red', want: ft('title', 'red') },
  { query: 'filters=Code:In:plain,a%3Ab', want: isIn('code', ['plain', 'a:b']) },
  // several filters: AND
  {
    query: f('price:gte:3', 'active:eq:true', 'tags:notempty'),
    want: and(
      num('price', (x) => x >= 3),
      eq('Active', true),
      filled('tags'),
    ),
  },
  { query: f('count:gte:-5', 'count:lte:5'), want: num('count', (x) => x >= -5 && x <= 5) },
  {
    query: f('title:ftsearch:apple', 'tags:neq:sale', 'code:notempty'),
    want: and(ft('title', 'apple'), neq('tags', 'sale'), filled('code')),
  },
  { query: f('tags:eq:new', 'tags:eq:eco'), want: and(eq('tags', 'new'), eq('tags', 'eco')) },
  { query: f('price:empty', 'count:empty'), want: and(empty('price'), empty('count')) },
  { query: f('price:lt:2', 'price:gt:8'), want: () => false, mayBeEmpty: true },
];

t.test('every filter case returns exactly the expected items, in creation order, with all their values', async (t) => {
  for (const c of CASES) {
    const want = fItems.filter(c.want);
    if (!c.mayBeEmpty) t.ok(want.length > 0 && want.length < N_F, `${c.query}: the case selects some items but not all (${want.length})`);
    const r = await api.get(ITEMS, { token: ftoken, query: join('amt=500', c.query) });
    t.equal(r.status, 200, c.query);
    if (r.status !== 200) {
      t.comment(r.text);
      continue;
    }
    t.strictSame(idsOf(r.body.items, 'item_id'), idsOf(want, 'item_id'), c.query);
    t.strictSame(r.body.items, want, `${c.query}: records`);
    t.equal(r.body.has_next, false, `${c.query}: one page`);
    t.equal(r.body.next_cursor, '');
    t.same(r.body.warnings, []);
  }
});

t.test('filtered pagination with a small amt returns every match exactly once', async (t) => {
  for (const c of CASES) {
    const want = idsOf(fItems.filter(c.want), 'item_id');
    for (const amt of [1, 3]) {
      const pages = await walk(ITEMS, ftoken, { amt, query: c.query });
      const got = idsOf(all(pages, 'items'), 'item_id');
      t.strictSame(got, want, `${c.query} amt=${amt}`);
      // Full pages until the last (which may be empty when the last match fills a page).
      t.ok(
        pages.slice(0, -1).every((p) => recordsOf(p, 'items').length === amt && p.has_next),
        `${c.query} amt=${amt}: every page but the last is full`,
      );
      t.equal(pages[pages.length - 1]!.next_cursor, '');
    }
  }
});

t.test('the filtered listing follows later writes', async (t) => {
  // A dedicated database so the shared filter data stays as uploaded.
  const db = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', db);
  await define(token, 'items-properties', [
    { property_name: 'price', value_type: 'float' },
    { property_name: 'tags', value_type: 'unicode16', repeated: true },
  ]);
  await upload(token, ITEMS, 'items', [
    { item_id: 1, price: 1, tags: ['a'] },
    { item_id: 2, price: 2, tags: ['b', 'a'] },
    { item_id: 3, price: 3 },
  ]);
  const ids = async (query: string) => idsOf((await api.get(ITEMS, { token, query: join('amt=500', query) })).body.items, 'item_id');
  t.same(await ids(f('tags:eq:a')), [1, 2]);
  t.same(await ids(f('tags:empty')), [3]);
  // A repeated value is replaced, not appended to.
  const p = await api.patch(
    ITEMS,
    {
      items: [
        { item_id: 2, tags: ['c'] },
        { item_id: 3, tags: ['a'] },
      ],
    },
    { token },
  );
  t.equal(p.status, 200);
  t.same(await ids(f('tags:eq:a')), [1, 3]);
  t.same(await ids(f('tags:neq:a')), [2]);
  // A PATCH to null removes the value: it becomes empty.
  await api.patch(ITEMS, { items: [{ item_id: 1, price: null }] }, { token });
  t.same(await ids(f('price:empty')), [1]);
  t.same(await ids(f('price:gte:0')), [2, 3]);
  // A deleted item matches nothing, not even empty.
  await removeAll(token, ITEMS, 'items_id', [2]);
  t.same(await ids(f('price:notin:1')), [1, 3]);
  t.same(await ids(f('tags:neq:zzz')), [1, 3]);
  // An item written without any value is listed (its id only) and matches empty.
  const bare = await api.put(ITEMS, { items: [{ item_id: 4 }] }, { token });
  t.equal(bare.status, 200);
  const listed = await api.get(ITEMS, { token, query: 'amt=500' });
  t.strictSame(listed.body.items, [{ item_id: 1, tags: ['a'] }, { item_id: 3, price: 3, tags: ['a'] }, { item_id: 4 }]);
  t.same(await ids(f('price:empty', 'tags:empty')), [4]);
});

t.test('a deleted property leaves the listing and its filters; redefined, it does not see the old values', async (t) => {
  const db = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', db);
  await define(token, 'items-properties', [
    { property_name: 'size', value_type: 'int32' },
    { property_name: 'name', value_type: 'unicode16' },
  ]);
  await upload(token, ITEMS, 'items', [
    { item_id: 1, size: 2, name: 'one' },
    { item_id: 2, size: 5, name: 'two' },
  ]);
  const ids = async (query: string) => idsOf((await api.get(ITEMS, { token, query: join('amt=500', query) })).body.items, 'item_id');
  t.same(await ids(f('size:gt:3')), [2]);
  const d = await api.delete('items-properties/size/', undefined, { token });
  t.equal(d.status, 204);
  const after = await api.get(ITEMS, { token, query: 'amt=500' });
  t.strictSame(after.body.items, [
    { item_id: 1, name: 'one' },
    { item_id: 2, name: 'two' },
  ]);
  t.same(
    errorOf(await api.get(ITEMS, { token, query: f('size:gt:3') })),
    ITEM_PROPERTY_NOT_FOUND,
    'the deleted property cannot be filtered on',
  );
  const withProps = await api.get(ITEMS, { token, query: 'amt=500&properties=size&properties=name' });
  t.strictSame(withProps.body.items, after.body.items);
  t.match(withProps.body.warnings.join(' '), /size/, 'properties=size now warns');

  await define(token, 'items-properties', [{ property_name: 'Size', value_type: 'unicode8' }]);
  const redefined = await api.get(ITEMS, { token, query: 'amt=500' });
  t.strictSame(redefined.body.items, after.body.items, 'the old values do not come back');
  t.same(await ids(f('size:empty')), [1, 2]);
  t.same(await ids(f('size:eq:2')), [], 'an old int value does not match the new text property');
  await api.patch(ITEMS, { items: [{ item_id: 2, size: 'XL' }] }, { token });
  t.same(await ids(f('SIZE:in:XL,S')), [2]);
  t.strictSame((await api.get(ITEMS, { token, query: 'amt=500' })).body.items, [
    { item_id: 1, name: 'one' },
    { item_id: 2, name: 'two', Size: 'XL' },
  ]);
});

t.test('filter errors', async (t) => {
  const cases: [string, Rec][] = [
    // unknown property
    [f('nosuch:eq:1'), ITEM_PROPERTY_NOT_FOUND],
    [f('nosuch:notempty'), ITEM_PROPERTY_NOT_FOUND],
    [f('price:lt:5', 'nosuch:eq:1'), ITEM_PROPERTY_NOT_FOUND],
    // unknown op
    [f('price:like:1'), WRONG_DATA_TYPE],
    [f('price:contains:1'), WRONG_DATA_TYPE],
    [f('title:diversity:1'), WRONG_DATA_TYPE],
    [f('price::1'), WRONG_DATA_TYPE],
    // an op the type does not support
    [f('title:lt:a'), WRONG_OP_USE],
    [f('title:gte:a'), WRONG_OP_USE],
    [f('tags:gt:a'), WRONG_OP_USE],
    [f('price:ftsearch:a'), WRONG_OP_USE],
    [f('count:ftsearch:1'), WRONG_OP_USE],
    [f('active:lt:1'), WRONG_OP_USE],
    [f('active:in:true,false'), WRONG_OP_USE],
    [f('active:ftsearch:true'), WRONG_OP_USE],
    // a value with notempty/empty, none with another op
    [f('price:notempty:1'), WRONG_OP_USE],
    [f('tags:notempty:a'), WRONG_OP_USE],
    [f('price:empty:1'), WRONG_OP_USE],
    [f('price:eq'), WRONG_OP_USE],
    [f('title:in'), WRONG_OP_USE],
    [f('tags:ftsearch'), WRONG_OP_USE],
    [f('count:lt'), WRONG_OP_USE],
    // a value that does not fit the type
    [f('price:eq:abc'), WRONG_DATA_TYPE],
    [f('price:lt:Infinity'), WRONG_DATA_TYPE],
    [f('count:eq:2.5'), WRONG_DATA_TYPE],
    [f('count:gt:3000000000'), WRONG_DATA_TYPE],
    [f('count:eq:ten'), WRONG_DATA_TYPE],
    [f('active:eq:yes'), WRONG_DATA_TYPE],
    [f('price:in:1,abc'), WRONG_DATA_TYPE],
    [f('count:notin:1,x'), WRONG_DATA_TYPE],
    [f(`code:eq:${'x'.repeat(33)}`), WRONG_DATA_TYPE],
    [f(`tags:eq:${'é'.repeat(17)}`), WRONG_DATA_TYPE],
    [f('price:lt:5', 'price:eq:abc'), WRONG_DATA_TYPE],
  ];
  for (const [query, want] of cases) {
    const r = await api.get(ITEMS, { token: ftoken, query });
    t.same(errorOf(r), want, decodeURIComponent(query));
    if (want === ITEM_PROPERTY_NOT_FOUND) t.equal(r.body.error_data?.key, 'nosuch', 'the missing property is named');
  }
  // Malformed filter strings are WrongData.
  for (const bad of ['price', ':eq:1', '', 'PRICE']) {
    const r = await api.get(ITEMS, { token: ftoken, query: f(bad) });
    t.equal(r.status, 400, `malformed ${JSON.stringify(bad)}`);
    t.equal(r.body.error_code, 40);
    t.equal(r.body.error_name, 'WrongData', `malformed ${JSON.stringify(bad)}`);
  }
  // More than 100 filters, or one over 4,096 characters: WRONG_PARAMETER.
  const many = Array.from({ length: 101 }, () => 'price:notempty');
  t.same(errorOf(await api.get(ITEMS, { token: ftoken, query: f(...many) })), WRONG_PARAMETER, '101 filters');
  t.equal((await api.get(ITEMS, { token: ftoken, query: f(...many.slice(0, 100)) })).status, 200, '100 filters are fine');
  t.same(
    errorOf(await api.get(ITEMS, { token: ftoken, query: f(`code:in:${'a,'.repeat(2100)}`) })),
    WRONG_PARAMETER,
    'a filter over 4,096 characters',
  );
  // The filter errors come before the cursor is read, and the cursor error without filters.
  t.same(errorOf(await api.get(ITEMS, { token: ftoken, query: join(f('nosuch:eq:1'), 'cursor=garbage') })), ITEM_PROPERTY_NOT_FOUND);
});
