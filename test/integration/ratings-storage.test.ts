// How a user's ratings are kept (src/store/ratings-store.ts: a sorted set of the items rated, scored by
// timestamp, and a hash of their values, explicit or inferred), seen through the HTTP interface: held
// items replaced, few and many at once, with new ones in the same request; pages newest first; a
// request larger than one write call; deleting from the middle; interactions inferring into the hash,
// explicit ratings replacing inferred ones and never the other way round; and the count following
// every path.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { freshDatabase, range, ratingCount, uid, why } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);

interface Row {
  item_id: number;
  rating: number;
  timestamp: number;
}

// The user's ratings as GET users/<u>/ratings/ lists them, by item.
async function held(token: string, user: string): Promise<Map<number, [number, number]>> {
  const out = new Map<number, [number, number]>();
  for (let page = 1; ; page++) {
    const r = await api.get(`users/${user}/ratings/`, { token, query: `amt=500&page=${page}` });
    if (r.status !== 200) throw new Error(`GET users/${user}/ratings/: ${r.status} ${r.text}`);
    for (const x of r.body.user_ratings as Row[]) out.set(x.item_id, [x.rating, x.timestamp]);
    if (!r.body.has_next) return out;
  }
}

// The origin byte of each value held (1 explicit, 2 inferred), by item index.
async function origins(prefix: string): Promise<number[]> {
  const flat = (await redis.callBuffer('HGETALL', `${prefix}:v`)) as Buffer[];
  const pairs: [number, number][] = [];
  for (let k = 0; k < flat.length; k += 2) pairs.push([flat[k]!.readUInt32BE(0), flat[k + 1]![0]!]);
  return pairs.sort((a, b) => a[0] - b[0]).map(([, origin]) => origin);
}

const put = (token: string, user: string, ratings: Row[]) => api.put(`users/${user}/ratings/`, { ratings }, { token });
const rows = (items: number[], rating: (i: number) => number, ts: number): Row[] =>
  items.map((i) => ({ item_id: i, rating: rating(i), timestamp: ts }));

t.test('held items are replaced and new ones added in one request, few and many', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(1);
  t.equal(
    (
      await put(
        token,
        u,
        rows(range(1, 101), (i) => 1 + (i % 9), 100),
      )
    ).status,
    200,
  );
  t.equal(await ratingCount(redis, db), 100);

  // Few held (3) among new ones (2).
  let r = await put(
    token,
    u,
    rows([5, 50, 99, 200, 201], () => 10, 200),
  );
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 102, 'only the two new pairs are counted');
  let got = await held(token, u);
  t.equal(got.size, 102);
  for (const i of [5, 50, 99, 200, 201]) t.strictSame(got.get(i), [10, 200], `item ${i} has the new value`);
  t.strictSame(got.get(6), [1 + (6 % 9), 100], 'an item not sent keeps its value');

  // Many held (60, in an order unlike the stored one) with new ones (10).
  const many = [...range(1, 61).reverse(), ...range(300, 310)];
  r = await put(
    token,
    u,
    rows(many, (i) => 2 + (i % 7), 300),
  );
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 112);
  got = await held(token, u);
  t.equal(got.size, 112);
  const wrong = [...got].filter(([i, v]) => {
    const want = many.includes(i) ? [2 + (i % 7), 300] : [5, 50, 99, 200, 201].includes(i) ? [10, 200] : [1 + (i % 9), 100];
    return v[0] !== want[0] || v[1] !== want[1];
  });
  t.strictSame(wrong, [], 'every item has the value of the last request that named it');
  t.equal(await redis.zcard(`${keys.userRatingsPrefix(db)}0:t`), 112, 'the set holds each item once');
  t.equal(await redis.hlen(`${keys.userRatingsPrefix(db)}0:v`), 112, 'one value per item');
});

t.test('a user with thousands of ratings: pages newest first, a request larger than one write call, updates move an item up', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(2);
  // 10,000 ratings in one request (several write calls: RATINGS_PER_CALL), timestamps rising with the item.
  let r = await put(
    token,
    u,
    rows(range(1, 10_001), (i) => 1 + (i % 9), 0).map((x) => ({ ...x, timestamp: 1000 + x.item_id })),
  );
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 10_000);
  const page = async (n: number, amt = 3) => {
    const got = await api.get(`users/${u}/ratings/`, { token, query: `amt=${amt}&page=${n}` });
    return { items: (got.body.user_ratings as Row[]).map((x) => x.item_id), more: got.body.has_next as boolean };
  };
  t.strictSame(await page(1), { items: [10_000, 9_999, 9_998], more: true }, 'newest first');
  t.strictSame(await page(1000), { items: [7003, 7002, 7001], more: true });
  t.strictSame(await page(3334), { items: [1], more: false }, 'the last page');
  t.strictSame(await page(3335), { items: [], more: false }, 'past the end');
  // Rating an old item again, later, puts it first.
  r = await put(
    token,
    u,
    rows([5], () => 10, 50_000),
  );
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(await page(1, 2), { items: [5, 10_000], more: true });
  t.equal(await ratingCount(redis, db), 10_000);
  const got = await held(token, u);
  t.equal(got.size, 10_000);
  t.strictSame(got.get(5), [10, 50_000]);
  t.strictSame(got.get(4097), [1 + (4097 % 9), 5097], 'a rating of a later write call');
  // The ratings log holds every rating once, across the write calls.
  const entries = await redis.xrangeBuffer(keys.ratingsLog(db), '-', '+');
  t.equal(
    entries.reduce((n, [, f]) => n + f[f.findIndex((x) => x.toString() === 'r') + 1]!.length / 24, 0),
    10_001,
  );
});

t.test('deleting one rating from the middle keeps the others; deleting the last leaves no keys', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(5);
  t.equal(
    (
      await put(
        token,
        u,
        rows([1, 2, 3, 4], (i) => i, 10),
      )
    ).status,
    200,
  );
  t.equal((await api.delete(`users/${u}/ratings/2/`, undefined, { token })).status, 204);
  t.strictSame(
    [...(await held(token, u))].sort((a, b) => a[0] - b[0]),
    [
      [1, [1, 10]],
      [3, [3, 10]],
      [4, [4, 10]],
    ],
  );
  t.equal(await ratingCount(redis, db), 3);
  // A later write still finds the items after the gap.
  t.equal(
    (
      await put(
        token,
        u,
        rows([4], () => 9, 20),
      )
    ).status,
    200,
  );
  t.equal(await ratingCount(redis, db), 3);
  t.strictSame((await held(token, u)).get(4), [9, 20]);
  for (const i of [1, 3, 4]) t.equal((await api.delete(`users/${u}/ratings/${i}/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 0);
  t.equal(
    await redis.exists(`${keys.userRatingsPrefix(db)}0:t`, `${keys.userRatingsPrefix(db)}0:v`),
    0,
    'no empty set or hash left behind',
  );
});

t.test(
  'interactions: repeated pairs in one request and across requests keep one field of the hash; max and replace read the held value',
  async (t) => {
    const { db, token } = await freshDatabase(api, root);
    const u = uid(6);
    const post = (rows: unknown[]) => api.post(`users/${u}/interactions-bulk/`, { interactions: rows }, { token });
    let r = await post([
      { item_id: 1, interaction_type: 'view', timestamp: 1 },
      { item_id: 2, interaction_type: 'purchase', timestamp: 2 },
      { item_id: 1, interaction_type: 'add_to_cart', timestamp: 3 },
      { item_id: 1, interaction_type: 'view', timestamp: 4 },
    ]);
    t.equal(r.status, 200, why(r, 200));
    t.equal(await ratingCount(redis, db), 2);
    t.strictSame(
      [...(await held(token, u))].sort((a, b) => a[0] - b[0]),
      [
        [1, [8, 4]],
        [2, [9.5, 2]],
      ],
      'max keeps add_to_cart over the later view, with the latest timestamp',
    );
    r = await post([{ item_id: 2, interaction_type: 'dislike', timestamp: 5 }]);
    t.equal(r.status, 200, why(r, 200));
    t.strictSame((await held(token, u)).get(2), [2, 5], 'replace overrides the held inferred rating');
    t.equal(await ratingCount(redis, db), 2);
    const prefix = `${keys.userRatingsPrefix(db)}0`;
    t.equal(await redis.hlen(`${prefix}:v`), 2, 'one field per inferred pair');
    t.equal(await redis.zcard(`${prefix}:t`), 2);
    t.strictSame(await origins(prefix), [2, 2], 'both inferred');
  },
);

t.test('explicit ratings replace inferred ones (bulk and single), never the reverse; deleting either kind', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(7);
  const prefix = `${keys.userRatingsPrefix(db)}0`;
  const r = await api.post(
    `users/${u}/interactions-bulk/`,
    {
      interactions: [1, 2, 3, 4].map((i) => ({ item_id: i, interaction_type: 'purchase', timestamp: 10 })),
    },
    { token },
  );
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(await origins(prefix), [2, 2, 2, 2]);
  // A bulk write naming two inferred items and a new one; a single rating on a third.
  t.equal(
    (
      await put(
        token,
        u,
        rows([2, 3, 9], () => 4, 20),
      )
    ).status,
    200,
  );
  t.equal((await api.put(`users/${u}/ratings/4/`, { rating: 3, timestamp: 30 }, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 5, 'replacing an inferred rating adds no pair');
  t.equal(await redis.hget(keys.entityIndex(db, 'item'), '1'), '0');
  t.strictSame(await origins(prefix), [2, 1, 1, 1, 1], 'only item 1 (index 0) is still inferred');
  t.strictSame(
    [...(await held(token, u))].sort((a, b) => a[0] - b[0]),
    [
      [1, [9.5, 10]],
      [2, [4, 20]],
      [3, [4, 20]],
      [4, [3, 30]],
      [9, [4, 20]],
    ],
  );
  // A later interaction leaves the explicit rating as it is, and changes the inferred one.
  for (const item of [2, 1])
    t.equal((await api.post(`users/${u}/interactions/${item}/`, { interaction_type: 'dislike', timestamp: 40 }, { token })).status, 200);
  let got = await held(token, u);
  t.strictSame(got.get(2), [4, 20], 'explicit wins');
  t.strictSame(got.get(1), [2, 40], 'dislike replaces the inferred rating');
  // GET ratings-bulk/ lists both kinds, oldest first (equal timestamps in item index order).
  const bulk = await api.get('ratings-bulk/', { token, query: 'amt=100' });
  t.strictSame(
    (bulk.body.ratings as { item_id: number }[]).map((x) => x.item_id),
    [2, 3, 9, 4, 1],
    'both kinds listed oldest first',
  );
  // Deleting an inferred rating and an explicit one.
  for (const item of [1, 3]) t.equal((await api.delete(`users/${u}/ratings/${item}/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 3);
  got = await held(token, u);
  t.strictSame(
    [...got.keys()].sort((a, b) => a - b),
    [2, 4, 9],
  );
  t.strictSame(await origins(prefix), [1, 1, 1]);
  // And then all of them.
  t.equal((await api.post(`users/${u}/interactions/5/`, { interaction_type: 'view', timestamp: 50 }, { token })).status, 200);
  t.equal((await api.delete(`users/${u}/ratings/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 0);
  t.equal(await redis.exists(`${prefix}:t`, `${prefix}:v`), 0, 'no keys left');
});
