// The recommendation endpoints beyond an item's, a user's and a session's items
// (recommendations.test.ts), and diversity reranking, against the trained database with planted
// structure (test/helpers/reco.ts): diversity (every string form, the object form, paging, errors),
// context items for users and sessions, property values for a user or a session, the generic
// endpoint's reco_type, items for property values, items for a group of users. One recd process on a
// private Redis, real HTTP. Precomputed tables have their own file (precomputed-tables.test.ts).
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Api, Res } from '../helpers/api.js';
import { BAD_ITEM, BAD_USER, hasWarning, uid, why, WRONG_DATA_TYPE, WRONG_PARAMETER } from '../helpers/feedback.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { A, B, count, isA, isB, itemsOf, likedBy, POPULAR, qs, RECO_ENV, trainedDatabase, type Q } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { msgpackCodec } from '../../src/codecs/msgpack.js';
import { pickleCodec } from '../../src/codecs/pickle.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { token, modelId } = await trainedDatabase(api, root);

const notFound = (name: string) => ({ status: 404, code: 60, errorName: 'NotFoundError', name });
const ITEM_NOT_FOUND = notFound('ITEM_NOT_FOUND');
const USER_NOT_FOUND = notFound('USER_NOT_FOUND');
const ITEM_PROPERTY_NOT_FOUND = notFound('ITEM_PROPERTY_NOT_FOUND');

const A_LOVER = uid(0);
const B_LOVER = uid(30);
const B_RATINGS = [
  { item_id: 21, rating: 10 },
  { item_id: 26, rating: 9 },
  { item_id: 34, rating: 8 },
];
const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

// ---- requests --------------------------------------------------------------------------------------

const itemReco = (item: number | string, q: Q = {}, tok = token, on: Api = api) =>
  on.get(`recommendation/items/${item}/items/`, { token: tok, query: qs(q) });
const userReco = (user: string, q: Q = {}, tok = token) => api.get(`recommendation/users/${user}/items/`, { token: tok, query: qs(q) });
const sessionReco = (body: Record<string, unknown>, tok = token) => api.post('recommendation/sessions/items/', body, { token: tok });
const ctxUser = (user: string, body: Record<string, unknown>) =>
  api.post(`recommendation/context-items/users/${user}/items/`, body, { token });
const ctxSession = (body: Record<string, unknown>) => api.post('recommendation/context-items/sessions/items/', body, { token });
const userValues = (user: string, property: string, q: Q = {}) =>
  api.get(`recommendation/users/${user}/items-properties/${property}/`, { token, query: qs(q) });
const sessionValues = (property: string, body: Record<string, unknown>) =>
  api.post(`recommendation/sessions/items-properties/${property}/`, body, { token });
const generic = (body: Record<string, unknown>) => api.post('recommendation/generic/items/', body, { token });
const byValues = (body: Record<string, unknown>) => api.post('recommendation/items-properties/items/', body, { token });
const group = (body: Record<string, unknown>) => api.post('recommendation/users-groups/items/', body, { token });

// ---- diversity reranking -----------------------------------------------------------------------------

t.test('diversity: a strong weight mixes both genres into the head of item-to-items; the plain head is one genre', async (t) => {
  for (const item of [1, 7, 21, 33]) {
    const own = isA(item) ? isA : isB;
    const other = isA(item) ? isB : isA;
    const plain = itemsOf(t, await itemReco(item), `item ${item} plain`);
    t.equal(plain.length, 10, `item ${item}: 10 plain items`);
    t.ok(plain.every(own), `item ${item}: the plain head is all from its own genre: ${JSON.stringify(plain)}`);
    const all = itemsOf(t, await itemReco(item, { amt: 64 }), `item ${item} plain amt=64`, 64);

    for (const reranking of ['genre:diversity:2', 'genre:diversity:5']) {
      const r = await itemReco(item, { reranking });
      const div = itemsOf(t, r, `item ${item} ${reranking}`);
      t.strictSame(r.body.warnings, [], `item ${item} ${reranking}: no warnings`);
      t.equal(div.length, 10, `item ${item} ${reranking}: 10 items`);
      t.ok(count(div, own) >= 3 && count(div, other) >= 3, `item ${item} ${reranking}: at least 3 of each genre: ${JSON.stringify(div)}`);
      t.notOk(div.includes(item), `item ${item} ${reranking}: not the item itself`);
      t.ok(
        div.every((i) => all.includes(i)),
        `item ${item} ${reranking}: drawn from the plain candidates`,
      );
      t.not(r.body.next_cursor, '', `item ${item} ${reranking}: more follow`);
    }

    // The whole reranked list is a permutation of the whole plain one.
    const whole = await itemReco(item, { reranking: 'genre:diversity:2', amt: 64 });
    const wholeIds = itemsOf(t, whole, `item ${item} reranked amt=64`, 64);
    t.strictSame(sorted(wholeIds), sorted(all), `item ${item}: the reranked 39 are the plain 39`);
    t.equal(whole.body.next_cursor, '', `item ${item}: nothing more`);
  }
});

t.test('diversity on user-to-items and sessions: a strong weight mixes both genres', async (t) => {
  const rated = likedBy(0);
  const plain = itemsOf(t, await userReco(A_LOVER, { exclude_rated_items: true }), 'user plain');
  t.ok(count(plain, isA) >= 8, `user plain is mostly A: ${JSON.stringify(plain)}`);
  const u = itemsOf(t, await userReco(A_LOVER, { exclude_rated_items: true, reranking: 'genre:diversity:2' }), 'user diversity 2');
  t.equal(u.length, 10, 'user: 10 items');
  t.ok(count(u, isA) >= 3 && count(u, isB) >= 3, `user: at least 3 of each genre: ${JSON.stringify(u)}`);
  t.strictSame(
    u.filter((i) => rated.includes(i)),
    [],
    'user: exclude_rated_items still applies',
  );

  const sPlain = itemsOf(t, await sessionReco({ ratings: B_RATINGS, exclude_rated_items: true }), 'session plain');
  t.ok(count(sPlain, isB) >= 8, `session plain is mostly B: ${JSON.stringify(sPlain)}`);
  const s = itemsOf(
    t,
    await sessionReco({ ratings: B_RATINGS, exclude_rated_items: true, reranking: ['genre:diversity:2'] }),
    'session diversity 2',
  );
  t.equal(s.length, 10, 'session: 10 items');
  t.ok(count(s, isA) >= 3 && count(s, isB) >= 3, `session: at least 3 of each genre: ${JSON.stringify(s)}`);
  t.notOk(
    [21, 26, 34].some((i) => s.includes(i)),
    'session: the rated items stay excluded',
  );
  const obj = itemsOf(
    t,
    await sessionReco({
      ratings: B_RATINGS,
      exclude_rated_items: true,
      reranking: [{ property_name: 'genre', op: 'diversity', weight: 2 }],
    }),
    'session object weight 2',
  );
  t.strictSame(obj, s, 'the object form gives what the string form gives');
  const caseInsensitive = itemsOf(
    t,
    await sessionReco({
      ratings: B_RATINGS,
      exclude_rated_items: true,
      reranking: [{ property_name: 'Genre', op: 'DIVERSITY', weight: 2 }],
    }),
    'session object, other case',
  );
  t.strictSame(caseInsensitive, s, 'property and op names are case-insensitive');
});

t.test(
  'diversity: every string form and the object form; weight 1 is the default and default_malus changes nothing when every item has a genre',
  async (t) => {
    const base = itemsOf(t, await itemReco(3, { reranking: 'genre:diversity:1' }), 'genre:diversity:1');
    t.equal(base.length, 10, '10 items');
    for (const form of [
      'genre:diversity:',
      'genre:diversity:1::default_malus:0.5',
      'genre:diversity:1:default_malus:0.5',
      'genre:diversity::default_malus:0.5',
      'GENRE:Diversity:1',
    ]) {
      t.strictSame(itemsOf(t, await itemReco(3, { reranking: form }), `item ${form}`), base, `item-to-items ${form}`);
    }
    const userBase = itemsOf(t, await userReco(B_LOVER, { reranking: 'genre:diversity:1' }), 'user genre:diversity:1');
    const sessionBase = itemsOf(
      t,
      await sessionReco({ ratings: B_RATINGS, reranking: ['genre:diversity:1'] }),
      'session genre:diversity:1',
    );
    for (const form of [
      'genre:diversity:',
      'genre:diversity:1::default_malus:0.5',
      'genre:diversity:1:default_malus:0.5',
      'genre:diversity::default_malus:0.5',
    ]) {
      t.strictSame(itemsOf(t, await userReco(B_LOVER, { reranking: form }), `user ${form}`), userBase, `user-to-items ${form}`);
      t.strictSame(
        itemsOf(t, await sessionReco({ ratings: B_RATINGS, reranking: [form] }), `session ${form}`),
        sessionBase,
        `session ${form}`,
      );
    }
    for (const rule of [
      { property_name: 'genre', op: 'diversity', weight: 1, options: { default_malus: 0.5 } },
      { property_name: 'genre', op: 'diversity', options: { default_malus: 0.5 } },
      { property_name: 'genre', op: 'diversity' },
      { property_name: 'genre', op: 'diversity', weight: 1, options: {} },
    ]) {
      t.strictSame(
        itemsOf(t, await sessionReco({ ratings: B_RATINGS, reranking: [rule] }), `session object ${JSON.stringify(rule)}`),
        sessionBase,
        `session object ${JSON.stringify(rule)}`,
      );
    }
    // Two rules at once are accepted.
    const two = itemsOf(t, await itemReco(3, { reranking: ['genre:diversity:1', 'price:diversity:1'] }), 'two rules');
    t.equal(two.length, 10, 'two rules: 10 items');
  },
);

t.test('diversity paging: two pages of amt=5 are the one page of amt=10, without repeats', async (t) => {
  const cases: [string, (amt: number, cursor?: string) => Promise<Res>][] = [
    ['item-to-items', (amt, cursor) => itemReco(2, { amt, cursor, reranking: 'genre:diversity:2' })],
    ['item-to-items weight 1', (amt, cursor) => itemReco(25, { amt, cursor, reranking: 'genre:diversity:1' })],
    ['user-to-items', (amt, cursor) => userReco(A_LOVER, { amt, cursor, exclude_rated_items: true, reranking: 'genre:diversity:2' })],
    ['session', (amt, cursor) => sessionReco({ amt, cursor, ratings: B_RATINGS, reranking: ['genre:diversity:2'] })],
  ];
  for (const [what, read] of cases) {
    const first = await read(5);
    const p1 = itemsOf(t, first, `${what} page 1`, 5);
    t.equal(p1.length, 5, `${what}: page 1 is full`);
    t.type(first.body.next_cursor, 'string');
    t.not(first.body.next_cursor, '', `${what}: page 1 has a next_cursor`);
    const p2 = itemsOf(t, await read(5, first.body.next_cursor), `${what} page 2`, 5);
    t.equal(p2.length, 5, `${what}: page 2 is full`);
    t.equal(new Set([...p1, ...p2]).size, 10, `${what}: no repeats across the pages: ${JSON.stringify([p1, p2])}`);
    const one = itemsOf(t, await read(10), `${what} amt=10`);
    t.strictSame([...p1, ...p2], one, `${what}: pages of 5 then 5 are the page of 10: ${JSON.stringify({ pages: [...p1, ...p2], one })}`);
  }
  // Changing amt between pages must not show an item twice.
  const ten = await itemReco(2, { amt: 10, reranking: 'genre:diversity:2' });
  const five = await itemReco(2, { amt: 5, cursor: ten.body.next_cursor, reranking: 'genre:diversity:2' });
  const mixed = [...itemsOf(t, ten, 'amt=10 then', 10), ...itemsOf(t, five, 'amt=5', 5)];
  t.equal(new Set(mixed).size, 15, `a page of 10 then a page of 5: no repeats: ${JSON.stringify([ten.body.items_id, five.body.items_id])}`);
  // A cursor of a reranked list is not one of the plain list, and the other way round.
  const reranked = await itemReco(2, { amt: 5, reranking: 'genre:diversity:2' });
  const plain = await itemReco(2, { amt: 5 });
  t.same(errorOf(await itemReco(2, { amt: 5, cursor: reranked.body.next_cursor })), WRONG_PARAMETER, 'a reranked cursor on the plain list');
  t.same(
    errorOf(await itemReco(2, { amt: 5, cursor: plain.body.next_cursor, reranking: 'genre:diversity:2' })),
    WRONG_PARAMETER,
    'a plain cursor on the reranked list',
  );
});

t.test('diversity orders are kept per ranking and rules, and follow catalogue changes', async (t) => {
  const kept = (q: Q = {}) => itemReco(2, { amt: 10, reranking: 'genre:diversity:2', ...q });
  // The same rules written differently are a different cache entry, computed afresh every time here.
  const fresh = () => itemReco(2, { amt: 10, reranking: 'genre:diversity:2::default_malus:0' });
  const before = itemsOf(t, await kept(), 'kept');
  t.strictSame(itemsOf(t, await fresh(), 'fresh'), before, 'the same order either way');
  const moved = before.find(isB)!;
  t.equal(
    (await api.patch(`items/${moved}/properties/`, { item: { genre: 'a' } }, { token })).status,
    200,
    `item ${moved} becomes genre a`,
  );
  t.teardown(() => api.patch(`items/${moved}/properties/`, { item: { genre: 'b' } }, { token }));
  const after = itemsOf(t, await kept(), 'kept, after the change');
  t.strictSame(after, itemsOf(t, await fresh(), 'fresh, after the change'), 'the kept order is recomputed after the change');
  t.notSame(after, before, `the change moves the order: ${JSON.stringify({ before, after })}`);
});

t.test(
  'diversity errors: op, malformed strings, weights and options are WRONG_DATA_TYPE; unknown property ITEM_PROPERTY_NOT_FOUND',
  async (t) => {
    const cases: [string, Record<string, unknown>][] = [
      ['genre:eq:1', WRONG_DATA_TYPE],
      ['genre:boost:1', WRONG_DATA_TYPE],
      ['genre', WRONG_DATA_TYPE],
      ['genre:diversity', WRONG_DATA_TYPE],
      [':diversity:1', WRONG_DATA_TYPE],
      ['genre:diversity:1:default_malus', WRONG_DATA_TYPE],
      ['genre:diversity:abc', WRONG_DATA_TYPE],
      ['genre:diversity:0', WRONG_DATA_TYPE],
      ['genre:diversity:-1', WRONG_DATA_TYPE],
      ['genre:diversity:1:foo:1', WRONG_DATA_TYPE],
      ['genre:diversity:1::foo:1', WRONG_DATA_TYPE],
      ['genre:diversity:1:default_malus:-1', WRONG_DATA_TYPE],
      ['genre:diversity:1:default_malus:x', WRONG_DATA_TYPE],
      ['nope:diversity:1', ITEM_PROPERTY_NOT_FOUND],
    ];
    for (const [rule, expected] of cases) {
      t.same(errorOf(await itemReco(1, { reranking: rule })), expected, `item-to-items ${rule}`);
      t.same(errorOf(await itemReco(1, { reranking: ['genre:diversity:1', rule] })), expected, `item-to-items ${rule} as a second rule`);
      t.same(errorOf(await userReco(A_LOVER, { reranking: rule })), expected, `user-to-items ${rule}`);
      t.same(errorOf(await sessionReco({ ratings: B_RATINGS, reranking: [rule] })), expected, `session ${rule}`);
    }
    const objects: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ property_name: 'genre', op: 'eq', weight: 1 }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', weight: 0 }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', weight: -2 }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', weight: 'x' }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', options: { foo: 1 } }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', options: { default_malus: -1 } }, WRONG_DATA_TYPE],
      [{ property_name: 'genre', op: 'diversity', options: { default_malus: 'x' } }, WRONG_DATA_TYPE],
      [{ property_name: 'genre' }, WRONG_DATA_TYPE],
      [{ property_name: 'nope', op: 'diversity', weight: 1 }, ITEM_PROPERTY_NOT_FOUND],
    ];
    for (const [rule, expected] of objects) {
      t.same(errorOf(await sessionReco({ ratings: B_RATINGS, reranking: [rule] })), expected, `session object ${JSON.stringify(rule)}`);
      t.same(
        errorOf(await ctxSession({ ratings: B_RATINGS, context_items: [1], reranking: [rule] })),
        expected,
        `context session object ${JSON.stringify(rule)}`,
      );
    }
    t.same(errorOf(await sessionReco({ reranking: 'genre:diversity:1' })), WRONG_DATA_TYPE, 'session reranking that is not a list');
    // amt errors stay WRONG_PARAMETER, with a valid or an invalid rule.
    t.same(errorOf(await itemReco(1, { amt: 0, reranking: 'genre:diversity:2' })), WRONG_PARAMETER, 'item amt=0 with a rule');
    t.same(errorOf(await itemReco(1, { amt: 65, reranking: 'genre:eq:1' })), WRONG_PARAMETER, 'item amt=65 with a bad rule');
    t.same(errorOf(await userReco(A_LOVER, { amt: 'x', reranking: 'genre:diversity:2' })), WRONG_PARAMETER, 'user amt=x with a rule');
    t.same(errorOf(await sessionReco({ amt: 65, reranking: ['genre:diversity:2'] })), WRONG_PARAMETER, 'session amt=65 with a rule');
  },
);

// ---- context items ---------------------------------------------------------------------------------------

t.test('context items steer a user towards items like them; they are never returned', async (t) => {
  const plain = itemsOf(t, await userReco(B_LOVER, { exclude_rated_items: true }), 'B lover without context');
  const r = await ctxUser(B_LOVER, { context_items: [1, 2, 3], exclude_rated_items: true });
  const ctx = itemsOf(t, r, 'B lover with A context');
  t.equal(ctx.length, 10, '10 items');
  t.strictSame(r.body.warnings, [], 'no warnings');
  t.ok(
    count(ctx, isA) > count(plain, isA),
    `more A items with A context (${count(ctx, isA)}) than without (${count(plain, isA)}): ${JSON.stringify(ctx)}`,
  );
  t.ok(count(ctx, isA) >= 2, `several A items: ${JSON.stringify(ctx)}`);
  t.notOk(
    [1, 2, 3].some((i) => ctx.includes(i)),
    'the context items are left out',
  );
  t.strictSame(
    ctx.filter((i) => likedBy(30).includes(i)),
    [],
    'exclude_rated_items still applies',
  );

  const objects = itemsOf(
    t,
    await ctxUser(B_LOVER, { context_items: [{ item_id: 1 }, { item_id: 2 }, { item_id: 3 }], exclude_rated_items: true }),
    '{item_id} objects',
  );
  t.strictSame(objects, ctx, 'objects with item_id are the same as ids');
  const strings = itemsOf(
    t,
    await ctxUser(B_LOVER, { context_items: ['1', { item_id: '2' }, 3], exclude_rated_items: true }),
    'decimal strings',
  );
  t.strictSame(strings, ctx, 'ids as decimal strings too');

  // Without exclude_rated_items, the whole list is every item but the context items.
  const all = await ctxUser(B_LOVER, { context_items: [1, 2, 3], amt: 64 });
  const allIds = itemsOf(t, all, 'amt=64', 64);
  t.strictSame(
    sorted(allIds),
    [...A, ...B].filter((i) => ![1, 2, 3].includes(i)),
    'every item once but the three context items',
  );
  t.equal(all.body.next_cursor, '', 'nothing more');
  // A B context item for an A lover.
  const aLover = itemsOf(t, await ctxUser(A_LOVER, { context_items: [25], amt: 64 }), 'A lover, context 25', 64);
  t.notOk(aLover.includes(25), 'the context item is left out');
  t.equal(aLover.length, 39, 'the other 39');
  // Paging goes on without repeats.
  const p1 = await ctxUser(B_LOVER, { context_items: [1, 2, 3], amt: 5 });
  const p2 = await ctxUser(B_LOVER, { context_items: [1, 2, 3], amt: 5, cursor: p1.body.next_cursor });
  t.strictSame(
    [...itemsOf(t, p1, 'page 1', 5), ...itemsOf(t, p2, 'page 2', 5)],
    itemsOf(t, await ctxUser(B_LOVER, { context_items: [1, 2, 3] }), 'amt=10'),
    'two pages of 5 are the page of 10',
  );
});

t.test('context items with a session', async (t) => {
  // Three B ratings weigh as much as the context (the popular B items stay on top): look at 20.
  const plain = itemsOf(t, await sessionReco({ ratings: B_RATINGS, exclude_rated_items: true, amt: 20 }), 'B session', 20);
  const r = await ctxSession({ ratings: B_RATINGS, context_items: [1, 2, 3], exclude_rated_items: true, amt: 20 });
  const ctx = itemsOf(t, r, 'B session with A context', 20);
  t.equal(ctx.length, 20, '20 items');
  t.ok(
    count(ctx, isA) > count(plain, isA),
    `more A items with A context (${count(ctx, isA)}) than without (${count(plain, isA)}): ${JSON.stringify(ctx)}`,
  );
  t.notOk(
    [1, 2, 3, 21, 26, 34].some((i) => ctx.includes(i)),
    'neither context nor rated items',
  );
  const objects = itemsOf(
    t,
    await ctxSession({
      ratings: B_RATINGS,
      context_items: [{ item_id: 1 }, { item_id: 2 }, { item_id: 3 }],
      exclude_rated_items: true,
      amt: 20,
    }),
    'objects',
    20,
  );
  t.strictSame(objects, ctx, 'objects with item_id are the same as ids');
  // No ratings: the context alone.
  const alone = itemsOf(t, await ctxSession({ context_items: [22, 23] }), 'context alone');
  t.ok(count(alone, isB) >= 8, `B context alone gives B items: ${JSON.stringify(alone)}`);
  t.notOk(alone.includes(22) || alone.includes(23), 'the context items are left out');
  const all = itemsOf(t, await ctxSession({ ratings: B_RATINGS, context_items: [1], amt: 64 }), 'amt=64', 64);
  t.equal(all.length, 39, 'every item but the context item');
  t.notOk(all.includes(1), 'not the context item');
});

t.test('context items errors: unknown item ITEM_NOT_FOUND; missing, empty or malformed WRONG_DATA_TYPE', async (t) => {
  for (const [what, call] of [
    ['user', (body: Record<string, unknown>) => ctxUser(B_LOVER, body)],
    ['session', (body: Record<string, unknown>) => ctxSession({ ratings: B_RATINGS, ...body })],
  ] as const) {
    t.same(errorOf(await call({ context_items: [999] })), ITEM_NOT_FOUND, `${what}: unknown item`);
    t.same(errorOf(await call({ context_items: [1, { item_id: 999 }] })), ITEM_NOT_FOUND, `${what}: unknown item in an object`);
    t.same(errorOf(await call({})), WRONG_DATA_TYPE, `${what}: context_items missing`);
    t.same(errorOf(await call({ context_items: [] })), WRONG_DATA_TYPE, `${what}: context_items empty`);
    t.same(errorOf(await call({ context_items: 1 })), WRONG_DATA_TYPE, `${what}: context_items not a list`);
    t.same(errorOf(await call({ context_items: [{}] })), WRONG_DATA_TYPE, `${what}: an object without item_id`);
    t.same(errorOf(await call({ context_items: ['abc'] })), BAD_ITEM, `${what}: an id of the wrong type`);
  }
  t.same(errorOf(await ctxUser(uid(999), { context_items: [1] })), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await ctxUser('not-a-uuid', { context_items: [1] })), BAD_USER, 'malformed user');
});

// ---- property values ------------------------------------------------------------------------------------

t.test('property values for a user: the liked genre first', async (t) => {
  const a = await userValues(A_LOVER, 'genre', { amt: 2 });
  t.equal(a.status, 200, why(a, 200));
  t.strictSame(a.body, { properties: ['a', 'b'], warnings: [] }, 'an A lover: a, then b');
  const b = await userValues(B_LOVER, 'genre', { amt: 2 });
  t.strictSame(b.body, { properties: ['b', 'a'], warnings: [] }, 'a B lover: b, then a');
  t.strictSame((await userValues(A_LOVER, 'genre', { amt: 1 })).body?.properties, ['a'], 'amt=1');
  t.strictSame((await userValues(A_LOVER, 'genre')).body?.properties, ['a', 'b'], 'the default amt lists both values');
  t.strictSame((await userValues(A_LOVER, 'GENRE', { amt: 2 })).body?.properties, ['a', 'b'], 'the property name in any case');
  const prices = (await userValues(A_LOVER, 'price', { amt: 5 })).body?.properties;
  t.ok(
    Array.isArray(prices) && prices.length === 5 && prices.every((p: unknown) => typeof p === 'number' && p >= 1 && p <= 20),
    `numeric values: the prices of A items: ${JSON.stringify(prices)}`,
  );
  // Filters restrict the items whose values count.
  t.strictSame(
    (await userValues(A_LOVER, 'genre', { amt: 2, filters: 'genre:eq:b' })).body,
    { properties: ['b'], warnings: [] },
    'genre:eq:b leaves only b',
  );
  t.strictSame(
    (await userValues(A_LOVER, 'genre', { amt: 2, filters: 'price:gt:100' })).body,
    { properties: [], warnings: [] },
    'no item passes: no values',
  );
});

t.test('property values for a session', async (t) => {
  const b = await sessionValues('genre', { ratings: B_RATINGS });
  t.equal(b.status, 200, why(b, 200));
  t.equal(b.body?.properties?.[0], 'b', `B ratings: b first: ${JSON.stringify(b.body)}`);
  t.strictSame(b.body?.warnings, [], 'no warnings');
  const a = await sessionValues('genre', { ratings: [{ item_id: 4, rating: 10 }], amt: 2 });
  t.strictSame(a.body, { properties: ['a', 'b'], warnings: [] }, 'A ratings: a, then b');
  const interactions = await sessionValues('genre', { interactions: [{ item_id: 30, interaction_type: 'purchase' }], amt: 1 });
  t.strictSame(interactions.body?.properties, ['b'], 'interactions on a B item: b');
  t.strictSame(
    (await sessionValues('genre', { ratings: [{ item_id: 4, rating: 10 }], filters: ['genre:eq:b'] })).body?.properties,
    ['b'],
    'a filter string',
  );
  t.strictSame(
    (await sessionValues('genre', { ratings: [{ item_id: 4, rating: 10 }], filters: [{ property_name: 'genre', op: 'eq', value: 'b' }] }))
      .body?.properties,
    ['b'],
    'a filter object',
  );
  // Nothing to personalise with: popular items (38, 39, 40 are B) and a warning.
  const none = await sessionValues('genre', {});
  t.equal(none.status, 200, why(none, 200));
  t.equal(none.body?.properties?.[0], 'b', `popular items first: b: ${JSON.stringify(none.body)}`);
  t.ok(hasWarning(none, 'popular'), `a warning: ${JSON.stringify(none.body?.warnings)}`);
});

t.test("property values: a user without ratings gets the popular items' values and a warning", async (t) => {
  const user = uid(200);
  const c = await api.put(`users/${user}/properties/`, { user: { age: 40 } }, { token });
  t.equal(c.status, 200, why(c, 200));
  const r = await userValues(user, 'genre', { amt: 2 });
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(r.body?.properties, ['b', 'a'], 'the popular items are B');
  t.ok(hasWarning(r, 'popular'), `a warning: ${JSON.stringify(r.body?.warnings)}`);
});

t.test('property values errors', async (t) => {
  t.same(errorOf(await userValues(A_LOVER, 'nope')), ITEM_PROPERTY_NOT_FOUND, 'user: unknown property');
  t.same(errorOf(await sessionValues('nope', { ratings: B_RATINGS })), ITEM_PROPERTY_NOT_FOUND, 'session: unknown property');
  for (const amt of ['65', '0', 'x']) t.same(errorOf(await userValues(A_LOVER, 'genre', { amt })), WRONG_PARAMETER, `user amt=${amt}`);
  for (const amt of [65, 0, 'x'])
    t.same(errorOf(await sessionValues('genre', { ratings: B_RATINGS, amt })), WRONG_PARAMETER, `session amt=${amt}`);
  const withCursor = await sessionValues('genre', { ratings: B_RATINGS, cursor: 'abc' });
  t.equal(withCursor.status, 200, 'session: a cursor in the body is not a parameter of this endpoint');
  t.ok(
    withCursor.body.warnings.some((w: string) => /ignored.*cursor/.test(w)),
    'and a warning says it was ignored',
  );
  t.same(errorOf(await userValues(uid(999), 'genre')), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await userValues(A_LOVER, 'genre', { filters: 'nope:eq:1' })), ITEM_PROPERTY_NOT_FOUND, 'unknown property in a filter');
  t.same(errorOf(await sessionValues('genre', { ratings: B_RATINGS, interactions: [] })), WRONG_PARAMETER, 'ratings and interactions');
});

// ---- generic ------------------------------------------------------------------------------------------------

t.test('generic: reco_type tells which recommendation answered, with the same items as the dedicated endpoint', async (t) => {
  const item = await generic({ item_id: 5 });
  t.equal(item.body?.reco_type, 'item_to_items', 'item_id → item_to_items');
  t.strictSame(
    itemsOf(t, item, 'generic item', 10, ['reco_type', 'evaluated_scenarios']),
    itemsOf(t, await itemReco(5), 'item 5'),
    'the items of item-to-items',
  );
  t.strictSame(
    (await generic({ item_id: '5', amt: 3 })).body?.items_id,
    (await itemReco(5, { amt: 3 })).body.items_id,
    'item_id as a string, amt',
  );

  const user = await generic({ user_id: A_LOVER, exclude_rated_items: true });
  t.equal(user.body?.reco_type, 'profile_to_items', 'user_id → profile_to_items');
  t.strictSame(
    itemsOf(t, user, 'generic user', 10, ['reco_type', 'evaluated_scenarios']),
    itemsOf(t, await userReco(A_LOVER, { exclude_rated_items: true }), 'user'),
    'the items of user-to-items',
  );
  t.strictSame(user.body?.warnings, [], 'user_id is used here: no warning about it');

  const ctx = await generic({ user_id: B_LOVER, context_items: [1, 2, 3] });
  t.equal(ctx.body?.reco_type, 'profile_to_items_w_ctx_items', 'user_id and context_items → profile_to_items_w_ctx_items');
  t.strictSame(
    itemsOf(t, ctx, 'generic user ctx', 10, ['reco_type', 'evaluated_scenarios']),
    itemsOf(t, await ctxUser(B_LOVER, { context_items: [1, 2, 3] }), 'context user'),
    'the items of the context endpoint',
  );

  const session = await generic({ ratings: B_RATINGS });
  t.equal(session.body?.reco_type, 'session_to_items', 'ratings → session_to_items');
  t.strictSame(
    itemsOf(t, session, 'generic session', 10, ['reco_type', 'evaluated_scenarios']),
    itemsOf(t, await sessionReco({ ratings: B_RATINGS }), 'session'),
    'the items of session-to-items',
  );

  const sessionCtx = await generic({ ratings: B_RATINGS, context_items: [1] });
  t.equal(sessionCtx.body?.reco_type, 'session_to_items_w_ctx_items', 'ratings and context_items → session_to_items_w_ctx_items');
  t.strictSame(
    itemsOf(t, sessionCtx, 'generic session ctx', 10, ['reco_type', 'evaluated_scenarios']),
    itemsOf(t, await ctxSession({ ratings: B_RATINGS, context_items: [1] }), 'context session'),
    'the items of the context session endpoint',
  );

  const nothing = await generic({});
  t.equal(nothing.body?.reco_type, 'session_to_items', 'nothing → session_to_items');
  const pop = itemsOf(t, nothing, 'generic nothing', 10, ['reco_type', 'evaluated_scenarios']);
  t.strictSame(sorted(pop.slice(0, 3)), POPULAR, `the popular items first: ${JSON.stringify(pop)}`);
  t.ok(hasWarning(nothing, 'popular'), `a warning: ${JSON.stringify(nothing.body?.warnings)}`);

  const both = await generic({ item_id: 5, user_id: A_LOVER });
  t.equal(both.body?.reco_type, 'item_to_items', 'item_id wins over user_id');

  t.same(errorOf(await generic({ item_id: 999 })), ITEM_NOT_FOUND, 'unknown item');
  t.same(errorOf(await generic({ user_id: uid(999) })), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await generic({ item_id: true })), WRONG_DATA_TYPE, 'item_id not an id');
  t.same(errorOf(await generic({ user_id: B_LOVER, context_items: [999] })), ITEM_NOT_FOUND, 'unknown context item');
  t.same(errorOf(await generic({ item_id: 5, amt: 65 })), WRONG_PARAMETER, 'amt=65');
});

// ---- items for property values -------------------------------------------------------------------------

t.test('items for property values: items like those holding them', async (t) => {
  const b = itemsOf(t, await byValues({ item_properties: { genre: 'b' } }), 'genre b');
  t.equal(b.length, 10, '10 items');
  t.ok(count(b, isB) >= 8, `mostly B: ${JSON.stringify(b)}`);
  const a = itemsOf(t, await byValues({ item_properties: { genre: 'a' } }), 'genre a');
  t.ok(count(a, isA) >= 8, `mostly A: ${JSON.stringify(a)}`);
  const prices = itemsOf(t, await byValues({ item_properties: { price: [1, 2, 3] } }), 'price 1, 2, 3');
  t.ok(count(prices, isA) >= 8, `the direction of A items: ${JSON.stringify(prices)}`);
  const filtered = itemsOf(
    t,
    await byValues({ item_properties: { genre: 'b' }, filters: ['genre:eq:a'], amt: 64 }),
    'genre b, filtered to a',
    64,
  );
  t.strictSame(sorted(filtered), A, 'filters apply');

  const none = await byValues({ item_properties: { genre: 'zzz' } });
  const pop = itemsOf(t, none, 'a value no item holds');
  t.strictSame(sorted(pop.slice(0, 3)), POPULAR, `the popular items first: ${JSON.stringify(pop)}`);
  t.ok(hasWarning(none, 'popular'), `a warning: ${JSON.stringify(none.body?.warnings)}`);

  t.same(errorOf(await byValues({ item_properties: { nope: 'b' } })), ITEM_PROPERTY_NOT_FOUND, 'unknown property');
  t.same(errorOf(await byValues({ item_properties: {} })), WRONG_DATA_TYPE, 'no property');
  t.same(errorOf(await byValues({})), WRONG_DATA_TYPE, 'item_properties missing');
  t.same(errorOf(await byValues({ item_properties: { genre: 'b' }, amt: 0 })), WRONG_PARAMETER, 'amt=0');
  // No reco_type: scenarios do not apply here, and the answer says so when one is asked for.
  const named = await byValues({ item_properties: { genre: 'b' }, scenario: 'x' });
  t.ok(hasWarning(named, 'scenarios do not apply'), `scenario named: ${JSON.stringify(named.body?.warnings)}`);
  t.strictSame(
    (await byValues({ item_properties: { genre: 'b' }, skip_default_scenario: false })).body?.warnings,
    [],
    'skip_default_scenario false: nothing to say',
  );
});

// ---- groups ----------------------------------------------------------------------------------------------------

t.test('users groups: a mixed group gets both genres, an A group A items', async (t) => {
  for (const consensus_factor of [0, 0.5, undefined]) {
    const r = await group({ users_id: [A_LOVER, B_LOVER], consensus_factor });
    const ids = itemsOf(t, r, `A and B lovers, consensus ${consensus_factor}`);
    t.equal(ids.length, 10, '10 items');
    t.ok(count(ids, isA) >= 2 && count(ids, isB) >= 2, `consensus ${consensus_factor}: from both groups: ${JSON.stringify(ids)}`);
  }
  const aa = itemsOf(t, await group({ users_id: [uid(1), uid(2)], consensus_factor: 0.5 }), 'two A lovers');
  t.ok(count(aa, isA) >= 8, `two A lovers: A items: ${JSON.stringify(aa)}`);
  const bb = itemsOf(t, await group({ users_id: [uid(31), uid(32)], consensus_factor: 1 }), 'two B lovers, consensus 1');
  t.ok(count(bb, isB) >= 8, `two B lovers: B items: ${JSON.stringify(bb)}`);

  const excl = await group({ users_id: [A_LOVER, B_LOVER], exclude_rated_items: true, amt: 64 });
  const exclIds = itemsOf(t, excl, 'exclude_rated_items', 64);
  const rated = new Set([...likedBy(0), ...likedBy(30)]);
  t.strictSame(
    sorted(exclIds),
    [...A, ...B].filter((i) => !rated.has(i)),
    "every item but the members' rated items",
  );
  t.equal(excl.body.next_cursor, '', 'nothing more');
  const withRated = itemsOf(t, await group({ users_id: [A_LOVER, B_LOVER], amt: 64 }), 'without exclusion', 64);
  t.equal(withRated.length, 40, 'without exclude_rated_items every item');

  // Paging.
  const p1 = await group({ users_id: [A_LOVER, B_LOVER], amt: 5 });
  const p2 = await group({ users_id: [A_LOVER, B_LOVER], amt: 5, cursor: p1.body.next_cursor });
  t.strictSame(
    [...itemsOf(t, p1, 'page 1', 5), ...itemsOf(t, p2, 'page 2', 5)],
    itemsOf(t, await group({ users_id: [A_LOVER, B_LOVER] }), 'amt=10'),
    'two pages of 5 are the page of 10',
  );
});

t.test("users groups: `users: [{user_id}]` (the hosted service's Python client) names the group as users_id does", async (t) => {
  const byIds = await group({ users_id: [A_LOVER, B_LOVER], consensus_factor: 0.5, amt: 20 });
  const byUsers = await group({ users: [{ user_id: A_LOVER }, { user_id: B_LOVER }], consensus_factor: 0.5, amt: 20 });
  t.strictSame(itemsOf(t, byUsers, 'users form', 20), itemsOf(t, byIds, 'users_id form', 20), 'the same items');
  t.same(errorOf(await group({ users: [{ user_id: A_LOVER }, { user_id: uid(999) }] })), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await group({ users: [{ user_id: 'not-a-uuid' }] })), BAD_USER, 'malformed user');
  t.same(errorOf(await group({ users: [] })), WRONG_DATA_TYPE, 'no users');
  t.same(errorOf(await group({ users: [A_LOVER] })), WRONG_DATA_TYPE, 'users entries are objects');
  t.same(errorOf(await group({ users: [{ id: A_LOVER }] })), WRONG_DATA_TYPE, 'users entries hold user_id');
  t.same(errorOf(await group({ users_id: [A_LOVER], users: [{ user_id: B_LOVER }] })), WRONG_DATA_TYPE, 'not both forms at once');
});

t.test('users groups errors', async (t) => {
  t.same(errorOf(await group({ users_id: [A_LOVER, uid(999)] })), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await group({ users_id: [A_LOVER, 'not-a-uuid'] })), BAD_USER, 'malformed user');
  t.same(errorOf(await group({ users_id: [A_LOVER], consensus_factor: 2 })), WRONG_DATA_TYPE, 'consensus_factor 2');
  t.same(errorOf(await group({ users_id: [A_LOVER], consensus_factor: -0.5 })), WRONG_DATA_TYPE, 'consensus_factor -0.5');
  t.same(errorOf(await group({ users_id: [A_LOVER], consensus_factor: 'x' })), WRONG_DATA_TYPE, 'consensus_factor x');
  t.same(errorOf(await group({ users_id: [] })), WRONG_DATA_TYPE, 'no users');
  t.same(errorOf(await group({})), WRONG_DATA_TYPE, 'users_id missing');
  t.same(errorOf(await group({ users_id: [A_LOVER], amt: 65 })), WRONG_PARAMETER, 'amt=65');
});

// ---- recommendation ids (recd's own) ----------------------------------------------------------------

t.test('every item-list answer carries an id of its own, the same field in JSON, msgpack and pickle', async (t) => {
  const answers: [string, Res][] = [
    ['item', await itemReco(1)],
    ['user', await userReco(A_LOVER)],
    ['session', await sessionReco({ ratings: B_RATINGS })],
    ['user with context', await ctxUser(A_LOVER, { context_items: [1] })],
    ['session with context', await ctxSession({ ratings: B_RATINGS, context_items: [21] })],
    ['generic', await generic({ item_id: 1 })],
    ['property values', await byValues({ item_properties: { genre: 'b' } })],
    ['group', await group({ users_id: [A_LOVER, B_LOVER] })],
    ['item again', await itemReco(1)],
  ];
  const ids = answers.map(([what, r]) => {
    t.equal(r.status, 200, `${what}: ${why(r, 200)}`);
    t.match(r.body.recommendation_id, /^[A-Za-z0-9_.-]{10,}$/, `${what}: an opaque id`);
    return r.body.recommendation_id as string;
  });
  t.equal(new Set(ids).size, ids.length, 'each answer its own, the same request twice included');
  const values = await userValues(A_LOVER, 'genre');
  t.equal(values.body.recommendation_id, undefined, 'property values are no item list: no id');
  for (const accept of ['application/msgpack', 'application/service-pkl']) {
    const r = await api.get('recommendation/items/1/items/', { token, headers: { accept } });
    t.equal(r.status, 200, accept);
    const body = (accept === 'application/msgpack' ? msgpackCodec : pickleCodec).decode(new Uint8Array(r.bytes)) as Record<string, unknown>;
    t.type(body.recommendation_id, 'string', `${accept}: recommendation_id is a string`);
    t.notOk(ids.includes(body.recommendation_id as string), `${accept}: an id of its own`);
  }
});

t.test('the model served throughout is the one trained at the start', async (t) => {
  const r = await api.get('pretrained-ml/trained-models/', { token });
  t.strictSame(
    r.body?.models?.map((m: { model_id: string }) => m.model_id),
    [modelId],
    'one model, never replaced',
  );
});
