// A user, a session and a database holding far more feedback than one request asks for: every read
// and write of it costs Redis what its page or batch asks for (docs/security.md, "What one request
// costs Redis"). Redis's own slow log, on this test's private server, must show no command over
// SLOW_MS while the heavy reads and small writes run; reading the whole of this user took 0.3-0.9 s
// a call before.
import t from 'tap';
import { freshDatabase, range, uid, why } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

// Far above what a bounded call takes here (a few ms at most, more on a loaded machine, where Redis
// may wait for a core mid-command), far below what a whole-user read or delete took (0.3-0.9 s).
const SLOW_MS = 100;
const RATINGS = 100_000;
const INTERACTIONS = 40_000;
const SESSION_INTERACTIONS = 5_000;

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root);
const heavy = uid(1);
const session = uid(2);

// The heavy user and session, written in requests of the size clients send.
for (let from = 1; from <= RATINGS; from += 16_384) {
  const ratings = range(from, Math.min(RATINGS + 1, from + 16_384)).map((i) => ({ item_id: i, rating: 1 + (i % 10) * 0.9, timestamp: i }));
  const r = await api.put(`users/${heavy}/ratings/`, { ratings }, { token });
  if (r.status !== 200) throw new Error(why(r, 200));
}
for (let from = 1; from <= INTERACTIONS; from += 10_000) {
  const interactions = range(from, from + 10_000).map((i) => ({ item_id: RATINGS + i, interaction_type: 'view', timestamp: RATINGS + i }));
  const r = await api.post(`users/${heavy}/interactions-bulk/`, { interactions }, { token });
  if (r.status !== 200) throw new Error(why(r, 200));
}
{
  const interactions = range(1, SESSION_INTERACTIONS + 1).map((i) => ({
    item_id: 500_000 + i,
    interaction_type: 'purchase',
    timestamp: 1e6 + i,
  }));
  const r = await api.post(`sessions/${session}/interactions-bulk/`, { interactions }, { token });
  if (r.status !== 200) throw new Error(why(r, 200));
}

async function slowCommands(): Promise<string[]> {
  const entries = (await redis.call('SLOWLOG', 'GET', '128')) as [number, number, number, string[]][];
  return entries.map(([, , micros, args]) => `${(micros / 1000).toFixed(1)} ms: ${args.slice(0, 3).join(' ').slice(0, 120)}`);
}

t.test('reads and small writes of a heavy user and session: no Redis command over the bound', async (t) => {
  await redis.call('CONFIG', 'SET', 'slowlog-log-slower-than', String(SLOW_MS * 1000));
  await redis.call('SLOWLOG', 'RESET');

  let r = await api.get(`users/${heavy}/ratings/`, { token, query: 'amt=1' });
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(
    r.body.user_ratings.map((x: { item_id: number }) => x.item_id),
    [RATINGS + INTERACTIONS],
    'the newest, an inferred one',
  );
  t.equal(r.body.has_next, true);
  r = await api.get(`users/${heavy}/ratings/`, { token, query: `amt=2&page=${(RATINGS + INTERACTIONS) / 2}` });
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(
    r.body.user_ratings.map((x: { item_id: number }) => x.item_id),
    [2, 1],
    'a deep page',
  );
  r = await api.get('ratings-bulk/', { token, query: 'amt=5' });
  t.equal(r.status, 200, why(r, 200));
  t.equal(r.body.ratings.length, 5);
  r = await api.get('ratings-bulk/', { token, query: `amt=5&cursor=${encodeURIComponent(r.body.next_cursor)}` });
  t.strictSame(
    r.body.ratings.map((x: { item_id: number }) => x.item_id),
    [6, 7, 8, 9, 10],
    'the walk goes on inside the user',
  );
  r = await api.put(`users/${heavy}/ratings/50000/`, { rating: 3, timestamp: 2e6 }, { token });
  t.equal(r.status, 204, why(r, 204));
  r = await api.get(`users/${heavy}/ratings/`, { token, query: 'amt=1' });
  t.strictSame(r.body.user_ratings, [{ item_id: 50_000, rating: 3, timestamp: 2e6 }], 'an update of a held item lists it first');
  r = await api.delete(`users/${heavy}/ratings/50000/`, undefined, { token });
  t.equal(r.status, 204, why(r, 204));
  r = await api.post(`users/${heavy}/interactions/7/`, { interaction_type: 'view', timestamp: 3e6 }, { token });
  t.equal(r.status, 200, why(r, 200));
  r = await api.get(`users/${heavy}/interactions-bulk/`, { token, query: 'amt=3' });
  t.equal(r.status, 200, why(r, 200));
  t.equal(r.body.interactions.length, 3);

  // Resolving the session turns its newest interactions into the user's ratings, a bounded number.
  r = await api.post(`sessions/${session}/resolve/`, { user_id: heavy }, { token });
  t.equal(r.status, 200, why(r, 200));
  r = await api.get(`users/${heavy}/ratings/`, { token, query: 'amt=1' });
  t.strictSame(
    r.body.user_ratings.map((x: { item_id: number }) => x.item_id),
    [500_000 + SESSION_INTERACTIONS],
    "the session's newest interaction is the user's newest rating",
  );
  r = await api.post('resolved-sessions/', { users_id: [heavy], amt: 10 }, { token });
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(
    r.body.resolved_sessions.map((x: { session_id: string }) => x.session_id),
    [session],
  );

  t.strictSame(await slowCommands(), [], `no command over ${SLOW_MS} ms`);
});

t.test('deleting the heavy user’s feedback runs in bounded calls and removes all of it', async (t) => {
  await redis.call('SLOWLOG', 'RESET');
  const r = await api.delete('interactions-ratings-bulk/', { users_id: [heavy] }, { token });
  t.equal(r.status, 202, why(r, 202));
  for (let k = 0; k < 600; k++) {
    const tasks = await api.get('tasks/interactions_ratings_deletion/recents/', { token });
    if (tasks.body.tasks?.some((x: { task_id: string; status: string }) => x.task_id === r.body.task_id && x.status !== 'RUNNING')) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const left = await api.get(`users/${heavy}/ratings/`, { token, query: 'amt=1' });
  t.strictSame(left.body.user_ratings, [], 'no rating left');
  const interactions = await api.get(`users/${heavy}/interactions-bulk/`, { token, query: 'amt=1' });
  t.strictSame(interactions.body.interactions, [], 'no interaction left');
  const sessions = await api.post('resolved-sessions/', { users_id: [heavy] }, { token });
  t.strictSame(sessions.body.resolved_sessions, [], 'the session no longer resolved to the user');
  t.strictSame(await slowCommands(), [], `no command over ${SLOW_MS} ms`);
});
