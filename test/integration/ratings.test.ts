// Explicit ratings: ratings-bulk/ (PUT, GET with cursors) and users/<user_id>/ratings/ (PUT, GET,
// DELETE, one rating PUT/DELETE), value and identifier checks, all-or-nothing writes, ratings of
// users and items without properties, the rating count and the ml_model_retrain trigger, the ratings
// log, roles, frontend user ids and `~me`, DELETE users/<id>/*/ and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import type { Res } from '../helpers/api.js';
import {
  BAD_ITEM,
  BAD_USER,
  DATABASE_NOT_FOUND,
  freshDatabase,
  hasWarning,
  INCORRECT_ROLE,
  NOT_OWN_USER,
  range,
  ratingCount,
  uid,
  why,
  WRONG_DATA_TYPE,
  WRONG_PARAMETER,
  type Id,
} from '../helpers/feedback.js';
import { errorOf, frontendToken as frontendTokenOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

// No trainer picks tasks up here, so the queueing rules are seen alone (test/integration/training.test.ts runs them).
const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);
const fresh = (extra: Record<string, unknown> = {}) => freshDatabase(api, root, extra);
const count = (db: string) => ratingCount(redis, db);

interface Rating {
  user_id: Id;
  item_id: Id;
  rating: number;
  timestamp: number;
}
interface UserRating {
  item_id: Id;
  rating: number;
  timestamp: number;
}

// A frontend individual account logged in on db, carrying frontend_user_id when given.
const frontendToken = (db: string, fuid?: Id) => frontendTokenOf(api, root, db, fuid);

const logLength = (db: string) => redis.xlen(keys.ratingsLog(db));

// The entries of the ratings log, oldest first: text fields as strings, `r` as bytes.
async function logEntries(db: string): Promise<{ fields: Record<string, string>; r?: Buffer }[]> {
  const raw = await redis.xrangeBuffer(keys.ratingsLog(db), '-', '+');
  return raw.map(([, flat]) => {
    const fields: Record<string, string> = {};
    let r: Buffer | undefined;
    for (let k = 0; k + 1 < flat.length; k += 2) {
      const name = flat[k]!.toString();
      if (name === 'r') r = flat[k + 1]!;
      else fields[name] = flat[k + 1]!.toString();
    }
    return { fields, r };
  });
}

async function putBulk(token: string, ratings: unknown[]): Promise<Res> {
  return api.put('ratings-bulk/', { ratings }, { token });
}

// Follows next_cursor from the first page until has_next is false; every page must answer 200.
async function walk(token: string, amt?: number): Promise<{ ratings: Rating[]; pages: any[] }> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const query = [amt === undefined ? undefined : `amt=${amt}`, cursor === undefined ? undefined : `cursor=${encodeURIComponent(cursor)}`]
      .filter(Boolean)
      .join('&');
    const r = await api.get('ratings-bulk/', { token, query: query || undefined });
    if (r.status !== 200) throw new Error(`ratings-bulk/ page ${pages.length + 1}: ${r.status} ${r.text}`);
    pages.push(r.body);
    if (!r.body.has_next) break;
    if (typeof r.body.next_cursor !== 'string' || r.body.next_cursor === '') throw new Error('has_next without next_cursor');
    cursor = r.body.next_cursor;
  }
  return { ratings: pages.flatMap((p) => p.ratings), pages };
}

async function userRatings(token: string, user: Id, query?: string): Promise<Res> {
  return api.get(`users/${encodeURIComponent(String(user))}/ratings/`, { token, query });
}

// Everything the database holds, by walking ratings-bulk/ with a large page.
async function everything(token: string): Promise<Rating[]> {
  return (await walk(token, 16384)).ratings;
}

t.test('PUT ratings-bulk/ stores ratings; GET ratings-bulk/ lists users in first-seen order, each oldest first', async (t) => {
  const { db, token } = await fresh();
  // Users first seen: uid(9), uid(1), uid(5) (not their id order); items first seen: 30, 20, 10.
  const sent: Rating[] = [
    { user_id: uid(9), item_id: 30, rating: 7.5, timestamp: 1_700_000_000.25 },
    { user_id: uid(1), item_id: 20, rating: 1, timestamp: 1_600_000_000 },
    { user_id: uid(9), item_id: 10, rating: 10, timestamp: 1_700_000_001 },
    { user_id: uid(5), item_id: 10, rating: 3, timestamp: -1_000 },
    { user_id: uid(1), item_id: 30, rating: 2.125, timestamp: 0 },
    { user_id: uid(9), item_id: 20, rating: 4, timestamp: 3_500_000_000 },
  ];
  const r = await putBulk(token, sent);
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(r.body, { warnings: [] });
  t.equal(await count(db), 6, 'the count key counts the six pairs');
  t.equal(await redis.type(keys.ratingsCount(db)), 'string', 'the count key is a Redis string');

  const page = await api.get('ratings-bulk/', { token });
  t.equal(page.status, 200, why(page, 200));
  const at = (u: number, i: number) => sent.find((s) => s.user_id === uid(u) && s.item_id === i)!;
  t.strictSame(page.body, {
    ratings: [at(9, 30), at(9, 10), at(9, 20), at(1, 30), at(1, 20), at(5, 10)],
    has_next: false,
    next_cursor: '',
    warnings: [],
  });
});

t.test('ids are stored canonically: uint32 items sent as decimal strings come back as numbers, uuids lower-case', async (t) => {
  const { token } = await fresh();
  const upper = uid(3).toUpperCase();
  const r = await putBulk(token, [
    { user_id: upper, item_id: '42', rating: 6, timestamp: 100 },
    { user_id: uid(3), item_id: 43, rating: 7, timestamp: 101 },
  ]);
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(await everything(token), [
    { user_id: uid(3), item_id: 42, rating: 6, timestamp: 100 },
    { user_id: uid(3), item_id: 43, rating: 7, timestamp: 101 },
  ]);
  // The upper-case path names the same user.
  const mine = await userRatings(token, upper);
  t.equal(mine.status, 200, why(mine, 200));
  t.strictSame(mine.body.user_ratings, [
    { item_id: 43, rating: 7, timestamp: 101 },
    { item_id: 42, rating: 6, timestamp: 100 },
  ]);
});

t.test('putting the same (user, item) again replaces it: count unchanged, the new value and timestamp are listed', async (t) => {
  const { db, token } = await fresh();
  t.equal(
    (
      await putBulk(token, [
        { user_id: uid(1), item_id: 1, rating: 2, timestamp: 1000 },
        { user_id: uid(1), item_id: 2, rating: 3, timestamp: 1001 },
      ])
    ).status,
    200,
  );
  t.equal(await count(db), 2);

  const again = await putBulk(token, [{ user_id: uid(1), item_id: 1, rating: 9, timestamp: 5000 }]);
  t.equal(again.status, 200, why(again, 200));
  t.equal(await count(db), 2, 'a replaced rating is not counted again');
  t.strictSame(
    await everything(token),
    [
      { user_id: uid(1), item_id: 2, rating: 3, timestamp: 1001 },
      { user_id: uid(1), item_id: 1, rating: 9, timestamp: 5000 },
    ],
    'oldest first',
  );

  // Through the per-user routes too.
  t.equal((await api.put(`users/${uid(1)}/ratings/2/`, { rating: 8.5, timestamp: 6000 }, { token })).status, 204);
  t.equal((await api.put(`users/${uid(1)}/ratings/`, { ratings: [{ item_id: 1, rating: 1, timestamp: 7000 }] }, { token })).status, 200);
  t.equal(await count(db), 2);
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, [
    { item_id: 1, rating: 1, timestamp: 7000 },
    { item_id: 2, rating: 8.5, timestamp: 6000 },
  ]);

  // The same pair twice in one request: one rating, the later row wins.
  const twice = await putBulk(token, [
    { user_id: uid(2), item_id: 5, rating: 4, timestamp: 10 },
    { user_id: uid(2), item_id: 5, rating: 6, timestamp: 20 },
  ]);
  t.equal(twice.status, 200, why(twice, 200));
  t.equal(await count(db), 3);
  t.strictSame((await userRatings(token, uid(2))).body.user_ratings, [{ item_id: 5, rating: 6, timestamp: 20 }]);
});

t.test('a rating without timestamp (or with null) is stamped with the current time', async (t) => {
  const { token } = await fresh();
  const before = Date.now() / 1000;
  t.equal(
    (
      await putBulk(token, [
        { user_id: uid(1), item_id: 1, rating: 5 },
        { user_id: uid(1), item_id: 2, rating: 5, timestamp: null },
      ])
    ).status,
    200,
  );
  t.equal((await api.put(`users/${uid(1)}/ratings/`, { ratings: [{ item_id: 3, rating: 5 }] }, { token })).status, 200);
  t.equal((await api.put(`users/${uid(1)}/ratings/4/`, { rating: 5 }, { token })).status, 204);
  const after = Date.now() / 1000;
  const all = await everything(token);
  t.equal(all.length, 4);
  for (const r of all) {
    t.type(r.timestamp, 'number');
    t.ok(r.timestamp >= before - 1 && r.timestamp <= after + 1, `item ${r.item_id}: timestamp ${r.timestamp} within [${before}, ${after}]`);
  }
});

t.test('ratings and timestamps are checked: WRONG_DATA_TYPE naming the row and field; a rejected request stores nothing', async (t) => {
  const { db, token } = await fresh();
  const good = (n: number) => ({ user_id: uid(n), item_id: n + 1, rating: 5, timestamp: 1000 + n });
  const badRows: [string, Record<string, unknown>, string][] = [
    ['rating 0', { ...good(2), rating: 0 }, 'ratings[2].rating'],
    ['rating 0.99', { ...good(2), rating: 0.99 }, 'ratings[2].rating'],
    ['rating 10.01', { ...good(2), rating: 10.01 }, 'ratings[2].rating'],
    ['rating 11', { ...good(2), rating: 11 }, 'ratings[2].rating'],
    ['rating -5', { ...good(2), rating: -5 }, 'ratings[2].rating'],
    ['rating as a string', { ...good(2), rating: '5' }, 'ratings[2].rating'],
    ['rating true', { ...good(2), rating: true }, 'ratings[2].rating'],
    ['rating as a list', { ...good(2), rating: [5] }, 'ratings[2].rating'],
    ['rating null', { ...good(2), rating: null }, 'ratings[2].rating'],
    ['no rating', { user_id: uid(2), item_id: 3 }, 'ratings[2].rating'],
    ['no user_id', { item_id: 3, rating: 5 }, 'ratings[2].user_id'],
    ['no item_id', { user_id: uid(2), rating: 5 }, 'ratings[2].item_id'],
    ['timestamp below the minimum', { ...good(2), timestamp: -150000000001 }, 'ratings[2].timestamp'],
    ['timestamp above the maximum', { ...good(2), timestamp: 3500000001 }, 'ratings[2].timestamp'],
    ['timestamp as a string', { ...good(2), timestamp: '1000' }, 'ratings[2].timestamp'],
    ['timestamp false', { ...good(2), timestamp: false }, 'ratings[2].timestamp'],
  ];
  for (const [what, row, field] of badRows) {
    const r = await putBulk(token, [good(0), good(1), row, good(3)]);
    t.same(errorOf(r), WRONG_DATA_TYPE, what);
    t.equal(r.body?.error_data?.field, field, `${what}: error_data.field`);
  }
  for (const row of ['x', null, [1, 2], 5]) {
    const r = await putBulk(token, [good(0), row]);
    t.same(errorOf(r), WRONG_DATA_TYPE, `row ${JSON.stringify(row)}`);
    t.equal(r.body?.error_data?.field, 'ratings[1]');
  }
  for (const body of [{}, { ratings: 'x' }, { ratings: { user_id: uid(1), item_id: 1, rating: 5 } }]) {
    t.same(errorOf(await api.put('ratings-bulk/', body, { token })), WRONG_DATA_TYPE, `body ${JSON.stringify(body)}`);
  }
  // Per-user routes check the same way.
  const per = await api.put(
    `users/${uid(1)}/ratings/`,
    {
      ratings: [
        { item_id: 1, rating: 5 },
        { item_id: 2, rating: 10.5 },
      ],
    },
    { token },
  );
  t.same(errorOf(per), WRONG_DATA_TYPE);
  t.equal(per.body?.error_data?.field, 'ratings[1].rating');
  const perTs = await api.put(`users/${uid(1)}/ratings/`, { ratings: [{ item_id: 1, rating: 5, timestamp: 4e9 }] }, { token });
  t.equal(perTs.body?.error_data?.field, 'ratings[0].timestamp');
  for (const [body, field] of [
    [{ rating: 0 }, 'rating'],
    [{ rating: '7' }, 'rating'],
    [{ rating: 5, timestamp: 3500000000.5 }, 'timestamp'],
    [{ rating: 5, timestamp: 'now' }, 'timestamp'],
    [{}, 'rating'],
  ] as const) {
    const r = await api.put(`users/${uid(1)}/ratings/7/`, body, { token });
    t.same(errorOf(r), WRONG_DATA_TYPE, `one rating ${JSON.stringify(body)}`);
    t.equal(r.body?.error_data?.field, field);
  }

  t.equal(await count(db), 0, 'nothing counted');
  t.equal(await redis.exists(keys.ratingsCount(db)), 0, 'no count key');
  t.equal(await logLength(db), 0, 'nothing logged');
  t.strictSame(await everything(token), [], 'nothing stored');
  t.equal(await redis.hlen(keys.entityIndex(db, 'user')), 0, 'no user got an index');
  t.equal(await redis.hlen(keys.entityIndex(db, 'item')), 0, 'no item got an index');

  // The bounds themselves are accepted.
  const edges = [
    { user_id: uid(1), item_id: 1, rating: 1, timestamp: -150000000000 },
    { user_id: uid(1), item_id: 2, rating: 10, timestamp: 3500000000 },
    { user_id: uid(1), item_id: 3, rating: 5.55, timestamp: 0 },
  ];
  const ok = await putBulk(token, edges);
  t.equal(ok.status, 200, why(ok, 200));
  t.strictSame(await everything(token), [edges[0], edges[2], edges[1]], 'oldest first');
  t.equal(await count(db), 3);
});

t.test('uint32 items / uuid users: ids of the wrong type or 0 are refused in bodies and paths; nothing stored', async (t) => {
  const { db, token } = await fresh();
  const row = { user_id: uid(1), item_id: 1, rating: 5, timestamp: 10 };
  for (const bad of ['abc', -1, 1.5, 4294967296, '12x', uid(1), 0, '0', '', true]) {
    t.same(errorOf(await putBulk(token, [row, { ...row, item_id: bad }])), BAD_ITEM, `item_id ${JSON.stringify(bad)}`);
    t.same(
      errorOf(await api.put(`users/${uid(1)}/ratings/`, { ratings: [{ item_id: bad, rating: 5 }] }, { token })),
      BAD_ITEM,
      `per-user item_id ${JSON.stringify(bad)}`,
    );
  }
  for (const bad of ['not-a-uuid', 5, '00000000-0000-4000-8000-00000000000g', '00000000000040008000000000000001', '']) {
    t.same(errorOf(await putBulk(token, [row, { ...row, user_id: bad }])), BAD_USER, `user_id ${JSON.stringify(bad)}`);
  }
  for (const bad of ['abc', '0', '-1', '4294967296']) {
    t.same(errorOf(await api.put(`users/${uid(1)}/ratings/${bad}/`, { rating: 5 }, { token })), BAD_ITEM, `path item ${bad}`);
  }
  for (const bad of ['not-a-uuid', '12']) {
    t.same(
      errorOf(await api.put(`users/${bad}/ratings/`, { ratings: [{ item_id: 1, rating: 5 }] }, { token })),
      BAD_USER,
      `PUT path user ${bad}`,
    );
    t.same(errorOf(await api.put(`users/${bad}/ratings/1/`, { rating: 5 }, { token })), BAD_USER, `PUT one, path user ${bad}`);
    t.same(errorOf(await userRatings(token, bad)), BAD_USER, `GET path user ${bad}`);
    t.same(errorOf(await api.delete(`users/${bad}/ratings/`, undefined, { token })), BAD_USER, `DELETE path user ${bad}`);
  }
  t.same(errorOf(await api.delete(`users/${uid(1)}/ratings/abc/`, undefined, { token })), BAD_ITEM, 'DELETE one, path item abc');
  t.equal(await count(db), 0);
  t.equal(await logLength(db), 0);
  t.strictSame(await everything(token), []);
});

t.test('urlsafe users: urlsafe ids are accepted as given; others are INCORRECT_USER_ID_TYPE', async (t) => {
  const { db, token } = await fresh({ user_id_type: 'urlsafe' });
  const long = 'a'.repeat(64);
  const sent: Rating[] = [
    { user_id: 'Bob_2-x', item_id: 4, rating: 3, timestamp: 40 },
    { user_id: 'alice', item_id: 4, rating: 8, timestamp: 41 },
    { user_id: long, item_id: 9, rating: 2, timestamp: 42 },
    { user_id: 'alice', item_id: 9, rating: 6, timestamp: 43 },
  ];
  const r = await putBulk(token, sent);
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(await everything(token), [sent[0], sent[1], sent[3], sent[2]], 'users in first-seen order, case kept');
  t.strictSame((await userRatings(token, 'alice')).body.user_ratings, [
    { item_id: 9, rating: 6, timestamp: 43 },
    { item_id: 4, rating: 8, timestamp: 41 },
  ]);
  t.strictSame((await userRatings(token, 'ALICE')).body.user_ratings, [], 'urlsafe ids are case-sensitive');

  const row = { user_id: 'carol', item_id: 1, rating: 5 };
  for (const bad of ['a b', 'a.b', 'é', 'a'.repeat(65), 5, '', 'x/y']) {
    t.same(errorOf(await putBulk(token, [row, { ...row, user_id: bad }])), BAD_USER, `user_id ${JSON.stringify(bad)}`);
  }
  t.same(errorOf(await api.put('users/a.b/ratings/', { ratings: [{ item_id: 1, rating: 5 }] }, { token })), BAD_USER, 'path user a.b');
  t.same(errorOf(await api.put('users/carol/ratings/x/', { rating: 5 }, { token })), BAD_ITEM, 'path item x');
  t.equal(await count(db), 4);
  t.equal(await logLength(db), 1);
});

t.test('unknown row fields are accepted with a warning naming them', async (t) => {
  const { token } = await fresh();
  const r = await putBulk(token, [
    { user_id: uid(1), item_id: 1, rating: 5, timestamp: 10, foo: 1 },
    { user_id: uid(1), item_id: 2, rating: 6, timestamp: 11, Bar: 'x' },
  ]);
  t.equal(r.status, 200, why(r, 200));
  t.ok(hasWarning(r, 'foo', 'Bar'), `a warning names foo and Bar: ${JSON.stringify(r.body.warnings)}`);
  t.strictSame(await everything(token), [
    { user_id: uid(1), item_id: 1, rating: 5, timestamp: 10 },
    { user_id: uid(1), item_id: 2, rating: 6, timestamp: 11 },
  ]);

  const clean = await putBulk(token, [{ user_id: uid(1), item_id: 3, rating: 5, timestamp: 12 }]);
  t.strictSame(clean.body.warnings, [], 'no warning without unknown fields');

  // On the per-user route a row's user_id is not used (the path names the user): it is named too.
  const per = await api.put(
    `users/${uid(2)}/ratings/`,
    { ratings: [{ item_id: 1, rating: 4, timestamp: 20, user_id: uid(3), extra: true }] },
    { token },
  );
  t.equal(per.status, 200, why(per, 200));
  t.ok(hasWarning(per, 'user_id', 'extra'), `a warning names user_id and extra: ${JSON.stringify(per.body.warnings)}`);
  t.strictSame((await userRatings(token, uid(2))).body.user_ratings, [{ item_id: 1, rating: 4, timestamp: 20 }]);
  t.strictSame((await userRatings(token, uid(3))).body.user_ratings, [], "the row's user_id was not used");
});

t.test('ratings may name users and items without properties: property listings leave them out, rating listings show them', async (t) => {
  const { token } = await fresh();
  const r = await putBulk(token, [{ user_id: uid(1), item_id: 7, rating: 5, timestamp: 10 }]);
  t.equal(r.status, 200, why(r, 200));

  const items = await api.post('items-bulk/properties/list/', { items_id: [7] }, { token });
  t.equal(items.status, 200, why(items, 200));
  t.strictSame(items.body.items, [], 'the rated item has no properties to list');
  const users = await api.post('users-bulk/properties/list/', { users_id: [uid(1)] }, { token });
  t.equal(users.status, 200, why(users, 200));
  t.strictSame(users.body.users, []);
  t.equal(errorOf(await api.get('items/7/properties/', { token })).name, 'ITEM_NOT_FOUND');
  t.equal(errorOf(await api.get(`users/${uid(1)}/properties/`, { token })).name, 'USER_NOT_FOUND');
  const itemPage = await api.get('items-bulk/properties/', { token });
  t.equal(itemPage.status, 200, why(itemPage, 200));
  t.strictSame(itemPage.body.items, []);
  const userPage = await api.get('users-bulk/properties/', { token });
  t.equal(userPage.status, 200, why(userPage, 200));
  t.strictSame(userPage.body.users, []);

  t.strictSame(await everything(token), [{ user_id: uid(1), item_id: 7, rating: 5, timestamp: 10 }], 'the rating is listed');
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, [{ item_id: 7, rating: 5, timestamp: 10 }]);

  // Writing the item later makes it exist; its rating is unchanged.
  t.equal((await api.put('items/7/properties/', { item: {} }, { token })).status, 200);
  t.strictSame((await api.post('items-bulk/properties/list/', { items_id: [7] }, { token })).body.items, [{ item_id: 7 }]);
  t.strictSame((await api.get('items-bulk/properties/', { token })).body.items, [{ item_id: 7 }]);
  t.strictSame(await everything(token), [{ user_id: uid(1), item_id: 7, rating: 5, timestamp: 10 }]);
});

t.test('a user whose properties were written before its ratings keeps its earlier place in the walk', async (t) => {
  const { token } = await fresh();
  // uid(8) gets its dense index from a property write, before any rating.
  t.equal((await api.put(`users/${uid(8)}/properties/`, { user: {} }, { token })).status, 200);
  const r = await putBulk(token, [
    { user_id: uid(2), item_id: 1, rating: 5, timestamp: 1 },
    { user_id: uid(8), item_id: 1, rating: 6, timestamp: 2 },
  ]);
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(
    (await everything(token)).map((x) => x.user_id),
    [uid(8), uid(2)],
  );
});

t.test('PUT users/<u>/ratings/ and GET users/<u>/ratings/: newest first, amt and page', async (t) => {
  const { db, token } = await fresh();
  const stamps = [500, 100, 900, 300, 700];
  const r = await api.put(
    `users/${uid(1)}/ratings/`,
    { ratings: stamps.map((ts, k) => ({ item_id: k + 1, rating: k + 1, timestamp: ts })) },
    { token },
  );
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(r.body, { warnings: [] });
  t.equal(await count(db), 5);
  // Another user's ratings do not show.
  t.equal((await putBulk(token, [{ user_id: uid(2), item_id: 1, rating: 9, timestamp: 1000 }])).status, 200);

  const newest = [
    { item_id: 3, rating: 3, timestamp: 900 },
    { item_id: 5, rating: 5, timestamp: 700 },
    { item_id: 1, rating: 1, timestamp: 500 },
    { item_id: 4, rating: 4, timestamp: 300 },
    { item_id: 2, rating: 2, timestamp: 100 },
  ];
  const all = await userRatings(token, uid(1));
  t.equal(all.status, 200, why(all, 200));
  t.strictSame(all.body, { user_ratings: newest, has_next: false, warnings: [] });

  const p1 = await userRatings(token, uid(1), 'amt=2');
  t.strictSame([p1.body.user_ratings, p1.body.has_next], [newest.slice(0, 2), true], 'page 1 (default)');
  const p2 = await userRatings(token, uid(1), 'amt=2&page=2');
  t.strictSame([p2.body.user_ratings, p2.body.has_next], [newest.slice(2, 4), true], 'page 2');
  const p3 = await userRatings(token, uid(1), 'amt=2&page=3');
  t.strictSame([p3.body.user_ratings, p3.body.has_next], [newest.slice(4), false], 'page 3');
  const p4 = await userRatings(token, uid(1), 'amt=2&page=4');
  t.strictSame([p4.body.user_ratings, p4.body.has_next], [[], false], 'past the end');
  const exact = await userRatings(token, uid(1), 'amt=5');
  t.strictSame([exact.body.user_ratings.length, exact.body.has_next], [5, false], 'a page holding exactly the rest');

  const unknown = await userRatings(token, uid(99));
  t.equal(unknown.status, 200, why(unknown, 200));
  t.strictSame(unknown.body, { user_ratings: [], has_next: false, warnings: [] }, 'an unknown user has no ratings');

  for (const q of ['amt=0', 'amt=16385', 'amt=abc', 'page=0', 'page=-1', 'amt=1.5']) {
    t.same(errorOf(await userRatings(token, uid(1), q)), WRONG_PARAMETER, q);
  }
  t.equal((await userRatings(token, uid(1), 'amt=16384')).status, 200);
});

t.test('GET users/<u>/ratings/ answers 300 ratings by default', async (t) => {
  const { token } = await fresh();
  const r = await api.put(
    `users/${uid(1)}/ratings/`,
    { ratings: range(1, 302).map((i) => ({ item_id: i, rating: 5, timestamp: i })) },
    { token },
  );
  t.equal(r.status, 200, why(r, 200));
  const first = await userRatings(token, uid(1));
  t.equal(first.body.user_ratings.length, 300);
  t.equal(first.body.has_next, true);
  t.equal(first.body.user_ratings[0].item_id, 301, 'newest first');
  const second = await userRatings(token, uid(1), 'page=2');
  t.strictSame(second.body.user_ratings, [{ item_id: 1, rating: 5, timestamp: 1 }]);
  t.equal(second.body.has_next, false);
});

t.test('PUT users/<u>/ratings/<i>/ writes one rating; DELETE removes one, or all of the user; counts and log follow', async (t) => {
  const { db, token } = await fresh();
  const one = await api.put(`users/${uid(1)}/ratings/5/`, { rating: 7, timestamp: 50 }, { token });
  t.equal(one.status, 204, why(one, 204));
  t.equal(one.text, '');
  t.equal((await api.put(`users/${uid(1)}/ratings/6/`, { rating: 8, timestamp: 60 }, { token })).status, 204);
  t.equal((await api.put(`users/${uid(1)}/ratings/7/`, { rating: 9, timestamp: 70 }, { token })).status, 204);
  t.equal((await api.put(`users/${uid(2)}/ratings/5/`, { rating: 1, timestamp: 80 }, { token })).status, 204);
  t.equal(await count(db), 4);
  t.equal(await logLength(db), 4, 'one log entry per request');

  const del = await api.delete(`users/${uid(1)}/ratings/6/`, undefined, { token });
  t.equal(del.status, 204, why(del, 204));
  t.equal(await count(db), 3, 'a deleted rating is no longer counted');
  t.equal(await logLength(db), 5);
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, [
    { item_id: 7, rating: 9, timestamp: 70 },
    { item_id: 5, rating: 7, timestamp: 50 },
  ]);

  // Deleting what is not there: 204, nothing counted or logged.
  for (const path of [
    `users/${uid(1)}/ratings/6/`,
    `users/${uid(1)}/ratings/999/`,
    `users/${uid(42)}/ratings/5/`,
    `users/${uid(42)}/ratings/`,
  ]) {
    const r = await api.delete(path, undefined, { token });
    t.equal(r.status, 204, `DELETE ${path}: ${why(r, 204)}`);
  }
  t.equal(await count(db), 3);
  t.equal(await logLength(db), 5, 'deleting nothing logs nothing');

  const all = await api.delete(`users/${uid(1)}/ratings/`, undefined, { token });
  t.equal(all.status, 204, why(all, 204));
  t.equal(await count(db), 1, "the user's two ratings are no longer counted");
  t.equal(await logLength(db), 6);
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, []);
  t.strictSame(await everything(token), [{ user_id: uid(2), item_id: 5, rating: 1, timestamp: 80 }]);

  const ops = (await logEntries(db)).map((e) => e.fields.op);
  t.strictSame(ops, ['put', 'put', 'put', 'put', 'delete', 'delete-user']);

  // A user whose ratings were all deleted can rate again; counted anew.
  t.equal((await api.put(`users/${uid(1)}/ratings/6/`, { rating: 2, timestamp: 90 }, { token })).status, 204);
  t.equal(await count(db), 2);
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, [{ item_id: 6, rating: 2, timestamp: 90 }]);
});

t.test('the ratings log gets one entry per write request, with op=put and every rating of the request', async (t) => {
  const { db, token } = await fresh();
  const rows = range(0, 5).map((k) => ({ user_id: uid(k % 3), item_id: 10 + k, rating: 5, timestamp: k }));
  t.equal((await putBulk(token, rows)).status, 200);
  t.equal(await logLength(db), 1);
  let entries = await logEntries(db);
  t.equal(entries[0]!.fields.op, 'put');
  t.equal(entries[0]!.fields.u!.split(',').length, 3, 'the entry names the three users');
  t.equal(entries[0]!.fields.i!.split(',').length, 5, 'the entry names the five items');
  t.equal(entries[0]!.r?.length, 5 * 24, 'five packed records');

  // A replacing request is logged too; an empty one and a refused one are not.
  t.equal((await putBulk(token, rows.slice(0, 2))).status, 200);
  t.equal(await logLength(db), 2);
  t.equal((await putBulk(token, [])).status, 200);
  t.equal(await logLength(db), 2, 'an empty request writes no entry');
  t.same(errorOf(await putBulk(token, [rows[0], { ...rows[1], rating: 0 }])), WRONG_DATA_TYPE);
  t.equal(await logLength(db), 2, 'a refused request writes no entry');
  t.equal(
    (
      await api.put(
        `users/${uid(0)}/ratings/`,
        {
          ratings: [
            { item_id: 1, rating: 3 },
            { item_id: 2, rating: 4 },
          ],
        },
        { token },
      )
    ).status,
    200,
  );
  t.equal(await logLength(db), 3);
  entries = await logEntries(db);
  t.equal(entries[2]!.fields.op, 'put');
  t.equal(entries[2]!.r?.length, 2 * 24);
});

t.test('the count key counts distinct (user, item) pairs through every kind of write and delete', async (t) => {
  const { db, token } = await fresh();
  t.equal(
    (
      await putBulk(
        token,
        range(0, 30).map((k) => ({ user_id: uid(k % 3), item_id: k + 1, rating: 5 })),
      )
    ).status,
    200,
  );
  t.equal(await count(db), 30);
  t.equal(
    (
      await putBulk(
        token,
        range(0, 40).map((k) => ({ user_id: uid(k % 3), item_id: k + 1, rating: 6 })),
      )
    ).status,
    200,
  );
  t.equal(await count(db), 40, 'ten new pairs, thirty replaced');
  t.equal(
    (
      await api.put(
        `users/${uid(5)}/ratings/`,
        {
          ratings: [
            { item_id: 1, rating: 1 },
            { item_id: 2, rating: 1 },
          ],
        },
        { token },
      )
    ).status,
    200,
  );
  t.equal(await count(db), 42);
  t.equal((await api.delete(`users/${uid(0)}/ratings/1/`, undefined, { token })).status, 204);
  t.equal(await count(db), 41);
  t.equal((await api.delete(`users/${uid(1)}/ratings/`, undefined, { token })).status, 204);
  t.equal(await count(db), 41 - 13, "uid(1)'s thirteen ratings are gone");
  t.equal((await everything(token)).length, await count(db), 'the count matches the ratings listed');
});

t.test('crossing 500 queues an ml_model_retrain task, crossing 1000 while it waits joins it; staying below queues none', async (t) => {
  const { db, token } = await fresh();
  const row = (k: number) => ({ user_id: uid(k % 7), item_id: Math.floor(k / 7) + 1, rating: (k % 10) + 1, timestamp: k });
  const tasks = async () => {
    const r = await api.get('tasks/ml_model_retrain/recents/', { token });
    if (r.status !== 200) throw new Error(`tasks: ${r.text}`);
    return r.body.tasks as any[];
  };

  t.equal((await putBulk(token, range(0, 499).map(row))).status, 200);
  t.equal(await count(db), 499);
  t.strictSame(await tasks(), [], 'no task below 500');
  t.equal((await putBulk(token, [row(0), row(498)])).status, 200, 'replacing ratings');
  t.equal(await count(db), 499);
  t.strictSame(await tasks(), [], 'replacing does not cross the threshold');

  t.equal((await putBulk(token, [row(499)])).status, 200);
  t.equal(await count(db), 500);
  const first = await tasks();
  t.equal(first.length, 1, 'reaching 500 queues a task');
  const task = first[0];
  t.equal(task?.name, 'ml_model_retrain');
  t.equal(task?.status, 'QUEUED');
  t.type(task?.task_id, 'string');
  t.type(task?.start_time, 'number');
  t.ok(Math.abs(task?.start_time - Date.now() / 1000) < 60, 'start_time is now, in seconds');
  t.type(task?.progress, 'string');
  t.ok(task && 'end_time' in task && 'error' in task, 'end_time and error are present');

  t.equal(
    (await api.put(`users/${uid(0)}/ratings/`, { ratings: range(500, 999).map((k) => ({ item_id: 1000 + k, rating: 5 })) }, { token }))
      .status,
    200,
  );
  t.equal(await count(db), 999);
  t.equal((await tasks()).length, 1, 'no new task between 500 and 999');

  t.equal((await api.put(`users/${uid(1)}/ratings/1/`, { rating: 3 }, { token })).status, 204, 'a replaced rating');
  t.equal((await tasks()).length, 1);
  t.equal((await api.put(`users/${uid(0)}/ratings/5000/`, { rating: 3 }, { token })).status, 204);
  t.equal(await count(db), 1000);
  const second = await tasks();
  t.equal(second.length, 1, 'reaching 1000 while the first run waits joins it');
  t.equal(second[0]?.task_id, task?.task_id);
  t.equal(second[0]?.status, 'QUEUED');
  t.match(second[0]?.progress, /1000 ratings/, 'its record names the new threshold');

  // Other task names see none of them.
  t.strictSame((await api.get('tasks/ml_new_items/recents/', { token })).body.tasks, []);
});

t.test(
  'a threshold fires once: falling below and reaching it again queues nothing; one request crossing several names the highest',
  async (t) => {
    const { db, token } = await fresh();
    const tasks = async () => (await api.get('tasks/ml_model_retrain/recents/', { token })).body.tasks as { progress: string }[];
    const rows = (from: number, to: number, user = 0) => range(from, to).map((k) => ({ user_id: uid(user), item_id: k + 1, rating: 5 }));
    t.equal((await putBulk(token, rows(0, 500))).status, 200);
    t.equal((await tasks()).length, 1, 'reaching 500 queues a task');
    t.equal((await api.delete(`users/${uid(0)}/ratings/1/`, undefined, { token })).status, 204);
    t.equal(await count(db), 499);
    t.equal((await putBulk(token, rows(0, 1))).status, 200);
    t.equal(await count(db), 500);
    t.equal((await tasks()).length, 1, 'reaching 500 again queues nothing');
    t.equal((await api.delete(`users/${uid(0)}/ratings/`, undefined, { token })).status, 204);
    t.equal((await putBulk(token, rows(0, 2100, 1))).status, 200, 'one request from 0 to 2100 ratings');
    const all = await tasks();
    t.equal(all.length, 1, 'the request joins the waiting run');
    t.match(all[0]!.progress, /2000 ratings/, 'naming the highest threshold it reached');
  },
);

t.test('equal timestamps in GET users/<u>/ratings/ list the item known last first', async (t) => {
  const { token } = await fresh();
  t.equal(
    (
      await putBulk(
        token,
        [100, 9, 10].map((item) => ({ user_id: uid(3), item_id: item, rating: 5, timestamp: 7 })),
      )
    ).status,
    200,
  );
  t.same(
    (await api.get(`users/${uid(3)}/ratings/`, { token })).body.user_ratings.map((r: UserRating) => r.item_id),
    [10, 9, 100],
  );
});

t.test('roles: root, manager and backend use ratings-bulk/; frontend gets INCORRECT_ROLE', async (t) => {
  const { db, token } = await fresh();
  for (const [n, role] of ['root', 'manager', 'backend'].entries()) {
    const tok = role === 'backend' ? token : await tokenFor(api, root, role, db);
    const put = await putBulk(tok, [{ user_id: uid(n), item_id: n + 1, rating: 5, timestamp: n }]);
    t.equal(put.status, 200, `${role} PUT: ${why(put, 200)}`);
    const get = await api.get('ratings-bulk/', { token: tok });
    t.equal(get.status, 200, `${role} GET: ${why(get, 200)}`);
    t.equal(get.body.ratings.length, n + 1);
  }
  const frontend = await frontendToken(db);
  const before = await logLength(db);
  t.same(errorOf(await putBulk(frontend, [{ user_id: uid(5), item_id: 5, rating: 5 }])), INCORRECT_ROLE, 'frontend PUT ratings-bulk/');
  t.same(errorOf(await api.get('ratings-bulk/', { token: frontend })), INCORRECT_ROLE, 'frontend GET ratings-bulk/');
  t.same(errorOf(await api.delete(`users/${uid(0)}/*/`, undefined, { token: frontend })), INCORRECT_ROLE, 'frontend DELETE users/<u>/*/');
  t.equal(await logLength(db), before);
  t.equal(await count(db), 3);

  // The per-user routes are open to all four roles; a frontend token needs a frontend_user_id for them
  // (a frontend token with one: the next test).
  for (const role of ['root', 'manager']) {
    const tok = await tokenFor(api, root, role, db);
    const u = uid(role.length + 10);
    t.equal(
      (await api.put(`users/${u}/ratings/`, { ratings: [{ item_id: 1, rating: 4, timestamp: 1 }] }, { token: tok })).status,
      200,
      `${role} PUT ratings`,
    );
    t.equal((await api.put(`users/${u}/ratings/2/`, { rating: 6, timestamp: 2 }, { token: tok })).status, 204, `${role} PUT one`);
    t.strictSame(
      (await userRatings(tok, u)).body.user_ratings,
      [
        { item_id: 2, rating: 6, timestamp: 2 },
        { item_id: 1, rating: 4, timestamp: 1 },
      ],
      `${role} GET`,
    );
    t.equal((await api.delete(`users/${u}/ratings/2/`, undefined, { token: tok })).status, 204, `${role} DELETE one`);
    t.equal((await api.delete(`users/${u}/ratings/`, undefined, { token: tok })).status, 204, `${role} DELETE all`);
    t.strictSame((await userRatings(tok, u)).body.user_ratings, []);
  }
  const logBefore = await logLength(db);
  const unbound: [string, () => Promise<Res>][] = [
    ['PUT ratings', () => api.put(`users/${uid(0)}/ratings/`, { ratings: [{ item_id: 1, rating: 4 }] }, { token: frontend })],
    ['PUT one', () => api.put(`users/${uid(0)}/ratings/2/`, { rating: 6 }, { token: frontend })],
    ['GET', () => userRatings(frontend, uid(0))],
    ['DELETE one', () => api.delete(`users/${uid(0)}/ratings/1/`, undefined, { token: frontend })],
    ['DELETE all', () => api.delete(`users/${uid(0)}/ratings/`, undefined, { token: frontend })],
  ];
  for (const [what, call] of unbound) t.same(errorOf(await call()), NOT_OWN_USER, `frontend without frontend_user_id: ${what}`);
  t.equal(await logLength(db), logBefore, 'nothing written');
  t.equal(await count(db), 3);
});

for (const [label, extra, own, other] of [
  ['uuid users', { user_id_type: 'uuid' }, uid(1), uid(2)],
  ['urlsafe users', { user_id_type: 'urlsafe' }, 'me_myself', 'someone-else'],
] as const) {
  t.test(`${label}: a frontend token with frontend_user_id acts only on its own user; ~me names it`, async (t) => {
    const { db, token } = await fresh(extra);
    t.equal((await putBulk(token, [{ user_id: other, item_id: 1, rating: 2, timestamp: 5 }])).status, 200);
    const mine = await frontendToken(db, own);

    const put = await api.put(`users/${own}/ratings/`, { ratings: [{ item_id: 1, rating: 7, timestamp: 10 }] }, { token: mine });
    t.equal(put.status, 200, why(put, 200));
    const viaMe = await api.put('users/~me/ratings/', { ratings: [{ item_id: 2, rating: 8, timestamp: 20 }] }, { token: mine });
    t.equal(viaMe.status, 200, why(viaMe, 200));
    t.equal((await api.put('users/~me/ratings/3/', { rating: 9, timestamp: 30 }, { token: mine })).status, 204);
    const expected = [
      { item_id: 3, rating: 9, timestamp: 30 },
      { item_id: 2, rating: 8, timestamp: 20 },
      { item_id: 1, rating: 7, timestamp: 10 },
    ];
    const got = await userRatings(mine, '~me');
    t.equal(got.status, 200, why(got, 200));
    t.strictSame(got.body.user_ratings, expected, '~me reads the own user');
    t.strictSame((await userRatings(mine, own)).body.user_ratings, expected);
    t.strictSame((await userRatings(token, own)).body.user_ratings, expected, 'written under the own user');
    if (label === 'uuid users') {
      t.equal((await userRatings(mine, String(own).toUpperCase())).status, 200, 'the own uuid in upper case is the own user');
    }

    // Another user: refused on every per-user route, and nothing changes.
    const logBefore = await logLength(db);
    const calls: [string, () => Promise<Res>][] = [
      ['PUT ratings', () => api.put(`users/${other}/ratings/`, { ratings: [{ item_id: 1, rating: 9 }] }, { token: mine })],
      ['GET ratings', () => userRatings(mine, other)],
      ['DELETE ratings', () => api.delete(`users/${other}/ratings/`, undefined, { token: mine })],
      ['PUT one', () => api.put(`users/${other}/ratings/1/`, { rating: 9 }, { token: mine })],
      ['DELETE one', () => api.delete(`users/${other}/ratings/1/`, undefined, { token: mine })],
    ];
    for (const [what, call] of calls) t.same(errorOf(await call()), NOT_OWN_USER, what);
    t.equal(await logLength(db), logBefore);
    t.strictSame((await userRatings(token, other)).body.user_ratings, [{ item_id: 1, rating: 2, timestamp: 5 }]);

    // ~me deletes the own ratings only.
    t.equal((await api.delete('users/~me/ratings/2/', undefined, { token: mine })).status, 204);
    t.equal(await count(db), 3);
    t.equal((await api.delete('users/~me/ratings/', undefined, { token: mine })).status, 204);
    t.strictSame((await userRatings(token, own)).body.user_ratings, []);
    t.equal(await count(db), 1);

    // Tokens without a frontend_user_id cannot use ~me.
    const plain = await frontendToken(db);
    for (const tok of [plain, token]) {
      t.same(errorOf(await userRatings(tok, '~me')), NOT_OWN_USER, 'GET ~me');
      t.same(
        errorOf(await api.put('users/~me/ratings/', { ratings: [{ item_id: 1, rating: 5 }] }, { token: tok })),
        NOT_OWN_USER,
        'PUT ~me',
      );
      t.same(errorOf(await api.put('users/~me/ratings/1/', { rating: 5 }, { token: tok })), NOT_OWN_USER, 'PUT one ~me');
      t.same(errorOf(await api.delete('users/~me/ratings/', undefined, { token: tok })), NOT_OWN_USER, 'DELETE ~me');
    }
    t.equal(await count(db), 1);
  });
}

t.test("DELETE users/<u>/*/ removes the user's property values and ratings, and nobody else's", async (t) => {
  const { db, token } = await fresh();
  t.equal((await api.post('users-properties/', { property_name: 'age', value_type: 'int32' }, { token })).status, 204);
  t.equal(
    (
      await api.put(
        'users-bulk/properties/',
        {
          users: [
            { user_id: uid(1), age: 30 },
            { user_id: uid(2), age: 40 },
          ],
        },
        { token },
      )
    ).status,
    200,
  );
  t.equal(
    (
      await putBulk(token, [
        { user_id: uid(1), item_id: 1, rating: 5, timestamp: 1 },
        { user_id: uid(1), item_id: 2, rating: 6, timestamp: 2 },
        { user_id: uid(2), item_id: 1, rating: 7, timestamp: 3 },
        { user_id: uid(3), item_id: 3, rating: 8, timestamp: 4 }, // no properties
      ])
    ).status,
    200,
  );
  t.equal(await count(db), 4);

  const d = await api.delete(`users/${uid(1)}/*/`, undefined, { token });
  t.equal(d.status, 204, why(d, 204));
  t.strictSame((await api.post('users-bulk/properties/list/', { users_id: [uid(1), uid(2)] }, { token })).body.users, [
    { user_id: uid(2), age: 40 },
  ]);
  t.strictSame((await userRatings(token, uid(1))).body.user_ratings, []);
  t.equal(await count(db), 2);
  t.strictSame(await everything(token), [
    { user_id: uid(2), item_id: 1, rating: 7, timestamp: 3 },
    { user_id: uid(3), item_id: 3, rating: 8, timestamp: 4 },
  ]);
  t.equal((await logEntries(db)).at(-1)?.fields.op, 'delete-user');

  // A user with ratings only.
  t.equal((await api.delete(`users/${uid(3)}/*/`, undefined, { token })).status, 204);
  t.equal(await count(db), 1);
  t.strictSame(await everything(token), [{ user_id: uid(2), item_id: 1, rating: 7, timestamp: 3 }]);
  // An unknown user: 204, nothing changes.
  t.equal((await api.delete(`users/${uid(77)}/*/`, undefined, { token })).status, 204);
  t.equal(await count(db), 1);
  t.same(errorOf(await api.delete('users/not-a-uuid/*/', undefined, { token })), BAD_USER);
});

t.test('a token bound to a deleted database gets DATABASE_NOT_FOUND on rating writes; nothing is recreated', async (t) => {
  const { db, token } = await fresh();
  t.equal((await putBulk(token, [{ user_id: uid(1), item_id: 1, rating: 5 }])).status, 200);
  const admin = await tokenFor(api, root, 'root', db);
  const d = await api.delete('databases/current/', undefined, { token: admin });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);

  t.same(errorOf(await putBulk(token, [{ user_id: uid(1), item_id: 2, rating: 5 }])), DATABASE_NOT_FOUND, 'PUT ratings-bulk/');
  t.same(
    errorOf(
      await putBulk(
        token,
        range(0, 600).map((k) => ({ user_id: uid(k), item_id: 1, rating: 5 })),
      ),
    ),
    DATABASE_NOT_FOUND,
    'PUT ratings-bulk/ of 600',
  );
  t.same(
    errorOf(await api.put(`users/${uid(2)}/ratings/`, { ratings: [{ item_id: 1, rating: 5 }] }, { token })),
    DATABASE_NOT_FOUND,
    'PUT users/<u>/ratings/',
  );
  t.same(errorOf(await api.put(`users/${uid(2)}/ratings/3/`, { rating: 5 }, { token })), DATABASE_NOT_FOUND, 'PUT users/<u>/ratings/<i>/');
  t.same(errorOf(await api.delete(`users/${uid(1)}/*/`, undefined, { token })), DATABASE_NOT_FOUND, 'DELETE users/<u>/*/');
  t.same(errorOf(await putBulk(token, [])), DATABASE_NOT_FOUND, 'PUT ratings-bulk/ with no ratings');
  t.same(errorOf(await api.get('ratings-bulk/', { token })), DATABASE_NOT_FOUND, 'GET ratings-bulk/');
  t.same(errorOf(await api.get(`users/${uid(1)}/ratings/`, { token })), DATABASE_NOT_FOUND, 'GET users/<u>/ratings/');
  t.same(
    errorOf(await api.delete(`users/${uid(1)}/ratings/1/`, undefined, { token })),
    DATABASE_NOT_FOUND,
    'DELETE users/<u>/ratings/<i>/',
  );
  t.same(errorOf(await api.delete(`users/${uid(1)}/ratings/`, undefined, { token })), DATABASE_NOT_FOUND, 'DELETE users/<u>/ratings/');

  const left = (await redis.keys('*')).filter((key) => key.startsWith(`{db:${db}}`));
  t.same(left, [], 'the refused requests recreated no key of the database');
});

t.test(
  'pagination: 3 users × 250 ratings walked with amt=100 return every rating once, in order, across page boundaries inside a user',
  async (t) => {
    const { db, token } = await fresh();
    // Users first seen: uid(30), uid(10), uid(20). Items first seen in a scrambled order.
    const users = [uid(30), uid(10), uid(20)];
    const items = range(0, 250).map((k) => ((k * 97) % 250) + 1);
    const rating = (u: number, k: number) => ((u * 3 + k) % 10) + 1;
    const rows: Rating[] = [];
    // Sent item-major (users interleaved), in two requests.
    for (let k = 0; k < 250; k++)
      for (let u = 0; u < 3; u++)
        rows.push({ user_id: users[u]!, item_id: items[k]!, rating: rating(u, k), timestamp: 1_000_000 + u * 1000 + k });
    t.equal((await putBulk(token, rows.slice(0, 400))).status, 200);
    t.equal((await putBulk(token, rows.slice(400))).status, 200);
    t.equal(await count(db), 750);

    // Expected: users in first-seen order; each user's ratings in item first-seen order.
    const expected: Rating[] = [];
    for (let u = 0; u < 3; u++)
      for (let k = 0; k < 250; k++)
        expected.push({ user_id: users[u]!, item_id: items[k]!, rating: rating(u, k), timestamp: 1_000_000 + u * 1000 + k });

    const { ratings, pages } = await walk(token, 100);
    t.equal(pages.length, 8);
    t.strictSame(
      pages.map((p) => p.ratings.length),
      [100, 100, 100, 100, 100, 100, 100, 50],
    );
    t.strictSame(
      pages.map((p) => p.has_next),
      [true, true, true, true, true, true, true, false],
    );
    t.equal(pages[7].next_cursor, '', "next_cursor is '' on the last page");
    t.equal(new Set(pages.slice(0, 7).map((p) => p.next_cursor)).size, 7, 'every page has its own cursor');
    for (const p of pages) t.strictSame(p.warnings, []);
    t.equal(ratings.length, 750);
    t.equal(new Set(ratings.map((r) => `${r.user_id}/${r.item_id}`)).size, 750, 'no rating twice');
    t.strictSame(ratings, expected, 'every rating, in order');
    // Page 3 starts inside the first user and ends inside the second.
    t.equal(pages[2].ratings[0].user_id, users[0]);
    t.equal(pages[2].ratings[49].user_id, users[0]);
    t.equal(pages[2].ratings[50].user_id, users[1]);
    t.equal(pages[2].ratings[99].user_id, users[1]);

    // Other page sizes give the same walk.
    for (const amt of [1, 7, 249, 250, 251, 749, 750, 751]) {
      const w = await walk(token, amt);
      t.strictSame(w.ratings, expected, `amt=${amt}`);
      t.equal(w.pages.length, Math.ceil(750 / amt), `amt=${amt}: pages`);
    }
    const single = await walk(token, 16384);
    t.equal(single.pages.length, 1);
    t.equal(single.pages[0].has_next, false);
    const byDefault = await api.get('ratings-bulk/', { token });
    t.equal(byDefault.body.ratings.length, 300, 'amt defaults to 300');
    t.strictSame(byDefault.body.ratings, expected.slice(0, 300));
  },
);

t.test('GET ratings-bulk/: cursors are reusable; empty cursor is the first page; bad amt or cursor is WRONG_PARAMETER', async (t) => {
  const { token } = await fresh({ user_id_type: 'urlsafe' });
  const rows = range(0, 30).map((k) => ({ user_id: `user_${k % 4}`, item_id: k + 1, rating: 5, timestamp: k }));
  t.equal((await putBulk(token, rows)).status, 200);

  const first = await api.get('ratings-bulk/', { token, query: 'amt=10' });
  t.equal(first.status, 200, why(first, 200));
  const cursor = first.body.next_cursor as string;
  t.type(cursor, 'string');
  const a = await api.get('ratings-bulk/', { token, query: `amt=10&cursor=${encodeURIComponent(cursor)}` });
  const b = await api.get('ratings-bulk/', { token, query: `amt=10&cursor=${encodeURIComponent(cursor)}` });
  t.equal(a.status, 200, why(a, 200));
  t.strictSame(a.body, b.body, 'the same cursor gives the same page');
  t.notSame(a.body.ratings, first.body.ratings);
  const small = await api.get('ratings-bulk/', { token, query: `amt=3&cursor=${encodeURIComponent(cursor)}` });
  t.strictSame(small.body.ratings, a.body.ratings.slice(0, 3), 'a cursor does not depend on the amt that produced it');
  const empty = await api.get('ratings-bulk/', { token, query: 'amt=10&cursor=' });
  t.strictSame(empty.body, first.body, 'an empty cursor is the first page');

  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  for (const bad of ['garbage', b64('x1:0:0'), b64('r1:0'), b64('r1:0:0:0'), b64('r1:-1:0'), b64('r1:a:0'), 'x'.repeat(257)]) {
    t.same(
      errorOf(await api.get('ratings-bulk/', { token, query: `cursor=${encodeURIComponent(bad)}` })),
      WRONG_PARAMETER,
      `cursor ${bad.slice(0, 20)}`,
    );
  }
  for (const q of ['amt=0', 'amt=16385', 'amt=-1', 'amt=abc', 'amt=2.5']) {
    t.same(errorOf(await api.get('ratings-bulk/', { token, query: q })), WRONG_PARAMETER, q);
  }
  t.equal((await api.get('ratings-bulk/', { token, query: 'amt=16384' })).status, 200);
  t.equal((await api.get('ratings-bulk/', { token, query: 'amt=1' })).body.ratings.length, 1);
});

t.test('the walk skips users whose ratings were deleted, and sees ratings added behind the cursor', async (t) => {
  const { token } = await fresh();
  const rows = range(0, 40).map((k) => ({ user_id: uid(k % 4), item_id: k + 1, rating: 5, timestamp: k }));
  t.equal((await putBulk(token, rows)).status, 200);
  t.equal((await api.delete(`users/${uid(1)}/ratings/`, undefined, { token })).status, 204);
  t.equal((await api.delete(`users/${uid(3)}/ratings/`, undefined, { token })).status, 204);
  const left = rows.filter((r) => r.user_id === uid(0) || r.user_id === uid(2));
  const expected = [...left.filter((r) => r.user_id === uid(0)), ...left.filter((r) => r.user_id === uid(2))];
  for (const amt of [3, 10, 20, 100]) t.strictSame((await walk(token, amt)).ratings, expected, `amt=${amt}`);

  // A rating written for a later user after the first page was read is found by the walk.
  const first = await api.get('ratings-bulk/', { token, query: 'amt=5' });
  t.equal((await putBulk(token, [{ user_id: uid(2), item_id: 1000, rating: 9, timestamp: 99 }])).status, 200);
  let cursor = first.body.next_cursor as string;
  const rest: Rating[] = [];
  for (let guard = 0; cursor !== '' && guard < 100; guard++) {
    const p = await api.get('ratings-bulk/', { token, query: `amt=5&cursor=${encodeURIComponent(cursor)}` });
    rest.push(...p.body.ratings);
    cursor = p.body.has_next ? p.body.next_cursor : '';
  }
  t.strictSame([...first.body.ratings, ...rest], [...expected, { user_id: uid(2), item_id: 1000, rating: 9, timestamp: 99 }]);
});
