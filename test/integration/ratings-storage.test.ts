// How a user's ratings are kept (src/store/ratings-store.ts: a set of item indices, a string of explicit
// records appended as written, the last per item counting, and a hash of inferred ones), seen through
// the HTTP interface: held items replaced, few and many at once, with new ones in the same request; the
// string compacted as updates pile up; an item's bytes inside other records are not that item; deleting
// from the middle; interactions inferring into the hash, explicit ratings replacing inferred ones and
// never the other way round; and the count following every path.
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

const put = (token: string, user: string, ratings: Row[]) => api.put(`users/${user}/ratings/`, { ratings }, { token });
const rows = (items: number[], rating: (i: number) => number, ts: number): Row[] => items.map((i) => ({ item_id: i, rating: rating(i), timestamp: ts }));

t.test('held items are replaced and new ones added in one request, few and many', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(1);
  t.equal((await put(token, u, rows(range(1, 101), (i) => 1 + (i % 9), 100))).status, 200);
  t.equal(await ratingCount(redis, db), 100);

  // Few held (3) among new ones (2).
  let r = await put(token, u, rows([5, 50, 99, 200, 201], () => 10, 200));
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 102, 'only the two new pairs are counted');
  let got = await held(token, u);
  t.equal(got.size, 102);
  for (const i of [5, 50, 99, 200, 201]) t.strictSame(got.get(i), [10, 200], `item ${i} has the new value`);
  t.strictSame(got.get(6), [1 + (6 % 9), 100], 'an item not sent keeps its value');

  // Many held (60, in an order unlike the stored one) with new ones (10).
  const many = [...range(1, 61).reverse(), ...range(300, 310)];
  r = await put(token, u, rows(many, (i) => 2 + (i % 7), 300));
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 112);
  got = await held(token, u);
  t.equal(got.size, 112);
  const wrong = [...got].filter(([i, v]) => {
    const want = many.includes(i) ? [2 + (i % 7), 300] : [5, 50, 99, 200, 201].includes(i) ? [10, 200] : [1 + (i % 9), 100];
    return v[0] !== want[0] || v[1] !== want[1];
  });
  t.strictSame(wrong, [], 'every item has the value of the last request that named it');
  t.equal(await redis.scard(`${keys.userRatingsPrefix(db)}0:s`), 112, 'the set holds each item once');
  t.equal(await redis.strlen(`${keys.userRatingsPrefix(db)}0:r`), 21 * (100 + 5 + 70), 'every record written is kept until updates outweigh the rest');
});

t.test('a user with thousands of ratings: updates pile up, then the records are compacted to the last of each item', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(2);
  const records = `${keys.userRatingsPrefix(db)}0:r`;
  for (let s = 1; s <= 2000; s += 500) t.equal((await put(token, u, rows(range(s, s + 500), () => 3, 10))).status, 200);
  // 400 held and 200 new in one request.
  const sent = [...range(1601, 2001), ...range(5001, 5201)];
  const r = await put(token, u, rows(sent, (i) => (i > 5000 ? 4 : 9), 20));
  t.equal(r.status, 200, why(r, 200));
  t.equal(await ratingCount(redis, db), 2200);
  let got = await held(token, u);
  t.equal(got.size, 2200);
  t.strictSame(got.get(1600), [3, 10]);
  t.strictSame(got.get(1601), [9, 20]);
  t.strictSame(got.get(2000), [9, 20]);
  t.strictSame(got.get(5200), [4, 20]);
  t.equal([...got.values()].filter(([v]) => v === 9).length, 400, 'the 400 held items replaced');
  // Rewriting the same 1,000 items again and again: the string stays within twice the live records.
  for (let k = 0; k < 6; k++) t.equal((await put(token, u, rows(range(1, 1001), () => 5 + (k % 2), 30 + k))).status, 200);
  const length = await redis.strlen(records);
  t.ok(length <= 2 * 21 * 2200 + 4096 + 21 * 1000, `compacted: ${length} bytes for 2,200 ratings`);
  t.ok(length < 21 * (2600 + 6000), 'smaller than every record written');
  t.equal(await ratingCount(redis, db), 2200);
  got = await held(token, u);
  t.equal(got.size, 2200);
  t.strictSame(got.get(1), [6, 35], 'the last write wins after compaction');
  t.strictSame(got.get(1601), [9, 20]);
  t.strictSame(got.get(5001), [4, 20]);
});

t.test('an item whose 4 bytes appear inside held records is new; interactions too', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  // Item 3 is made known first, so its dense index is 0: bytes 00 00 00 00, which every record of
  // rating 7 holds inside its value (7.0 is 40 1c 00 00 00 00 00 00). A helper user's rating makes
  // the items known; its ratings are then deleted.
  const helper = uid(90);
  for (const item of [3, 1, 2]) t.equal((await put(token, helper, rows([item], () => 1, 1))).status, 200);
  t.equal(await redis.hget(keys.entityIndex(db, 'item'), '3'), '0');
  t.equal((await api.delete(`users/${helper}/ratings/`, undefined, { token })).status, 204);

  const u = uid(3);
  t.equal((await put(token, u, rows([1, 2], () => 7, 50))).status, 200);
  t.equal((await put(token, u, rows([3], () => 2, 60))).status, 200);
  t.equal(await ratingCount(redis, db), 3, 'item 3 is new, not the zero bytes inside the values of items 1 and 2');
  t.strictSame([...(await held(token, u))].sort((a, b) => a[0] - b[0]), [
    [1, [7, 50]],
    [2, [7, 50]],
    [3, [2, 60]],
  ]);

  // An interaction on item 3 by another user holding items 1 and 2 adds an inferred rating; one on
  // item 1 leaves the explicit rating.
  const v = uid(4);
  t.equal((await put(token, v, rows([1, 2], () => 7, 70))).status, 200);
  for (const item of [3, 1]) {
    const r = await api.post(`users/${v}/interactions/${item}/`, { interaction_type: 'view', timestamp: 80 }, { token });
    t.equal(r.status, 200, why(r, 200));
  }
  t.equal(await ratingCount(redis, db), 6);
  t.strictSame([...(await held(token, v))].sort((a, b) => a[0] - b[0]), [
    [1, [7, 70]],
    [2, [7, 70]],
    [3, [6, 80]],
  ]);
});

t.test('deleting one rating from the middle keeps the others; deleting the last leaves no keys', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(5);
  t.equal((await put(token, u, rows([1, 2, 3, 4], (i) => i, 10))).status, 200);
  t.equal((await api.delete(`users/${u}/ratings/2/`, undefined, { token })).status, 204);
  t.strictSame([...(await held(token, u))].sort((a, b) => a[0] - b[0]), [
    [1, [1, 10]],
    [3, [3, 10]],
    [4, [4, 10]],
  ]);
  t.equal(await ratingCount(redis, db), 3);
  // A later write still finds the items after the gap.
  t.equal((await put(token, u, rows([4], () => 9, 20))).status, 200);
  t.equal(await ratingCount(redis, db), 3);
  t.strictSame((await held(token, u)).get(4), [9, 20]);
  for (const i of [1, 3, 4]) t.equal((await api.delete(`users/${u}/ratings/${i}/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 0);
  t.equal(await redis.exists(`${keys.userRatingsPrefix(db)}0:s`, `${keys.userRatingsPrefix(db)}0:r`), 0, 'no empty set or string left behind');
});

t.test('interactions: repeated pairs in one request and across requests keep one field of the hash; max and replace read the held value', async (t) => {
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
  t.strictSame([...(await held(token, u))].sort((a, b) => a[0] - b[0]), [
    [1, [8, 4]],
    [2, [9.5, 2]],
  ], 'max keeps add_to_cart over the later view, with the latest timestamp');
  r = await post([{ item_id: 2, interaction_type: 'dislike', timestamp: 5 }]);
  t.equal(r.status, 200, why(r, 200));
  t.strictSame((await held(token, u)).get(2), [2, 5], 'replace overrides the held inferred rating');
  t.equal(await ratingCount(redis, db), 2);
  const prefix = `${keys.userRatingsPrefix(db)}0`;
  t.equal(await redis.hlen(`${prefix}:i`), 2, 'one field per inferred pair');
  t.equal(await redis.exists(`${prefix}:r`), 0, 'no explicit records');
  t.equal(await redis.scard(`${prefix}:s`), 2);
});

t.test('explicit ratings replace inferred ones (bulk and single), never the reverse; deleting either kind', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  const u = uid(7);
  const prefix = `${keys.userRatingsPrefix(db)}0`;
  const r = await api.post(`users/${u}/interactions-bulk/`, {
    interactions: [1, 2, 3, 4].map((i) => ({ item_id: i, interaction_type: 'purchase', timestamp: 10 })),
  }, { token });
  t.equal(r.status, 200, why(r, 200));
  t.equal(await redis.hlen(`${prefix}:i`), 4);
  // A bulk write naming two inferred items and a new one; a single rating on a third.
  t.equal((await put(token, u, rows([2, 3, 9], () => 4, 20))).status, 200);
  t.equal((await api.put(`users/${u}/ratings/4/`, { rating: 3, timestamp: 30 }, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 5, 'replacing an inferred rating adds no pair');
  t.strictSame((await redis.hkeys(`${prefix}:i`)).sort(), [await redis.hget(keys.entityIndex(db, 'item'), '1')], 'only item 1 is still inferred');
  t.strictSame([...(await held(token, u))].sort((a, b) => a[0] - b[0]), [
    [1, [9.5, 10]],
    [2, [4, 20]],
    [3, [4, 20]],
    [4, [3, 30]],
    [9, [4, 20]],
  ]);
  // A later interaction leaves the explicit rating as it is, and changes the inferred one.
  for (const item of [2, 1]) t.equal((await api.post(`users/${u}/interactions/${item}/`, { interaction_type: 'dislike', timestamp: 40 }, { token })).status, 200);
  let got = await held(token, u);
  t.strictSame(got.get(2), [4, 20], 'explicit wins');
  t.strictSame(got.get(1), [2, 40], 'dislike replaces the inferred rating');
  // GET ratings-bulk/ lists both kinds, by item index.
  const bulk = await api.get('ratings-bulk/', { token, query: 'amt=100' });
  t.strictSame((bulk.body.ratings as { item_id: number }[]).map((x) => x.item_id), [1, 2, 3, 4, 9], 'both kinds listed in item index order');
  // Deleting an inferred rating and an explicit one.
  for (const item of [1, 3]) t.equal((await api.delete(`users/${u}/ratings/${item}/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 3);
  got = await held(token, u);
  t.strictSame([...got.keys()].sort((a, b) => a - b), [2, 4, 9]);
  t.equal(await redis.hlen(`${prefix}:i`), 0);
  // And then all of them.
  t.equal((await api.post(`users/${u}/interactions/5/`, { interaction_type: 'view', timestamp: 50 }, { token })).status, 200);
  t.equal((await api.delete(`users/${u}/ratings/`, undefined, { token })).status, 204);
  t.equal(await ratingCount(redis, db), 0);
  t.equal(await redis.exists(`${prefix}:s`, `${prefix}:r`, `${prefix}:i`), 0, 'no keys left');
});
