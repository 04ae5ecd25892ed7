// Call counts: every authenticated request counted per organisation (in total, by endpoint group,
// database, account, recommendation type and scenario), flushed every second, read back by label
// with paging and time windows; more than 100 points come back as 100 buckets; counts from two
// processes add up.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { CallCountsStore } from '../../src/store/call-counts-store.js';
import { uid } from '../helpers/feedback.js';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { until } from '../helpers/reco.js';
import { startPair } from '../helpers/stack.js';

const pair = await startPair();
t.teardown(() => pair.close());
const { a, b } = pair;
const root = await rootToken(a.api);
const db = await createDatabase(a.api, root);
const backend = await tokenFor(a.api, root, 'backend', db);
// The backend account and its organisation, as its token names them.
const me = JSON.parse(Buffer.from(backend.split('.')[1]!, 'base64url').toString()) as { sub: string; org: string };

// Requests to count, through both processes.
const ratings = { ratings: [{ user_id: uid(1), item_id: 1, rating: 5, timestamp: 1_700_000_000 }] };
const stored: number[] = [];
for (const s of [a, b, a]) stored.push((await s.api.put('ratings-bulk/', ratings, { token: backend })).status);
for (const s of [a, b]) await s.api.get('items/1/properties/', { token: backend }); // 404 NotFound: counted all the same
for (const [s, q] of [
  [a, 'scenario=promo'],
  [b, 'scenario=promo'],
  [a, undefined],
] as const) {
  await s.api.get('recommendation/items/1/items/', { token: backend, query: q }); // no model yet: 503, counted
}

type Series = { key: string; description: string; counts: number[]; extra_data: Record<string, string> };
const label = async (name: string, query?: string) =>
  (await a.api.get(`call-counts/historical/${name}/`, { token: root, query })).body as {
    timestamps: number[];
    series: Series[];
    has_next: boolean;
    next_cursor: string;
  };
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const countOf = async (name: string, key: string) => sum((await label(name)).series.find((s) => s.key === key)?.counts ?? []);

t.test('each label counts what it names, from both processes', async (t) => {
  t.same(stored, [200, 200, 200], 'the counted writes succeeded');
  // Each process flushes its counts every second, so one count may arrive a flush before another:
  // wait for every count asserted below (a count past its expected value never matches).
  const expected: [string, string, number][] = [
    ['ENDPOINTS', 'ratings-bulk', 3],
    ['ENDPOINTS', 'items', 2],
    ['ENDPOINTS', 'recommendation', 3],
    ['DBS', db, 8],
    ['ACCOUNTS', me.sub, 8],
    ['RECO_TYPES', 'item_to_items', 3],
    ['SCENARIOS', 'item_to_items/promo', 2],
  ];
  await until(
    'flushed',
    () => Promise.all(expected.map(([name, key]) => countOf(name, key))),
    (ns) => ns.every((n, k) => n === expected[k]![2]),
    10_000,
  );
  t.equal(await countOf('ENDPOINTS', 'ratings-bulk'), 3, 'ENDPOINTS: three PUT ratings-bulk/');
  t.equal(await countOf('ENDPOINTS', 'items'), 2, 'ENDPOINTS: two GET items/…, not found but counted');
  t.equal(await countOf('ENDPOINTS', 'recommendation'), 3);
  t.equal(await countOf('DBS', db), 8, 'DBS: every request of the database');
  const dbs = await label('DBS');
  const mine = dbs.series.find((s) => s.key === db)!;
  t.same(mine.extra_data, { db_id: db });
  t.match(mine.description, /^db-/, 'the database name as description');
  t.equal(await countOf('ACCOUNTS', me.sub), 8, 'ACCOUNTS: the backend account');
  const accounts = await label('ACCOUNTS');
  t.match(accounts.series.find((s) => s.key === me.sub)?.description, /^backend-.*@test\.local$/, 'accounts described by email');
  t.equal(await countOf('RECO_TYPES', 'item_to_items'), 3);
  t.equal(await countOf('SCENARIOS', 'item_to_items/promo'), 2, 'SCENARIOS: the requests that named one');
  const one = await b.api.get('call-counts/historical/SCENARIOS/item_to_items/promo/', { token: backend });
  t.equal(one.status, 200, 'backends read a scenario’s counts');
  t.equal(sum(one.body.counts), 2);
  t.equal(one.body.timestamps.length, one.body.counts.length);
  for (const empty of ['CHAT', 'LLM']) t.same((await label(empty)).series, [], `${empty}: nothing counted here`);
  const total = await a.api.get('call-counts/historical/', { token: root });
  t.equal(total.status, 200);
  t.ok(sum(total.body.counts) >= 8, `the organisation's total ${sum(total.body.counts)}`);
  t.ok(
    total.body.timestamps.every((ts: number) => ts % 60 === 0),
    'one-minute points',
  );
});

t.test('paging by amt and cursor lists every series once', async (t) => {
  const all = (await label('ENDPOINTS')).series.map((s) => s.key);
  t.ok(all.length >= 4, `series: ${all.join(', ')}`);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await label('ENDPOINTS', `amt=1${cursor ? `&cursor=${cursor}` : ''}`);
    t.equal(page.series.length, 1);
    seen.push(page.series[0]!.key);
    cursor = page.next_cursor || undefined;
    t.equal(page.has_next, cursor !== undefined);
  } while (cursor);
  t.same(seen, all);
});

t.test('time windows, and more than 100 points aggregated into 100 buckets', async (t) => {
  const store = new CallCountsStore(a.redis);
  const org = me.org;
  const start = Math.floor(Date.now() / 1000 / 60) * 60 - 300 * 60;
  for (let m = 0; m < 250; m++) await store.add(start + m * 60, [{ org, label: 'RECO_TYPES', key: 'session_to_items', n: 1 + (m % 3) }]);
  const expected = Array.from({ length: 250 }, (_, m) => 1 + (m % 3)).reduce((s, x) => s + x, 0);
  const wide = await label('RECO_TYPES', `start_timestamp=${start}&end_timestamp=${start + 250 * 60}`);
  t.equal(wide.timestamps.length, 100, '250 minutes → 100 buckets');
  t.equal(wide.timestamps[0], start);
  const series = wide.series.find((s) => s.key === 'session_to_items')!;
  t.equal(series.counts.length, 100);
  t.equal(sum(series.counts), expected, 'nothing lost in the buckets');
  const narrow = await label('RECO_TYPES', `start_timestamp=${start}&end_timestamp=${start + 10 * 60}`);
  t.equal(narrow.timestamps.length, 10, 'ten minutes: ten points, not aggregated');
  t.same(narrow.series.find((s) => s.key === 'session_to_items')!.counts, [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]);
  const none = await label('RECO_TYPES', `start_timestamp=${start - 86_400}&end_timestamp=${start - 3600}`);
  t.same(none.timestamps, [], 'a window before any count: no points');
});

t.test('bad requests', async (t) => {
  const get = (path: string, token = root, query?: string) => a.api.get(path, { token, query });
  t.same(
    errorOf(await get('call-counts/historical/NOPE/')),
    { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' },
    'unknown label',
  );
  t.equal((await get('call-counts/historical/ENDPOINTS/', root, 'amt=129')).status, 400, 'amt over 128');
  t.equal((await get('call-counts/historical/ENDPOINTS/', root, 'amt=0')).status, 400, 'amt 0');
  t.same(
    errorOf(await get('call-counts/historical/', root, 'start_timestamp=1700000100&end_timestamp=1700000000')),
    { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' },
    'start after end',
  );
  t.equal((await get('call-counts/historical/ENDPOINTS/', root, 'cursor=bogus')).status, 400, 'a cursor we never gave');
  t.equal((await get('call-counts/historical/SCENARIOS/nope/promo/', backend)).status, 400, 'unknown reco_type');
  t.equal((await get('call-counts/historical/', backend)).status, 403, 'backends may not read the totals');
  t.equal((await get('call-counts/historical/ENDPOINTS/', backend)).status, 403);
  t.equal((await a.api.get('call-counts/historical/')).status, 401, 'no token');
});
