// Lists precomputed at training: trained models carry them; a user unchanged since the model's data
// is answered from theirs without their ratings being read, and past it their ratings are read
// once; a change through either process is seen on the next request and read once; pages of one
// cursor never repeat or skip an item where the list gives way to a full ranking.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { itemsOf, likedBy, qs, RECO_ENV, trainedDatabase, until, type Tt } from '../helpers/reco.js';
import { keys } from '../../src/store/keys.js';
import { monitorServerOf } from '../helpers/redis-monitor.js';
import { startPair, startStack, type Stack } from '../helpers/stack.js';

const LIST = 6; // short, so pages cross from the lists into full rankings
const pair = await startPair({ ...RECO_ENV, RECD_LIST_LENGTH: String(LIST) });
t.teardown(() => pair.close());
const { a, b } = pair;
const root = await rootToken(a.api);
const { db, token } = await trainedDatabase(a.api, root);

// Reads of one user’s ratings Redis executes: the ratings script (EVAL the first time, EVALSHA after)
// names the user’s key prefix and id.
async function ratingReads<T>(s: Stack, user: string, run: () => Promise<T>, inDb = db): Promise<{ value: T; reads: number }> {
  let reads = 0;
  const monitor = await monitorServerOf(s.redis, keys.database(inDb), (args) => {
    if (/^eval(sha)?$/i.test(args[0] ?? '') && args.includes(`{db:${inDb}}:ratings:user:`) && args.includes(user)) reads++;
  });
  try {
    const value = await run();
    await monitor.caughtUp();
    return { value, reads };
  } finally {
    monitor.close();
  }
}

const userItems = (s: Stack, u: number, q: Record<string, string | number | boolean | undefined>) =>
  s.api.get(`recommendation/users/${uid(u)}/items/`, { token, query: qs(q) });

// Every page of a cursor, `amt` items each, until `total` items or the end.
async function pages(t: Tt, get: (cursor: string | undefined) => Promise<any>, amt: number, total: number): Promise<number[]> {
  const out: number[] = [];
  let cursor: string | undefined;
  while (out.length < total) {
    const r = await get(cursor);
    const ids = itemsOf(t, r, `page from ${out.length}`, amt);
    out.push(...ids);
    cursor = r.body.next_cursor;
    if (!cursor || ids.length === 0) break;
  }
  return out;
}

t.test('a trained model carries item and user lists', async (t) => {
  const r = await a.api.get('pretrained-ml/trained-models/', { token });
  const m = r.body.models[0];
  t.equal(m.item_list, LIST);
  t.equal(m.user_list, LIST);
  t.equal(m.metrics.users_listed, 70, 'every user with ratings got a list');
  t.type(m.metrics.lists_seconds, 'number');
});

t.test('an unchanged user is answered from their list without reading their ratings', async (t) => {
  const u = 3;
  const { value, reads } = await ratingReads(a, uid(u), async () => {
    const got: number[][] = [];
    for (let k = 0; k < 10; k++) got.push(itemsOf(t, await userItems(a, u, { amt: 4, exclude_rated_items: true }), `request ${k}`, 4));
    for (let k = 0; k < 5; k++) itemsOf(t, await userItems(a, u, { amt: 4 }), `rated items kept, request ${k}`, 4);
    return got;
  });
  t.equal(reads, 0, 'no read of the user’s ratings');
  t.ok(
    value.every((ids) => ids.length === 4 && ids.join() === value[0]!.join()),
    'the same four items each time',
  );
  t.ok(
    value[0]!.every((i) => !likedBy(u).includes(i)),
    `none of them rated: ${value[0]}`,
  );
});

t.test('pages past a user’s list read their ratings once and neither repeat nor skip', async (t) => {
  const u = 7;
  const { value, reads } = await ratingReads(a, uid(u), async () => {
    const paged = await pages(t, (cursor) => userItems(a, u, { amt: 4, exclude_rated_items: true, cursor }), 4, 20);
    const again = await pages(t, (cursor) => userItems(a, u, { amt: 4, exclude_rated_items: true, cursor }), 4, 20);
    const whole = itemsOf(t, await userItems(a, u, { amt: 20, exclude_rated_items: true }), 'one page of 20', 20);
    return { paged, again, whole };
  });
  t.equal(value.paged.length, 20, 'twenty items over five pages');
  t.same(value.paged, value.whole, 'the pages make up the one long page');
  t.same(value.again, value.paged, 'paging again gives the same');
  t.ok(
    value.paged.every((i) => !likedBy(u).includes(i)),
    'no rated item, within the list or past it',
  );
  t.equal(reads, 1, 'the ratings were read once');
});

t.test('item-to-items pages cross from the item’s list into its full ranking', async (t) => {
  const item = (cursor?: string, amt = 4) => a.api.get('recommendation/items/5/items/', { token, query: qs({ amt, cursor }) });
  const paged = await pages(t, (cursor) => item(cursor), 4, 24);
  const whole = itemsOf(t, await item(undefined, 24), 'one page of 24', 24);
  t.equal(paged.length, 24);
  t.same(paged, whole, 'the pages make up the one long page');
  t.notOk(paged.includes(5), 'never the item itself');
});

// A filter the item's list hardly passes: the first page's walk goes past the list, where it starts
// again with the positions that pass kept (paging.ts), and later pages and requests reuse them.
t.test('filtered item-to-items pages cross from the item’s list into its full ranking', async (t) => {
  const item = (cursor?: string, amt = 3) =>
    a.api.get('recommendation/items/5/items/', { token, query: qs({ amt, cursor, filters: 'genre:eq:b' }) });
  const whole = itemsOf(t, await item(undefined, 12), 'one filtered page of 12', 12);
  t.equal(whole.length, 12);
  t.ok(
    whole.every((i) => i >= 21 && i <= 40),
    `only B items: ${JSON.stringify(whole)}`,
  );
  const paged = await pages(t, (cursor) => item(cursor), 3, 12);
  t.same(paged, whole, 'the pages make up the one long page');
  t.same(itemsOf(t, await item(undefined, 12), 'the long page again', 12), whole, 'the same long page again');
  t.same(itemsOf(t, await item(), 'a first page again', 3), whole.slice(0, 3), 'a first page again: its start');
});

t.test('a new rating changes the next recommendations, through either process, read once per change', async (t) => {
  const u = 11;
  const before = itemsOf(t, await userItems(a, u, { amt: 4, exclude_rated_items: true }), 'before', 4);
  const top = before[0]!;
  // Rated through B: A learns of it from the ratings log.
  t.equal(
    (
      await b.api.put(
        'ratings-bulk/',
        { ratings: [{ user_id: uid(u), item_id: top, rating: 10, timestamp: Math.floor(Date.now() / 1000) }] },
        { token },
      )
    ).status,
    200,
  );
  const { value, reads } = await ratingReads(a, uid(u), async () => {
    const seen = await until(
      'A leaves the newly rated item out',
      async () => itemsOf(t, await userItems(a, u, { amt: 4, exclude_rated_items: true }), 'after, on A', 4),
      (ids) => !ids.includes(top),
      2000,
    );
    const later: number[][] = [];
    for (let k = 0; k < 10; k++) later.push(itemsOf(t, await userItems(a, u, { amt: 4, exclude_rated_items: true }), `after ${k}`, 4));
    return { seen, later };
  });
  t.notOk(value.seen.includes(top), `the item just rated (${top}) is left out on A`);
  t.ok(
    value.later.every((ids) => ids.join() === value.seen.join()),
    'the same answer from then on',
  );
  t.equal(reads, 1, 'A read the user’s ratings once for the change');

  // Rated through A itself: its very next answer has it.
  const next = value.seen[0]!;
  t.equal(
    (
      await a.api.put(
        'ratings-bulk/',
        { ratings: [{ user_id: uid(u), item_id: next, rating: 9, timestamp: Math.floor(Date.now() / 1000) }] },
        { token },
      )
    ).status,
    200,
  );
  const now = itemsOf(t, await userItems(a, u, { amt: 4, exclude_rated_items: true }), 'right after a write through A', 4);
  t.notOk(now.includes(next), `the item just rated (${next}) is left out at once`);
  t.notOk(now.includes(top), 'and the one before');
});

t.test('a user the training had no time for gets their list on their first request, once', async (t) => {
  // The pair goes first: on a cluster it would share this stack's Redis, and train its database with
  // its own settings (lists for every user).
  await pair.close();
  const late = await startStack({ ...RECO_ENV, RECD_LIST_LENGTH: String(LIST), RECD_USER_LISTS_SECONDS: '0' });
  t.teardown(() => late.close());
  const lateRoot = await rootToken(late.api);
  const trained = await trainedDatabase(late.api, lateRoot);
  const m = (await late.api.get('pretrained-ml/trained-models/', { token: trained.token })).body.models[0];
  t.equal(m.metrics.users_listed, 0, 'no user got a list at training');
  const u = 13;
  const get = (q: Record<string, string | number | boolean | undefined>) =>
    late.api.get(`recommendation/users/${uid(u)}/items/`, { token: trained.token, query: qs(q) });
  const { value, reads } = await ratingReads(
    late,
    uid(u),
    async () => {
      const first: number[][] = [];
      for (let k = 0; k < 10; k++) first.push(itemsOf(t, await get({ amt: 4, exclude_rated_items: true }), `request ${k}`, 4));
      const paged = await pages(t, (cursor) => get({ amt: 4, exclude_rated_items: true, cursor }), 4, 16);
      return { first, paged };
    },
    trained.db,
  );
  t.equal(reads, 1, 'the ratings were read once');
  t.ok(
    value.first.every((ids) => ids.join() === value.first[0]!.join()),
    'the same answer each time',
  );
  t.same(value.paged.slice(0, 4), value.first[0], 'the first page of the pages is that answer');
  t.equal(new Set(value.paged).size, 16, 'sixteen distinct items over four pages');
  t.ok(
    value.paged.every((i) => !likedBy(u).includes(i)),
    'none of them rated',
  );
});

t.test('lists made on requests past RECD_USER_LIST_CACHE are made again, the same', async (t) => {
  // One list held: two users taking turns evict each other's.
  const small = await startStack({ ...RECO_ENV, RECD_LIST_LENGTH: String(LIST), RECD_USER_LISTS_SECONDS: '0', RECD_USER_LIST_CACHE: '1' });
  t.teardown(() => small.close());
  const trained = await trainedDatabase(small.api, await rootToken(small.api));
  const get = (u: number, q: Record<string, string | number | boolean | undefined>) =>
    small.api.get(`recommendation/users/${uid(u)}/items/`, { token: trained.token, query: qs(q) });
  const answers = new Map<number, string[]>();
  for (let k = 0; k < 3; k++) {
    for (const u of [13, 14])
      answers.set(u, [
        ...(answers.get(u) ?? []),
        itemsOf(t, await get(u, { amt: 4, exclude_rated_items: true }), `user ${u}, turn ${k}`, 4).join(),
      ]);
  }
  for (const [u, got] of answers)
    t.ok(
      got.every((ids) => ids === got[0]),
      `user ${u}: the same answer each turn`,
    );
  for (const u of [13, 14]) {
    const paged = await pages(t, (cursor) => get(u, { amt: 4, exclude_rated_items: true, cursor }), 4, 16);
    t.equal(new Set(paged).size, 16, `user ${u}: sixteen distinct items over four pages`);
    t.ok(
      paged.every((i) => !likedBy(u).includes(i)),
      `user ${u}: none of them rated`,
    );
  }
});
