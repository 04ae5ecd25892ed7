// Recommendation endpoints against a trained model with planted structure: items 1..20 are genre 'a',
// 21..40 genre 'b'; users 0..29 rate only A items, users 30..59 only B items, users 60..69 ("fans")
// rate items 38, 39, 40, which makes those three the most popular. Checked: item-to-items,
// user-to-items (fold-in of the current ratings, no retraining), session-to-items (ratings and
// interactions), filters, exclude_rated_items, paging, popular fallback with its warning, the
// runtime scenarios, every error, roles, and HTTP pipelining of
// item-to-items. One recd process on a private Redis, real HTTP.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Res } from '../helpers/api.js';
import {
  BAD_ITEM,
  BAD_USER,
  freshDatabase,
  hasWarning,
  INCORRECT_ROLE,
  NO_RULE,
  NOT_OWN_USER,
  range,
  ratingCount,
  ratingsOf,
  uid,
  why,
  WRONG_DATA_TYPE,
  WRONG_PARAMETER,
} from '../helpers/feedback.js';
import { errorOf, frontendToken as frontendTokenOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import {
  A,
  B,
  count,
  isA,
  isB,
  itemsOf,
  likedBy,
  modelsOf,
  pipelined as pipelinedOn,
  POPULAR,
  qs,
  RECO_ENV,
  statusOf as statusOn,
  trainedDatabase,
  withoutId,
  type Q,
  type Tt,
} from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const NOT_READY = { status: 503, code: 1, errorName: 'ServerUnavailable', name: 'DATABASE_NOT_READY' };
const notFound = (name: string) => ({ status: 404, code: 60, errorName: 'NotFoundError', name });
const ITEM_NOT_FOUND = notFound('ITEM_NOT_FOUND');
const USER_NOT_FOUND = notFound('USER_NOT_FOUND');
const ITEM_PROPERTY_NOT_FOUND = notFound('ITEM_PROPERTY_NOT_FOUND');
const USER_PROPERTY_NOT_FOUND = notFound('USER_PROPERTY_NOT_FOUND');
const WRONG_OP_USE = { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_OP_USE' };

const { db, token, modelId } = await trainedDatabase(api, root);
const statusOf = (tok: string) => statusOn(api, tok);
const models = (tok: string) => modelsOf(api, tok);
const pipelined = (paths: string[]) => pipelinedOn(api, token, paths);

// ---- requests --------------------------------------------------------------------------------------

const itemReco = (item: number | string, q: Q = {}, tok = token) =>
  api.get(`recommendation/items/${item}/items/`, { token: tok, query: qs(q) });
const userReco = (user: string, q: Q = {}, tok = token) => api.get(`recommendation/users/${user}/items/`, { token: tok, query: qs(q) });
const sessionReco = (body: Record<string, unknown>, tok = token) => api.post('recommendation/sessions/items/', body, { token: tok });

// A frontend individual account logged in on the database, carrying frontend_user_id when given.
const frontendToken = (fuid?: string) => frontendTokenOf(api, root, db, fuid);

// ---- item-to-items -----------------------------------------------------------------------------------

t.test('item-to-items: items of the same group first, never the item itself, no duplicates', async (t) => {
  for (const item of [1, 7, 20, 21, 30, 40]) {
    const ids = itemsOf(t, await itemReco(item), `item ${item}`);
    t.equal(ids.length, 10, `item ${item}: default amt is 10`);
    t.notOk(ids.includes(item), `item ${item} is not among its own similar items`);
    const same = count(ids, isA(item) ? isA : isB);
    t.ok(same >= 8, `item ${item}: ${same} of 10 from its own group: ${JSON.stringify(ids)}`);
  }
  const r = await itemReco(5);
  t.strictSame(r.body.warnings, [], 'no warnings');
  t.type(r.body.next_cursor, 'string');
  t.not(r.body.next_cursor, '', 'more items follow');
});

t.test('item-to-items: amt=64 lists the 39 other items and ends the ranking', async (t) => {
  const r = await itemReco(3, { amt: 64 });
  const ids = itemsOf(t, r, 'amt=64', 64);
  t.strictSame(
    [...ids].sort((x, y) => x - y),
    range(1, 41).filter((i) => i !== 3),
    'every other item once',
  );
  t.equal(r.body.next_cursor, '', 'nothing more');
  const top = ids.slice(0, 19);
  t.ok(count(top, isA) >= 15, `the first 19 are mostly A: ${JSON.stringify(top)}`);
  const amt1 = itemsOf(t, await itemReco(3, { amt: 1 }), 'amt=1', 1);
  t.strictSame(amt1, ids.slice(0, 1), 'amt=1 is the head of the same ranking');
});

t.test('item-to-items filters: genre:eq:b on an A item gives only B items; several filters combine', async (t) => {
  const b = await itemReco(1, { filters: 'genre:eq:b', amt: 64 });
  const ids = itemsOf(t, b, 'genre:eq:b', 64);
  t.strictSame(
    [...ids].sort((x, y) => x - y),
    B,
    'exactly the 20 B items',
  );
  t.equal(b.body.next_cursor, '', 'nothing more');
  const top = itemsOf(t, await itemReco(1, { filters: 'genre:eq:b' }), 'genre:eq:b amt 10');
  t.equal(top.length, 10, '10 items');
  t.ok(top.every(isB), `only B: ${JSON.stringify(top)}`);
  t.strictSame(top, ids.slice(0, 10), 'the head of the same filtered ranking');

  const both = itemsOf(t, await itemReco(1, { filters: ['genre:eq:a', 'price:gt:10'], amt: 64 }), 'genre:eq:a and price:gt:10', 64);
  t.strictSame(
    [...both].sort((x, y) => x - y),
    range(11, 21),
    'A items priced above 10',
  );

  const inList = itemsOf(t, await itemReco(1, { filters: 'price:in:2,3,25', amt: 64 }), 'price:in', 64);
  t.strictSame(
    [...inList].sort((x, y) => x - y),
    [2, 3, 25],
    'price:in:2,3,25',
  );

  const neq = itemsOf(t, await itemReco(25, { filters: 'genre:neq:b', amt: 64 }), 'genre:neq:b', 64);
  t.strictSame(
    [...neq].sort((x, y) => x - y),
    A,
    'genre:neq:b is the A items',
  );

  const lte = itemsOf(t, await itemReco(25, { filters: 'price:lte:3', amt: 64 }), 'price:lte:3', 64);
  t.strictSame(
    [...lte].sort((x, y) => x - y),
    [1, 2, 3],
    'price:lte:3',
  );

  const notempty = itemsOf(t, await itemReco(25, { filters: 'genre:notempty', amt: 64 }), 'genre:notempty', 64);
  t.equal(notempty.length, 39, 'genre:notempty keeps every other item');

  const none = await itemReco(1, { filters: 'genre:eq:zzz' });
  t.strictSame(itemsOf(t, none, 'genre:eq:zzz'), [], 'no item matches');
  t.equal(none.body.next_cursor, '', 'and nothing more');
});

// ---- paging --------------------------------------------------------------------------------------

async function pages(
  t: Tt,
  read: (cursor: string | undefined) => Promise<Res>,
  n: number,
  amt: number,
  what: string,
): Promise<{ ids: number[]; last: Res }> {
  let cursor: string | undefined;
  const ids: number[] = [];
  let last!: Res;
  for (let p = 0; p < n; p++) {
    last = await read(cursor);
    const page = itemsOf(t, last, `${what} page ${p + 1}`, amt);
    t.equal(page.length, amt, `${what} page ${p + 1} is full`);
    ids.push(...page);
    cursor = last.body.next_cursor;
    if (p < n - 1) t.ok(cursor, `${what} page ${p + 1} has a next_cursor`);
  }
  return { ids, last };
}

t.test('paging: 4 pages of amt=5 are the 20 items of one amt=20 page, in order, without repeats', async (t) => {
  const cases: [string, (amt: number, cursor?: string) => Promise<Res>][] = [
    ['item-to-items', (amt, cursor) => itemReco(2, { amt, cursor })],
    ['item-to-items filtered', (amt, cursor) => itemReco(2, { amt, cursor, filters: 'genre:in:a,b' })],
    ['user-to-items', (amt, cursor) => userReco(uid(0), { amt, cursor })],
    ['user-to-items exclude_rated_items', (amt, cursor) => userReco(uid(0), { amt, cursor, exclude_rated_items: true })],
    [
      'session',
      (amt, cursor) =>
        sessionReco({
          amt,
          cursor,
          ratings: [
            { item_id: 22, rating: 9 },
            { item_id: 23, rating: 10 },
          ],
        }),
    ],
  ];
  for (const [what, read] of cases) {
    const { ids } = await pages(t, (c) => read(5, c), 4, 5, what);
    t.equal(new Set(ids).size, 20, `${what}: 20 distinct items over 4 pages`);
    const big = itemsOf(t, await read(20), `${what} amt=20`, 20);
    t.strictSame(ids, big, `${what}: the pages are the amt=20 page in order`);
  }
});

t.test('paging to the end: next_cursor is empty once nothing more is left', async (t) => {
  // 39 similar items: pages of 13 end exactly on the third page.
  const { ids, last } = await pages(t, (c) => itemReco(4, { amt: 13, cursor: c }), 3, 13, 'amt=13');
  t.equal(new Set(ids).size, 39, '39 distinct items');
  t.equal(last.body.next_cursor, '', 'the third page, ending the ranking exactly, has no next_cursor');

  // Pages of 20: the second holds the remaining 19.
  const first = await itemReco(4, { amt: 20 });
  const second = await itemReco(4, { amt: 20, cursor: first.body.next_cursor });
  const rest = itemsOf(t, second, 'second page of 20', 20);
  t.equal(rest.length, 19, 'the remaining 19');
  t.equal(second.body.next_cursor, '', 'nothing more');
  t.equal(new Set([...itemsOf(t, first, 'first page of 20', 20), ...rest]).size, 39, 'no repeats');

  // A filtered ranking: 20 B items in pages of 8 → 8, 8, 4.
  let cursor: string | undefined;
  const sizes: number[] = [];
  const seen: number[] = [];
  for (let p = 0; p < 4; p++) {
    const r = await itemReco(4, { amt: 8, cursor, filters: 'genre:eq:b' });
    const got = itemsOf(t, r, `filtered page ${p + 1}`, 8);
    sizes.push(got.length);
    seen.push(...got);
    cursor = r.body.next_cursor;
    if (cursor === '') break;
  }
  t.strictSame(sizes, [8, 8, 4], 'pages of 8, 8, 4');
  t.strictSame(
    [...seen].sort((x, y) => x - y),
    B,
    'every B item once',
  );
});

// ---- user-to-items ----------------------------------------------------------------------------------

t.test('user-to-items: an A lover gets unrated A items with exclude_rated_items, none of the items rated', async (t) => {
  for (const u of [0, 5, 29, 30, 44, 59]) {
    const rated = (await ratingsOf(api, token, uid(u))).map((r) => Number(r.item_id));
    t.strictSame(
      [...rated].sort((x, y) => x - y),
      [...likedBy(u)].sort((x, y) => x - y),
      `user ${u}'s ratings as planted`,
    );
    const own = u < 30 ? isA : isB;
    const r = await userReco(uid(u), { exclude_rated_items: true });
    const ids = itemsOf(t, r, `user ${u}`);
    t.equal(ids.length, 10, `user ${u}: 10 items`);
    t.strictSame(r.body.warnings, [], `user ${u}: no warnings`);
    t.ok(count(ids, own) >= 8, `user ${u}: ${count(ids, own)} of 10 from the liked group: ${JSON.stringify(ids)}`);
    t.strictSame(
      ids.filter((i) => rated.includes(i)),
      [],
      `user ${u}: none of the rated items`,
    );

    const all = await userReco(uid(u), { exclude_rated_items: true, amt: 64 });
    const allIds = itemsOf(t, all, `user ${u} amt=64`, 64);
    t.strictSame(
      [...allIds].sort((x, y) => x - y),
      range(1, 41).filter((i) => !rated.includes(i)),
      `user ${u}: the 30 unrated items, each once`,
    );
    t.equal(all.body.next_cursor, '', `user ${u}: nothing more`);
    const top = allIds.slice(0, 10);
    t.ok(count(top, own) >= 8, `user ${u}: the head of the full list leans the same way`);
  }
});

t.test('user-to-items: without exclude_rated_items rated items may come back; the whole list is every model item', async (t) => {
  const rated = likedBy(0);
  for (const flag of [undefined, false, 'false', 0]) {
    const r = await userReco(uid(0), { amt: 64, exclude_rated_items: flag as never });
    const ids = itemsOf(t, r, `exclude_rated_items=${String(flag)}`, 64);
    t.strictSame(
      [...ids].sort((x, y) => x - y),
      range(1, 41),
      `exclude_rated_items=${String(flag)}: all 40 items`,
    );
    t.ok(count(ids.slice(0, 20), isA) >= 16, `the first 20 are mostly A: ${JSON.stringify(ids.slice(0, 20))}`);
  }
  const head = itemsOf(t, await userReco(uid(0), { amt: 20 }), 'amt=20', 20);
  t.ok(
    head.some((i) => rated.includes(i)),
    `the user's own liked items rank high when not excluded: ${JSON.stringify(head)}`,
  );
  for (const flag of ['true', '1']) {
    const ids = itemsOf(t, await userReco(uid(0), { exclude_rated_items: flag, amt: 64 }), `exclude_rated_items=${flag}`, 64);
    t.equal(ids.length, 30, `exclude_rated_items=${flag} excludes the 10 rated`);
  }
});

// docs/api-choices.md (Transport): query booleans accept true/false/True/False/TRUE/FALSE/1/0.
t.test('user-to-items: exclude_rated_items takes every documented boolean spelling', async (t) => {
  for (const [flag, n] of [
    ['True', 30],
    ['TRUE', 30],
    ['False', 40],
    ['FALSE', 40],
  ] as const) {
    const ids = itemsOf(t, await userReco(uid(0), { exclude_rated_items: flag, amt: 64 }), `exclude_rated_items=${flag}`, 64);
    t.equal(ids.length, n, `exclude_rated_items=${flag}: ${n} items`);
  }
});

t.test(
  'user-to-items folds in the current ratings: a user created after training, with no ratings, then A ratings, then B ratings',
  async (t) => {
    const user = uid(100);
    const created = await api.put(`users/${user}/properties/`, { user: { age: 30 } }, { token });
    t.equal(created.status, 200, `PUT users/<id>/properties/: ${why(created, 200)}`);

    // No ratings: the popular items, with a warning.
    const pop = await userReco(user);
    const popIds = itemsOf(t, pop, 'no ratings');
    t.equal(popIds.length, 10, '10 items');
    t.strictSame(
      [...popIds.slice(0, 3)].sort((x, y) => x - y),
      POPULAR,
      `the three most rated items first: ${JSON.stringify(popIds)}`,
    );
    t.ok(hasWarning(pop, 'popular'), `a warning says the popular items were used: ${JSON.stringify(pop.body?.warnings)}`);
    const popPaged = await userReco(user, { amt: 3 });
    t.strictSame(itemsOf(t, popPaged, 'no ratings amt=3', 3), popIds.slice(0, 3), 'pages of the popular ranking');
    t.strictSame(
      itemsOf(t, await userReco(user, { amt: 7, cursor: popPaged.body.next_cursor }), 'no ratings page 2', 7),
      popIds.slice(3),
      'second page continues it',
    );

    // Two A ratings given after training: A items, at once.
    const rateA = await api.put(
      `users/${user}/ratings/`,
      {
        ratings: [
          { item_id: 3, rating: 10 },
          { item_id: 12, rating: 9 },
        ],
      },
      { token },
    );
    t.equal(rateA.status, 200, `PUT users/<id>/ratings/: ${why(rateA, 200)}`);
    const a = await userReco(user, { exclude_rated_items: true });
    const aIds = itemsOf(t, a, 'after two A ratings');
    t.strictSame(a.body.warnings, [], 'no warning once the user has ratings');
    t.equal(aIds.length, 10, '10 items');
    t.ok(count(aIds, isA) >= 8, `${count(aIds, isA)} of 10 are A: ${JSON.stringify(aIds)}`);
    t.notOk(aIds.includes(3) || aIds.includes(12), 'the rated items are excluded');

    // The ratings replaced by two B ratings: B items.
    const del = await api.delete(`users/${user}/ratings/`, undefined, { token });
    t.equal(del.status, 204, `DELETE users/<id>/ratings/: ${why(del, 204)}`);
    const rateB = await api.put(
      `users/${user}/ratings/`,
      {
        ratings: [
          { item_id: 25, rating: 10 },
          { item_id: 33, rating: 9 },
        ],
      },
      { token },
    );
    t.equal(rateB.status, 200, why(rateB, 200));
    const b = await userReco(user, { exclude_rated_items: true });
    const bIds = itemsOf(t, b, 'after two B ratings');
    t.ok(count(bIds, isB) >= 8, `${count(bIds, isB)} of 10 are B: ${JSON.stringify(bIds)}`);
    t.notOk(bIds.includes(25) || bIds.includes(33), 'the rated items are excluded');

    // A user created only by ratings after training.
    const other = uid(101);
    const r = await api.put(`users/${other}/ratings/`, { ratings: [{ item_id: 5, rating: 9 }] }, { token });
    t.equal(r.status, 200, why(r, 200));
    const one = itemsOf(t, await userReco(other, { exclude_rated_items: true }), 'a new user with one A rating');
    t.ok(count(one, isA) >= 8, `${count(one, isA)} of 10 are A: ${JSON.stringify(one)}`);
    t.notOk(one.includes(5), 'not the rated item');

    t.strictSame(
      (await models(token)).map((m) => m.model_id),
      [modelId],
      'no retraining happened',
    );
  },
);

t.test('user-to-items filters and exclude_rated_items together', async (t) => {
  const rated = likedBy(1);
  const r = await userReco(uid(1), { filters: 'genre:eq:b', exclude_rated_items: true, amt: 64 });
  const ids = itemsOf(t, r, 'A lover, genre:eq:b', 64);
  t.strictSame(
    [...ids].sort((x, y) => x - y),
    B,
    'the B items only',
  );
  const aOnly = itemsOf(
    t,
    await userReco(uid(1), { filters: 'genre:eq:a', exclude_rated_items: true, amt: 64 }),
    'A lover, genre:eq:a',
    64,
  );
  t.strictSame(
    [...aOnly].sort((x, y) => x - y),
    A.filter((i) => !rated.includes(i)),
    'the 10 unrated A items',
  );
});

// ---- session-to-items ---------------------------------------------------------------------------------

t.test('sessions: ratings on B items give B items; on A items, A items; nothing is stored', async (t) => {
  const before = await ratingCount(stack.redis, db);
  const b = await sessionReco({
    ratings: [
      { item_id: 21, rating: 10 },
      { item_id: 26, rating: 9 },
      { item_id: 34, rating: 8 },
    ],
    exclude_rated_items: true,
  });
  const bIds = itemsOf(t, b, 'B session');
  t.equal(bIds.length, 10);
  t.strictSame(b.body.warnings, [], 'no warnings');
  t.ok(count(bIds, isB) >= 8, `${count(bIds, isB)} of 10 are B: ${JSON.stringify(bIds)}`);
  t.notOk(
    [21, 26, 34].some((i) => bIds.includes(i)),
    'exclude_rated_items drops the session ratings',
  );

  const all = itemsOf(
    t,
    await sessionReco({
      ratings: [
        { item_id: 21, rating: 10 },
        { item_id: 26, rating: 9 },
      ],
      exclude_rated_items: true,
      amt: 64,
    }),
    'B session amt=64',
    64,
  );
  t.equal(all.length, 38, 'every model item but the two rated');
  const withRated = itemsOf(
    t,
    await sessionReco({
      ratings: [
        { item_id: 21, rating: 10 },
        { item_id: 26, rating: 9 },
      ],
      amt: 64,
    }),
    'without exclusion',
    64,
  );
  t.equal(withRated.length, 40, 'without exclude_rated_items the rated items stay');

  const a = itemsOf(t, await sessionReco({ ratings: [{ item_id: 2, rating: 9.5 }], amt: 10, exclude_rated_items: true }), 'A session');
  t.ok(count(a, isA) >= 8, `${count(a, isA)} of 10 are A: ${JSON.stringify(a)}`);

  const filtered = itemsOf(
    t,
    await sessionReco({ ratings: [{ item_id: 2, rating: 9.5 }], filters: [{ property_name: 'genre', op: 'eq', value: 'b' }], amt: 64 }),
    'A session, filter object genre eq b',
    64,
  );
  t.strictSame(
    [...filtered].sort((x, y) => x - y),
    B,
    'filter objects apply',
  );
  const fString = itemsOf(
    t,
    await sessionReco({ ratings: [{ item_id: 2, rating: 9.5 }], filters: ['genre:eq:b', 'price:lt:25'], amt: 64 }),
    'filter strings',
    64,
  );
  t.strictSame(
    [...fString].sort((x, y) => x - y),
    [21, 22, 23, 24],
    'filter strings combine',
  );

  const props = await sessionReco({ ratings: [{ item_id: 30, rating: 9 }], user_properties: { age: 30 } });
  t.equal(props.status, 200, `known user_properties: ${why(props, 200)}`);

  t.equal(await ratingCount(stack.redis, db), before, 'the rating count did not change');
  t.strictSame(
    (await models(token)).map((m) => m.model_id),
    [modelId],
    'no retraining',
  );
});

t.test('sessions: interactions through the default rules', async (t) => {
  const b = await sessionReco({
    interactions: [
      { item_id: 22, interaction_type: 'purchase' },
      { item_id: 31, interaction_type: 'add_to_cart' },
      { item_id: 37, interaction_type: 'LIKE' },
    ],
    exclude_rated_items: true,
  });
  const bIds = itemsOf(t, b, 'B interactions');
  t.equal(bIds.length, 10);
  t.ok(count(bIds, isB) >= 8, `${count(bIds, isB)} of 10 are B: ${JSON.stringify(bIds)}`);
  t.notOk(
    [22, 31, 37].some((i) => bIds.includes(i)),
    'the interacted items are excluded',
  );
  const a = itemsOf(
    t,
    await sessionReco({
      interactions: [
        { item_id: 9, interaction_type: 'purchase' },
        { item_id: 9, interaction_type: 'view' },
      ],
      exclude_rated_items: true,
    }),
    'A interactions',
  );
  t.ok(count(a, isA) >= 8, `${count(a, isA)} of 10 are A: ${JSON.stringify(a)}`);
  t.notOk(a.includes(9), 'item 9 excluded');
  t.same(
    errorOf(await sessionReco({ interactions: [{ item_id: 9, interaction_type: 'no_such_type' }] })),
    NO_RULE,
    'an interaction type without a rule',
  );
});

t.test('sessions without usable ratings get the popular items and a warning', async (t) => {
  for (const [what, body] of [
    ['no body fields', {}],
    ['ratings: []', { ratings: [] }],
    ['interactions: []', { interactions: [] }],
    ['only unknown items', { ratings: [{ item_id: 999, rating: 9 }] }],
  ] as [string, Record<string, unknown>][]) {
    const r = await sessionReco(body);
    const ids = itemsOf(t, r, what);
    t.equal(ids.length, 10, `${what}: 10 items`);
    t.strictSame(
      [...ids.slice(0, 3)].sort((x, y) => x - y),
      POPULAR,
      `${what}: the most rated first: ${JSON.stringify(ids)}`,
    );
    t.ok(hasWarning(r, 'popular'), `${what}: warning ${JSON.stringify(r.body?.warnings)}`);
  }
});

// ---- scenarios (scenarios-runtime.test.ts holds the rules) ------------------------------------------------

t.test('a runtime scenario applies: its case amt and filters shape the answer', async (t) => {
  const aCase = { scenario_type: 'case', case: { amt: 5, filters: ['genre:eq:b'] } };
  for (const [type, name] of [
    ['item_to_items', 'some-scenario'],
    ['profile_to_items', 'some-scenario'],
    ['session_to_items', 'x'],
  ]) {
    t.equal((await api.put(`scenarios/${type}/${name}/`, aCase, { token })).status, 200, `scenario ${type}/${name} created`);
  }
  const item = itemsOf(t, await itemReco(1, { scenario: 'some-scenario' }), 'item', 5);
  t.equal(item.length, 5, 'amt 5 from the case');
  t.ok(item.every(isB), `only B items: ${JSON.stringify(item)}`);
  const user = itemsOf(t, await userReco(uid(0), { scenario: 'some-scenario', amt: 7 }), 'user', 7);
  t.equal(user.length, 7, 'the runtime amt wins over the case');
  t.ok(user.every(isB), `only B items: ${JSON.stringify(user)}`);
  const s = await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], scenario: 'x', skip_default_scenario: true });
  t.ok(itemsOf(t, s, 'session', 5).every(isB), 'session: only B items');
  t.strictSame(s.body.warnings, [], 'no warnings');
});

t.test('a runtime scenario that does not exist for the endpoint’s reco_type → SCENARIO_NOT_FOUND', async (t) => {
  const SCENARIO_NOT_FOUND = notFound('SCENARIO_NOT_FOUND');
  t.same(errorOf(await itemReco(1, { scenario: 'nobody' })), SCENARIO_NOT_FOUND, 'item to items');
  t.same(errorOf(await userReco(uid(0), { scenario: 'nobody' })), SCENARIO_NOT_FOUND, 'user to items');
  t.same(
    errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], scenario: 'some-scenario' })),
    SCENARIO_NOT_FOUND,
    'some-scenario exists for item_to_items, not session_to_items',
  );
  const generic = await api.post('recommendation/generic/items/', { item_id: 1, scenario: 'x' }, { token });
  t.same(errorOf(generic), SCENARIO_NOT_FOUND, 'generic: x is a session_to_items scenario, this request is item_to_items');
  t.equal(
    (await api.post('recommendation/generic/items/', { item_id: 1, scenario: 'some-scenario' }, { token })).status,
    200,
    'generic: an item_to_items scenario',
  );
  t.equal((await itemReco(1, { scenario: '' })).status, 200, 'an empty name names nothing');
});

// ---- errors -------------------------------------------------------------------------------------------------

t.test('before any model: 503 DATABASE_NOT_READY on all three endpoints', async (t) => {
  const fresh = await freshDatabase(api, root);
  t.equal((await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token: fresh.token })).status, 204);
  t.equal((await api.put('items-bulk/properties/', { items: [{ item_id: 1, genre: 'a' }] }, { token: fresh.token })).status, 200);
  t.equal((await api.put(`users/${uid(0)}/ratings/`, { ratings: [{ item_id: 1, rating: 9 }] }, { token: fresh.token })).status, 200);
  t.same(errorOf(await itemReco(1, {}, fresh.token)), NOT_READY, 'item-to-items');
  t.same(errorOf(await itemReco(1, { filters: 'genre:eq:a' }, fresh.token)), NOT_READY, 'item-to-items with a filter');
  t.same(errorOf(await userReco(uid(0), {}, fresh.token)), NOT_READY, 'user-to-items');
  t.same(errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }] }, fresh.token)), NOT_READY, 'session');
  const front = await tokenFor(api, root, 'frontend', fresh.db);
  t.same(errorOf(await itemReco(1, {}, front)), NOT_READY, 'frontend item-to-items');
});

t.test('amt: default 10, 1..64; anything else is WRONG_PARAMETER on every endpoint', async (t) => {
  t.equal(itemsOf(t, await itemReco(1, { amt: 64 }), 'amt=64', 64).length, 39, 'amt=64 accepted');
  t.equal(itemsOf(t, await userReco(uid(0), { amt: 1 }), 'amt=1', 1).length, 1, 'amt=1 accepted');
  t.equal(itemsOf(t, await sessionReco({ amt: 64 }), 'session amt=64', 64).length, 40, 'session amt=64 accepted');
  for (const amt of ['0', '65', 'abc', '-1', '1.5', '1e1', '100000']) {
    t.same(errorOf(await itemReco(1, { amt })), WRONG_PARAMETER, `item amt=${amt}`);
    t.same(errorOf(await userReco(uid(0), { amt })), WRONG_PARAMETER, `user amt=${amt}`);
  }
  for (const amt of [0, 65, 'abc', -1, 1.5, null, true, [5]]) {
    t.same(
      errorOf(await sessionReco({ amt, ratings: [{ item_id: 1, rating: 9 }] })),
      WRONG_PARAMETER,
      `session amt=${JSON.stringify(amt)}`,
    );
  }
});

t.test('cursor: a garbage cursor is WRONG_PARAMETER', async (t) => {
  const foreign = Buffer.from('r1:0:1').toString('base64url'); // the right form, another model
  for (const cursor of ['garbage', '!!!', 'cjE6MTA', foreign]) {
    t.same(errorOf(await itemReco(1, { cursor })), WRONG_PARAMETER, `item cursor ${cursor}`);
    t.same(errorOf(await userReco(uid(0), { cursor })), WRONG_PARAMETER, `user cursor ${cursor}`);
    t.same(errorOf(await sessionReco({ cursor, ratings: [{ item_id: 1, rating: 9 }] })), WRONG_PARAMETER, `session cursor ${cursor}`);
  }
  t.same(errorOf(await sessionReco({ cursor: 5 })), WRONG_DATA_TYPE, 'a cursor that is not a string');
});

t.test(
  'filters: unknown property is ITEM_PROPERTY_NOT_FOUND; an op not fitting the type, or notempty with a value, is WRONG_OP_USE',
  async (t) => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['nope:eq:1', 'unknown property', ITEM_PROPERTY_NOT_FOUND],
      ['genre:lt:b', 'lt on a string', WRONG_OP_USE],
      ['genre:gte:b', 'gte on a string', WRONG_OP_USE],
      ['genre:notempty:x', 'notempty with a value', WRONG_OP_USE],
      ['price:notempty:1', 'notempty with a value (int)', WRONG_OP_USE],
    ];
    for (const [filter, what, expected] of cases) {
      t.same(errorOf(await itemReco(1, { filters: filter })), expected, `item ${what}: ${filter}`);
      t.same(errorOf(await itemReco(1, { filters: ['genre:eq:a', filter] })), expected, `item ${what} as a second filter`);
      t.same(errorOf(await userReco(uid(0), { filters: filter })), expected, `user ${what}: ${filter}`);
      t.same(errorOf(await sessionReco({ filters: [filter] })), expected, `session ${what}: ${filter}`);
    }
    t.same(
      errorOf(await sessionReco({ filters: [{ property_name: 'nope', op: 'eq', value: 1 }] })),
      ITEM_PROPERTY_NOT_FOUND,
      'session filter object: unknown property',
    );
    t.same(
      errorOf(await sessionReco({ filters: [{ property_name: 'genre', op: 'lt', value: 'b' }] })),
      WRONG_OP_USE,
      'session filter object: lt on a string',
    );
    t.same(
      errorOf(await sessionReco({ filters: [{ property_name: 'genre', op: 'notempty', value: 'b' }] })),
      WRONG_OP_USE,
      'session filter object: notempty with a value',
    );
    // The same on an item the model does not know (the path that reads before answering).
    t.same(
      errorOf(await itemReco(999, { filters: 'nope:eq:1' })),
      ITEM_PROPERTY_NOT_FOUND,
      'unknown property, unknown item: the filter is checked',
    );
  },
);

t.test('unknown or malformed ids: ITEM_NOT_FOUND, USER_NOT_FOUND, id type errors', async (t) => {
  t.same(errorOf(await itemReco(999)), ITEM_NOT_FOUND, 'item 999');
  t.same(errorOf(await itemReco(41, { amt: 5 })), ITEM_NOT_FOUND, 'item 41');
  t.same(errorOf(await itemReco('abc')), BAD_ITEM, 'item abc in a uint32 database');
  t.same(errorOf(await userReco(uid(999))), USER_NOT_FOUND, 'user 999');
  t.same(errorOf(await userReco(uid(999), { filters: 'genre:eq:a' })), USER_NOT_FOUND, 'user 999 with a filter');
  t.same(errorOf(await userReco('not-a-uuid')), BAD_USER, 'a user id that is not a uuid');
  t.same(errorOf(await sessionReco({ ratings: [{ item_id: 'abc', rating: 9 }] })), BAD_ITEM, 'session rating on item abc');
});

t.test('sessions: ratings and interactions together, bad ratings, unknown user properties', async (t) => {
  t.same(
    errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], interactions: [{ item_id: 2, interaction_type: 'purchase' }] })),
    WRONG_PARAMETER,
    'ratings and interactions',
  );
  t.same(errorOf(await sessionReco({ ratings: [], interactions: [] })), WRONG_PARAMETER, 'ratings and interactions, both empty');
  t.same(
    errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], user_properties: { nope: 1 } })),
    USER_PROPERTY_NOT_FOUND,
    'unknown user property',
  );
  t.same(
    errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], user_properties: { age: 30, nope: 1 } })),
    USER_PROPERTY_NOT_FOUND,
    'a known and an unknown user property',
  );
  for (const rating of [0, 11, 'x', null]) {
    t.same(errorOf(await sessionReco({ ratings: [{ item_id: 1, rating }] })), WRONG_DATA_TYPE, `rating ${JSON.stringify(rating)}`);
  }
  t.same(errorOf(await sessionReco({ ratings: [5] })), WRONG_DATA_TYPE, 'a rating that is not an object');
  t.same(errorOf(await sessionReco({ interactions: [{ item_id: 1 }] })), WRONG_DATA_TYPE, 'an interaction without a type');
  t.same(
    errorOf(await sessionReco({ ratings: [{ item_id: 1, rating: 9 }], exclude_rated_items: 'maybe' })),
    WRONG_DATA_TYPE,
    'exclude_rated_items: maybe (a body field of the wrong type)',
  );
  t.same(errorOf(await userReco(uid(0), { exclude_rated_items: 'maybe' })), WRONG_PARAMETER, 'user exclude_rated_items=maybe');
});

// ---- roles --------------------------------------------------------------------------------------------------

t.test('roles: root, manager, backend, frontend on all three; demo_viewer refused', async (t) => {
  const expected = itemsOf(t, await itemReco(6), 'backend item');
  const expectedUser = itemsOf(t, await userReco(uid(3)), 'backend user');
  const expectedSession = itemsOf(t, await sessionReco({ ratings: [{ item_id: 28, rating: 9 }] }), 'backend session');
  for (const role of ['root', 'manager', 'frontend']) {
    // A frontend token asks for its own user (the next test).
    const tok = role === 'frontend' ? await frontendToken(uid(3)) : await tokenFor(api, root, role, db);
    t.strictSame(itemsOf(t, await itemReco(6, {}, tok), `${role} item`), expected, `${role}: item-to-items`);
    t.strictSame(itemsOf(t, await userReco(uid(3), {}, tok), `${role} user`), expectedUser, `${role}: user-to-items`);
    t.strictSame(
      itemsOf(t, await sessionReco({ ratings: [{ item_id: 28, rating: 9 }] }, tok), `${role} session`),
      expectedSession,
      `${role}: session`,
    );
  }
  const viewer = await tokenFor(api, root, 'demo_viewer', db);
  t.same(errorOf(await itemReco(6, {}, viewer)), INCORRECT_ROLE, 'demo_viewer item-to-items');
  t.same(errorOf(await userReco(uid(3), {}, viewer)), INCORRECT_ROLE, 'demo_viewer user-to-items');
  t.same(errorOf(await sessionReco({}, viewer)), INCORRECT_ROLE, 'demo_viewer session');
  const r = await api.get('recommendation/items/6/items/');
  t.equal(r.status, 401, `no token: ${why(r, 401)}`);
});

t.test('a frontend token with frontend_user_id asks for its own user only; ~me names it', async (t) => {
  const mine = await frontendToken(uid(7));
  const expected = itemsOf(t, await userReco(uid(7), { exclude_rated_items: true }), 'backend for user 7');
  t.strictSame(itemsOf(t, await userReco('~me', { exclude_rated_items: true }, mine), '~me'), expected, '~me is user 7');
  t.strictSame(itemsOf(t, await userReco(uid(7), { exclude_rated_items: true }, mine), 'own id'), expected, 'its own id');
  t.same(errorOf(await userReco(uid(8), {}, mine)), NOT_OWN_USER, 'another user');
  t.same(errorOf(await userReco(uid(999), {}, mine)), NOT_OWN_USER, 'another, unknown user');
  t.equal((await itemReco(1, {}, mine)).status, 200, 'item-to-items');
  t.equal((await sessionReco({ ratings: [{ item_id: 1, rating: 9 }] }, mine)).status, 200, 'sessions');

  const noUser = await frontendToken();
  t.same(errorOf(await userReco(uid(8), {}, noUser)), NOT_OWN_USER, 'a frontend without frontend_user_id asks for no user');
  t.equal((await itemReco(1, {}, noUser)).status, 200, 'but for items like an item');
  t.equal((await sessionReco({ ratings: [{ item_id: 1, rating: 9 }] }, noUser)).status, 200, 'and for sessions');
  t.same(errorOf(await userReco('~me', {}, noUser)), NOT_OWN_USER, '~me without frontend_user_id');
  t.same(errorOf(await userReco('~me', {})), NOT_OWN_USER, '~me with a backend token');
});

// ---- pipelining ---------------------------------------------------------------------------------------------

t.test('HTTP pipelining: 10 item-to-items requests in one write get 10 complete 200 answers, in order', async (t) => {
  const items = range(1, 11).map((i) => i * 4 - 3); // 1, 5, 9, ..., 37
  const variants: [string, string][] = [
    ['no filter', 'amt=5'],
    ['genre:eq:b', 'amt=5&filters=genre%3Aeq%3Ab'],
  ];
  for (const [what, query] of variants) {
    // Warm-up over plain HTTP: the model, definitions and view are held; and the expected answers.
    const expected: unknown[] = [];
    for (const i of items) {
      const r = await api.get(`recommendation/items/${i}/items/`, { token, query });
      t.equal(r.status, 200, `${what}: warm-up item ${i}: ${why(r, 200)}`);
      expected.push(withoutId(r.body));
    }
    const { responses, closedEarly } = await pipelined(items.map((i) => `recommendation/items/${i}/items/?${query}`));
    t.equal(responses.length, 10, `${what}: 10 complete responses`);
    t.notOk(closedEarly, `${what}: the socket stayed open until all came back`);
    t.strictSame(
      responses.map((r) => r.status),
      Array(10).fill(200),
      `${what}: all 200`,
    );
    t.strictSame(
      responses.map((r) => withoutId(r.body)),
      expected,
      `${what}: the same answers as over plain HTTP, in request order`,
    );
  }
});

t.test('sessions with nothing rated start from the users sharing their user properties', async (t) => {
  const users = range(0, 60).map((u) => ({ user_id: uid(u), age: u < 30 ? 20 : 60 }));
  t.equal((await api.put('users-bulk/properties/', { users }, { token })).status, 200, 'A-lovers are 20, B-lovers 60');
  const young = itemsOf(t, await sessionReco({ user_properties: { age: 20 } }), 'age 20');
  t.ok(count(young, isA) >= 8, `age 20 → A items: ${JSON.stringify(young)}`);
  const old = itemsOf(t, await sessionReco({ user_properties: { age: 60 } }), 'age 60');
  t.ok(count(old, isB) >= 8, `age 60 → B items: ${JSON.stringify(old)}`);
  const nobody = await sessionReco({ user_properties: { age: 99 } });
  t.equal(nobody.status, 200);
  t.ok(hasWarning(nobody, 'popular'), 'no user of that age: popular items, with a warning');
  const rated = itemsOf(
    t,
    await sessionReco({
      user_properties: { age: 20 },
      ratings: [
        { item_id: 25, rating: 10 },
        { item_id: 30, rating: 9 },
      ],
    }),
    'age 20 with B ratings',
  );
  t.ok(count(rated, isB) >= 8, `ratings win over properties: ${JSON.stringify(rated)}`);
});

t.test('a filter follows catalogue changes: its cached verdicts are dropped when an item changes', async (t) => {
  const query = { filters: 'genre:eq:b', amt: 64 };
  const before = itemsOf(t, await itemReco(2, query), 'genre:eq:b before', 64);
  t.strictSame(
    [...before].sort((x, y) => x - y),
    B,
    'the 20 B items',
  );
  t.equal((await api.patch('items/40/properties/', { item: { genre: 'a' } }, { token })).status, 200, 'item 40 becomes an A item');
  const moved = itemsOf(t, await itemReco(2, query), 'genre:eq:b after the change', 64);
  t.strictSame(
    [...moved].sort((x, y) => x - y),
    range(21, 40),
    'item 40 no longer passes',
  );
  t.equal((await api.patch('items/40/properties/', { item: { genre: 'b' } }, { token })).status, 200, 'and back');
  const back = itemsOf(t, await itemReco(2, query), 'genre:eq:b restored', 64);
  t.strictSame(back, before, 'the same list as at first');
});

t.test('a filter follows property writes and definitions: the next filtered answer sees each change', async (t) => {
  // Every request repeats the same filters, which the service shares (with their compiled shape)
  // between requests: each write must still show in the very next answer.
  const query = { filters: ['shelf:eq:top', 'genre:eq:b'], amt: 64 };
  const shelved = async (what: string) => itemsOf(t, await itemReco(2, query), what, 64);
  t.equal(
    (await api.post('items-properties/', { property_name: 'shelf', value_type: 'unicode16' }, { token })).status,
    204,
    'a new property',
  );
  t.strictSame(await shelved('no item on the shelf'), [], 'no item has a value yet');
  t.equal((await api.patch('items/30/properties/', { item: { shelf: 'top' } }, { token })).status, 200);
  t.strictSame(await shelved('item 30 shelved'), [30], 'item 30 passes at once');
  t.equal((await api.patch('items/31/properties/', { item: { shelf: 'top' } }, { token })).status, 200);
  t.strictSame(
    [...(await shelved('items 30, 31 shelved'))].sort((x, y) => x - y),
    [30, 31],
    'then item 31 too',
  );
  t.equal((await api.patch('items/30/properties/', { item: { genre: 'a' } }, { token })).status, 200);
  t.strictSame(await shelved('item 30 now genre a'), [31], 'the other filter follows its property as well');
  const paged = await itemReco(2, { ...query, amt: 1 });
  t.strictSame(paged.body.items_id, [31], 'a page of one');
  t.equal((await api.patch('items/30/properties/', { item: { genre: 'b' } }, { token })).status, 200);
  t.strictSame(
    [...(await shelved('item 30 genre b again'))].sort((x, y) => x - y),
    [30, 31],
    'and back',
  );
  t.equal((await api.delete('items-properties/shelf/', undefined, { token })).status, 204, 'the property deleted');
  t.same(errorOf(await itemReco(2, query)), ITEM_PROPERTY_NOT_FOUND, 'the same filters now name a property that is gone');
});

t.test('HTTP pipelining: user-to-items answers in the same tick once the user is warm', async (t) => {
  const users = range(0, 10).map((u) => uid(u * 6));
  const query = 'amt=5&exclude_rated_items=true';
  const expected: unknown[] = [];
  for (const u of users) {
    const r = await api.get(`recommendation/users/${u}/items/`, { token, query });
    t.equal(r.status, 200, `warm-up ${u}: ${why(r, 200)}`);
    expected.push(withoutId(r.body));
  }
  const { responses, closedEarly } = await pipelined(users.map((u) => `recommendation/users/${u}/items/?${query}`));
  t.equal(responses.length, 10, '10 complete responses');
  t.notOk(closedEarly, 'the socket stayed open until all came back');
  t.strictSame(
    responses.map((r) => withoutId(r.body)),
    expected,
    'the same answers as over plain HTTP, in request order',
  );
});

t.test('the model served throughout is the one trained at the start', async (t) => {
  t.strictSame(
    (await models(token)).map((m) => m.model_id),
    [modelId],
    'one model, never replaced',
  );
  t.equal(await statusOf(token), 'ready');
});
