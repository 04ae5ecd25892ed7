// Per-database quotas (docs/api-choices.md, "Quotas"): items and users known, ratings, interactions and
// property definitions, each refused with 403 QUOTA_EXCEEDED naming the quota once a write would pass
// it, storing nothing of that write, while writes within it (updates included) go on;
// GET databases/current/usage/ shows each against its limit; a training run past its time quota stops,
// recorded FAILED, and is not retried.
import t from 'tap';
import { errorOf, frontendToken, rootToken } from '../helpers/fixtures.js';
import { freshDatabase, range, uid, why } from '../helpers/feedback.js';
import { RATINGS, tasksOf, until, type Tt } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import type { Res } from '../helpers/api.js';

const QUOTA = { status: 403, code: 50, errorName: 'ForbiddenError', name: 'QUOTA_EXCEEDED' };

const stack = await startStack({
  RECD_TRAINING_POLL_MS: '3600000',
  RECD_QUOTA_ITEMS: '10',
  RECD_QUOTA_USERS: '5',
  RECD_QUOTA_RATINGS: '20',
  RECD_QUOTA_INTERACTIONS: '15',
  RECD_QUOTA_PROPERTIES: '2',
});
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token } = await freshDatabase(api, root);

async function usage(): Promise<Record<string, { used: number | null; limit: number }>> {
  const r = await api.get('databases/current/usage/', { token });
  if (r.status !== 200) throw new Error(why(r, 200));
  const { warnings, ...rest } = r.body;
  return rest;
}
const used = async (quota: string) => (await usage())[quota]!.used;

function refused(tt: Tt, r: Res, quota: string, limit: number) {
  tt.same(errorOf(r), QUOTA, `${quota}: ${r.text.slice(0, 200)}`);
  tt.equal(r.body.error_data?.quota, quota);
  tt.equal(r.body.error_data?.limit, limit);
}

t.test('property definitions', async (t) => {
  for (const name of ['a', 'b'])
    t.equal((await api.post('items-properties/', { property_name: name, value_type: 'int32' }, { token })).status, 204);
  refused(t, await api.post('items-properties/', { property_name: 'c', value_type: 'int32' }, { token }), 'properties', 2);
  t.equal(
    (await api.post('users-properties/', { property_name: 'age', value_type: 'int32' }, { token })).status,
    204,
    'user properties have a quota of their own',
  );
  t.equal(await used('item_properties'), 2);
  t.equal((await api.delete('items-properties/b/', undefined, { token })).status, 204);
  t.equal(
    (await api.post('items-properties/', { property_name: 'c', value_type: 'int32' }, { token })).status,
    204,
    'room again after a delete',
  );
});

t.test('items known: a request naming more is refused whole; updates go on', async (t) => {
  let r = await api.put('items-bulk/properties/', { items: range(1, 9).map((i) => ({ item_id: i, a: i })) }, { token });
  t.equal(r.status, 200, why(r, 200));
  r = await api.put('items-bulk/properties/', { items: range(7, 12).map((i) => ({ item_id: i, a: i })) }, { token });
  refused(t, r, 'items', 10);
  t.equal(await used('items'), 8, 'nothing of it stored');
  r = await api.get('items/9/properties/', { token });
  t.equal(r.status, 404, 'item 9 was not written');
  r = await api.put('items-bulk/properties/', { items: range(1, 11).map((i) => ({ item_id: i, a: 2 * i })) }, { token });
  t.equal(r.status, 200, `up to the quota: ${why(r, 200)}`);
  r = await api.put('items-bulk/properties/', { items: range(1, 11).map((i) => ({ item_id: i, a: 3 * i })) }, { token });
  t.equal(r.status, 200, `updates at the quota: ${why(r, 200)}`);
  refused(t, await api.put('items/11/properties/', { item: { a: 1 } }, { token }), 'items', 10);
  // Feedback naming a new item counts against the same quota.
  refused(t, await api.put(`users/${uid(1)}/ratings/`, { ratings: [{ item_id: 99, rating: 5 }] }, { token }), 'items', 10);
  t.equal(await used('items'), 10);
  t.equal(await used('ratings'), 0, 'the refused rating was not stored');
});

t.test('users known and ratings held', async (t) => {
  const rows = (users: number[], items: number[], rating = 5) =>
    users.flatMap((u) => items.map((i) => ({ user_id: uid(u), item_id: i, rating, timestamp: 100 })));
  let r = await api.put('ratings-bulk/', { ratings: rows(range(1, 6), range(1, 4)) }, { token });
  t.equal(r.status, 200, why(r, 200));
  refused(t, await api.put('ratings-bulk/', { ratings: rows([6], [1]) }, { token }), 'users', 5);
  t.equal(await used('users'), 5);
  r = await api.put('ratings-bulk/', { ratings: rows(range(1, 6), [4]) }, { token });
  t.equal(r.status, 200, `up to 20 ratings: ${why(r, 200)}`);
  t.equal(await used('ratings'), 20);
  refused(t, await api.put('ratings-bulk/', { ratings: rows([1], [5]) }, { token }), 'ratings', 20);
  r = await api.put('ratings-bulk/', { ratings: rows(range(1, 6), range(1, 5), 9) }, { token });
  t.equal(r.status, 200, `updating all 20 at the quota: ${why(r, 200)}`);
  const mine = await api.get(`users/${uid(3)}/ratings/`, { token, query: 'amt=10' });
  t.strictSame(
    mine.body.user_ratings.map((x: { rating: number }) => x.rating),
    [9, 9, 9, 9],
  );
  // An interaction of a user may infer a new rating: refused at the ratings quota, nothing stored.
  refused(t, await api.post(`users/${uid(1)}/interactions/5/`, { interaction_type: 'view' }, { token }), 'ratings', 20);
  t.equal(await used('interactions'), 0);
  t.equal((await api.delete(`users/${uid(1)}/ratings/1/`, undefined, { token })).status, 204);
  t.equal((await api.put(`users/${uid(1)}/ratings/5/`, { rating: 4 }, { token })).status, 204, 'room again after a delete');
});

t.test('interactions held', async (t) => {
  const rows = (n: number, from = 1) =>
    range(from, from + n).map((k) => ({ item_id: 1 + (k % 10), interaction_type: 'view', timestamp: 100 + k }));
  let r = await api.post(`sessions/${uid(500)}/interactions-bulk/`, { interactions: rows(12) }, { token });
  t.equal(r.status, 200, why(r, 200));
  refused(t, await api.post(`sessions/${uid(501)}/interactions-bulk/`, { interactions: rows(4) }, { token }), 'interactions', 15);
  t.equal(await used('interactions'), 12, 'nothing of it stored');
  r = await api.post(`sessions/${uid(501)}/interactions-bulk/`, { interactions: rows(3) }, { token });
  t.equal(r.status, 200, `up to the quota: ${why(r, 200)}`);
  // With an Idempotency-Key, a refused write leaves the key free: the same write is refused again,
  // not taken for one already applied.
  for (let k = 0; k < 2; k++) {
    refused(
      t,
      await api.post(
        `sessions/${uid(502)}/interactions-bulk/`,
        { interactions: rows(1) },
        { token, headers: { 'idempotency-key': 'once-1' } },
      ),
      'interactions',
      15,
    );
  }
});

t.test('usage shows every quota against its limit', async (t) => {
  const u = await usage();
  t.strictSame(u.items, { used: 10, limit: 10 });
  t.strictSame(u.users, { used: 5, limit: 5 });
  t.strictSame(u.ratings, { used: 20, limit: 20 });
  t.strictSame(u.interactions, { used: 15, limit: 15 });
  t.strictSame(u.item_properties, { used: 2, limit: 2 });
  t.strictSame(u.user_properties, { used: 1, limit: 2 });
  t.strictSame(u.record_bytes, { used: null, limit: 65536 });
  t.strictSame(u.training_seconds, { used: null, limit: 3600 });
  t.strictSame(u.requests_per_second, { used: null, limit: 0 });
  const frontend = await api.get('databases/current/usage/', { token: await frontendToken(api, root, db) });
  t.equal(frontend.status, 403, 'not for frontend tokens');
});

t.test('a training run past its time quota stops, FAILED, and is not retried', async (t) => {
  // Large factors and many iterations: without the quota this run would take minutes.
  const slow = await startStack({
    RECD_QUOTA_TRAINING_SECONDS: '1',
    RECD_ALS_FACTORS: '256',
    RECD_ALS_ITERATIONS: '1000',
    RECD_SEARCH_SECONDS: '0',
    RECD_TRAINING_POLL_MS: '200',
    RECD_TRAINING_RETRY_SECONDS: '1',
  });
  t.teardown(() => slow.close());
  const r0 = await rootToken(slow.api);
  const { token: tok } = await freshDatabase(slow.api, r0);
  const r = await slow.api.put('ratings-bulk/', { ratings: RATINGS }, { token: tok });
  t.equal(r.status, 200, why(r, 200));
  const started = Date.now();
  const runs = await until(
    'the retrain settled',
    () => tasksOf(slow.api, tok, 'ml_model_retrain'),
    (ts) => ts.some((x) => x.status === 'FAILED'),
    90_000,
  );
  const failed = runs.find((x) => x.status === 'FAILED')!;
  t.match(failed.error, /training time quota of 1 s/, failed.error ?? '');
  t.ok(Date.now() - started < 60_000, 'stopped long before the run would have ended');
  await new Promise((ok) => setTimeout(ok, 3000));
  const after = await tasksOf(slow.api, tok, 'ml_model_retrain');
  t.notOk(
    after.some((x) => x.status === 'QUEUED' || x.status === 'RUNNING'),
    `no retry queued: ${JSON.stringify(after.map((x) => x.status))}`,
  );
  const u = await slow.api.get('databases/current/usage/', { token: tok });
  t.ok(
    u.body.training_seconds.used >= 1 && u.body.training_seconds.used < 60,
    `the run's seconds shown: ${JSON.stringify(u.body.training_seconds)}`,
  );
});
