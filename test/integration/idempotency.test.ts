// Retrying writes: interactions sent again with the same Idempotency-Key are stored once (single and
// bulk, users and sessions, also when the copies arrive together), keys are per database and expire
// after RECD_IDEMPOTENCY_TTL_SECONDS, bad keys are refused; ratings written twice are held once.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { freshDatabase, hasWarning, ratingCount, uid, walkPages, why } from '../helpers/feedback.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_IDEMPOTENCY_TTL_SECONDS: '1' });
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);
const REPEAT = 'was applied before';

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
const listed = async (token: string, path: string) => (await walkPages(api, token, path, 'interactions')).rows;

t.test('a single interaction sent twice with one key is stored once; the repeat says so', async (t) => {
  const { token } = await freshDatabase(api, root);
  const key = randomUUID();
  const body = { interaction_type: 'view', timestamp: 1_700_000_000 };
  const first = await api.post(`users/${uid(1)}/interactions/7/`, body, { token, ...keyed(key) });
  t.equal(first.status, 200, why(first, 200));
  t.same(first.body.warnings, []);
  const again = await api.post(`users/${uid(1)}/interactions/7/`, body, { token, ...keyed(key) });
  t.equal(again.status, 200, why(again, 200));
  t.ok(hasWarning(again, REPEAT, key), 'the repeat names its key');
  t.equal((await listed(token, `users/${uid(1)}/interactions-bulk/`)).length, 1);
  const other = await api.post(`users/${uid(1)}/interactions/7/`, body, { token, ...keyed(randomUUID()) });
  t.equal(other.status, 200, why(other, 200));
  const none = await api.post(`users/${uid(1)}/interactions/7/`, body, { token });
  t.equal(none.status, 200, why(none, 200));
  t.equal((await listed(token, `users/${uid(1)}/interactions-bulk/`)).length, 3, 'another key, or none, is another write');
});

t.test('copies of a keyed bulk write arriving together are stored once', async (t) => {
  const { token, db } = await freshDatabase(api, root);
  const key = randomUUID();
  const interactions = [1, 2, 3].map((i) => ({ user_id: uid(i), item_id: i, interaction_type: 'purchase', timestamp: 1_700_000_000 + i }));
  const answers = await Promise.all(
    Array.from({ length: 12 }, () => api.post('interactions-bulk/', { interactions }, { token, ...keyed(key) })),
  );
  t.same(
    answers.map((r) => r.status),
    answers.map(() => 200),
  );
  t.equal(answers.filter((r) => !hasWarning(r, REPEAT)).length, 1, 'one applied, the others answered as repeats');
  t.equal((await listed(token, 'interactions-bulk/')).length, 3);
  t.equal(await ratingCount(redis, db), 3, 'inferred ratings counted once');
  // Unkeyed writes arriving meanwhile still go together and are all stored.
  const plain = await Promise.all(
    [4, 5, 6].map((i) => api.post(`users/${uid(i)}/interactions/${i}/`, { interaction_type: 'view' }, { token })),
  );
  t.same(
    plain.map((r) => r.status),
    [200, 200, 200],
  );
  t.equal((await listed(token, 'interactions-bulk/')).length, 6);
});

t.test('session interactions take keys too; keys are per database', async (t) => {
  const a = await freshDatabase(api, root);
  const b = await freshDatabase(api, root);
  const key = randomUUID();
  const body = { interactions: [{ item_id: 3, interaction_type: 'view', timestamp: 1_700_000_000 }] };
  for (let k = 0; k < 2; k++) {
    const r = await api.post(`sessions/${uid(9)}/interactions-bulk/`, body, { token: a.token, ...keyed(key) });
    t.equal(r.status, 200, why(r, 200));
  }
  const inB = await api.post(`sessions/${uid(9)}/interactions-bulk/`, body, { token: b.token, ...keyed(key) });
  t.equal(inB.status, 200, why(inB, 200));
  t.notOk(hasWarning(inB, REPEAT), 'the same key in another database is another write');
  t.equal((await listed(a.token, `sessions/${uid(9)}/interactions-bulk/`)).length, 1);
  t.equal((await listed(b.token, `sessions/${uid(9)}/interactions-bulk/`)).length, 1);
});

t.test('a key is forgotten after RECD_IDEMPOTENCY_TTL_SECONDS', async (t) => {
  const { token, db } = await freshDatabase(api, root);
  const key = randomUUID();
  const send = () => api.post(`users/${uid(2)}/interactions/1/`, { interaction_type: 'view' }, { token, ...keyed(key) });
  t.equal((await send()).status, 200);
  const ttl = await redis.pttl(keys.idempotencyKey(db, key));
  t.ok(ttl > 0 && ttl <= 1000, `the key expires within the TTL (${ttl} ms left)`);
  while ((await redis.exists(keys.idempotencyKey(db, key))) === 1) await new Promise((r) => setTimeout(r, 50));
  const later = await send();
  t.notOk(hasWarning(later, REPEAT), 'sent again after the TTL, it is a new write');
  t.equal((await listed(token, `users/${uid(2)}/interactions-bulk/`)).length, 2);
});

t.test('bad keys are refused before anything is stored', async (t) => {
  const { token } = await freshDatabase(api, root);
  for (const key of ['with space', 'x'.repeat(256), 'a\tb']) {
    const r = await api.post(`users/${uid(3)}/interactions/1/`, { interaction_type: 'view' }, { token, ...keyed(key) });
    t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, JSON.stringify(key.slice(0, 20)));
    t.equal(r.body.error_data.field, 'Idempotency-Key');
  }
  t.equal((await listed(token, `users/${uid(3)}/interactions-bulk/`)).length, 0);
});

t.test('ratings are keyed by (user, item): the same write twice holds one rating', async (t) => {
  const { token, db } = await freshDatabase(api, root);
  for (let k = 0; k < 2; k++) {
    const one = await api.put(`users/${uid(1)}/ratings/5/`, { rating: 7, timestamp: 1_700_000_000 }, { token });
    t.equal(one.status, 204, why(one, 204));
    const bulk = await api.put(
      'ratings-bulk/',
      { ratings: [1, 2, 3].map((i) => ({ user_id: uid(2), item_id: i, rating: i + 1, timestamp: 1_700_000_000 })) },
      { token },
    );
    t.equal(bulk.status, 200, why(bulk, 200));
  }
  t.equal(await ratingCount(redis, db), 4);
  const r = await api.get(`users/${uid(2)}/ratings/`, { token });
  t.same(r.body.user_ratings.map((x: { item_id: number; rating: number }) => [x.item_id, x.rating]).sort(), [
    [1, 2],
    [2, 3],
    [3, 4],
  ]);
  const one = await api.get(`users/${uid(1)}/ratings/`, { token });
  t.same(one.body.user_ratings, [{ item_id: 5, rating: 7, timestamp: 1_700_000_000 }]);
});
