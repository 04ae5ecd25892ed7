// GET databases/current/counts/ (recd's own, for the dashboard): the counts follow uploads and deletes
// of items, users, ratings, interactions and sessions, agree with what the listings show, stay each
// database's own, cost a few O(1) Redis commands, and are for root, manager, backend and demo_viewer.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { Value } from '@sinclair/typebox/value';
import t from 'tap';
import { ErrorBody } from '../../src/http/openapi.js';
import type { Res } from '../helpers/api.js';
import { errorOf, frontendToken, rootToken, tokenFor } from '../helpers/fixtures.js';
import { freshDatabase, INCORRECT_ROLE, uid, walkPages, why } from '../helpers/feedback.js';
import { keys } from '../../src/store/keys.js';
import { monitorServerOf } from '../helpers/redis-monitor.js';
import { tasksOf, until, type Tt } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token } = await freshDatabase(api, root);
const now = Math.floor(Date.now() / 1000);
// Session ids of the database (uuid, its default session id type).
const sid = (n: number) => uid(1000 + n);

interface Counts {
  items: number;
  users: number;
  ratings: number;
  interactions: number;
  sessions: number;
}

async function countsOf(tok: string): Promise<Counts & { warnings: string[] }> {
  const r = await api.get('databases/current/counts/', { token: tok });
  if (r.status !== 200) throw new Error(`counts: ${r.status} ${r.text}`);
  return r.body;
}

// The same numbers as the listings show them (walked page by page).
async function listed(tok: string): Promise<Counts> {
  const items = (await walkPages(api, tok, 'items-bulk/properties/', 'items')).rows;
  const users = (await walkPages(api, tok, 'users-bulk/properties/', 'users')).rows;
  const ratings = (await walkPages(api, tok, 'ratings-bulk/', 'ratings')).rows;
  const ofUsers = (await walkPages(api, tok, 'interactions-bulk/', 'interactions')).rows;
  const ofSessions = (await walkPages(api, tok, 'sessions-interactions-bulk/', 'interactions')).rows;
  return {
    items: items.length,
    users: users.length,
    ratings: ratings.length,
    interactions: ofUsers.length + ofSessions.length,
    sessions: new Set(ofSessions.map((i: { session_id: string }) => i.session_id)).size,
  };
}

// Each step's request, then the counts it must leave.
async function step(tt: Tt, what: string, call: () => Promise<Res>, status: number, want: Counts) {
  const r = await call();
  tt.equal(r.status, status, `${what}: ${why(r, status)}`);
  tt.strictSame(await countsOf(token), { ...want, warnings: [] }, what);
}

t.test('a new database counts nothing', async (t) => {
  t.strictSame(await countsOf(token), { items: 0, users: 0, ratings: 0, interactions: 0, sessions: 0, warnings: [] });
});

t.test('uploads of items, users, ratings, interactions and sessions are counted', async (t) => {
  let c: Counts = { items: 0, users: 0, ratings: 0, interactions: 0, sessions: 0 };
  const items = [1, 2, 3, 4, 5].map((item_id) => ({ item_id }));
  await step(t, 'five items', () => api.put('items-bulk/properties/', { items }, { token }), 200, (c = { ...c, items: 5 }));
  await step(t, 'the same items again', () => api.put('items-bulk/properties/', { items }, { token }), 200, c);
  await step(
    t,
    'three users',
    () => api.put('users-bulk/properties/', { users: [1, 2, 3].map((n) => ({ user_id: uid(n) })) }, { token }),
    200,
    (c = { ...c, users: 3 }),
  );
  const ratings = [
    { user_id: uid(1), item_id: 1, rating: 8, timestamp: now },
    { user_id: uid(1), item_id: 2, rating: 6, timestamp: now },
    // A user and an item known only from feedback: rated, but not in the catalogue.
    { user_id: uid(4), item_id: 1, rating: 3, timestamp: now },
    { user_id: uid(4), item_id: 6, rating: 5, timestamp: now },
  ];
  await step(t, 'four ratings', () => api.put('ratings-bulk/', { ratings }, { token }), 200, (c = { ...c, ratings: 4 }));
  await step(t, 'a rated pair rated again', () => api.put('ratings-bulk/', { ratings: [{ ...ratings[0], rating: 9 }] }, { token }), 200, c);

  const userRows = [
    { user_id: uid(1), item_id: 1, interaction_type: 'view' }, // an explicit rating stays: no new pair
    { user_id: uid(2), item_id: 3, interaction_type: 'view' },
    { user_id: uid(2), item_id: 3, interaction_type: 'click' },
  ];
  await step(
    t,
    "users' interactions",
    () => api.post('interactions-bulk/', { interactions: userRows }, { token }),
    200,
    (c = { ...c, interactions: 3, ratings: 5 }),
  );
  await step(
    t,
    'one interaction',
    () => api.post(`users/${uid(3)}/interactions/4/`, { interaction_type: 'view' }, { token }),
    200,
    (c = { ...c, interactions: 4, ratings: 6 }),
  );

  const sessionRows = [
    { session_id: sid(1), item_id: 1, interaction_type: 'view' },
    { session_id: sid(1), item_id: 2, interaction_type: 'view' },
    { session_id: sid(2), item_id: 1, interaction_type: 'view' },
  ];
  // Sessions not resolved to a user infer no rating.
  await step(
    t,
    "sessions' interactions",
    () => api.post('sessions-interactions-bulk/', { interactions: sessionRows }, { token }),
    200,
    (c = { ...c, interactions: 7, sessions: 2 }),
  );
  await step(
    t,
    "a new session's interaction",
    () => api.post(`sessions/${sid(3)}/items/5/interactions/`, { interaction_type: 'view' }, { token }),
    200,
    (c = { ...c, interactions: 8, sessions: 3 }),
  );
  await step(
    t,
    'more of a known session',
    () => api.post(`sessions/${sid(1)}/interactions-bulk/`, { interactions: [{ item_id: 3, interaction_type: 'view' }] }, { token }),
    200,
    (c = { ...c, interactions: 9 }),
  );

  const once = { token, headers: { 'idempotency-key': 'counts-once' } };
  const keyed = { interactions: [{ session_id: sid(4), item_id: 2, interaction_type: 'view' }] };
  await step(
    t,
    'a write with an Idempotency-Key',
    () => api.post('sessions-interactions-bulk/', keyed, once),
    200,
    (c = { ...c, interactions: 10, sessions: 4 }),
  );
  await step(t, 'the same write again, not applied', () => api.post('sessions-interactions-bulk/', keyed, once), 200, c);

  // Session 1's items 1, 2 and 3 become the user's inferred ratings; no interaction is added.
  await step(
    t,
    'a session resolved',
    () => api.post(`sessions/${sid(1)}/resolve/`, { user_id: uid(5) }, { token }),
    200,
    (c = { ...c, ratings: 9 }),
  );
  t.strictSame(await listed(token), c, 'the listings show as many');
});

t.test('deletes lower the counts', async (t) => {
  let c: Counts = { items: 5, users: 3, ratings: 9, interactions: 10, sessions: 4 };
  t.strictSame(await countsOf(token), { ...c, warnings: [] }, 'what the uploads left');
  await step(t, 'one item', () => api.delete('items/5/properties/', undefined, { token }), 204, (c = { ...c, items: 4 }));
  await step(
    t,
    'two items in bulk, one already gone',
    () => api.delete('items-bulk/properties/', { items_id: [4, 5] }, { token }),
    204,
    (c = { ...c, items: 3 }),
  );
  await step(t, 'one rating', () => api.delete(`users/${uid(1)}/ratings/2/`, undefined, { token }), 204, (c = { ...c, ratings: 8 }));
  await step(t, 'the same rating again', () => api.delete(`users/${uid(1)}/ratings/2/`, undefined, { token }), 204, c);
  // User 2: its record, its two interactions and the one pair they inferred.
  await step(
    t,
    'everything about one user',
    () => api.delete(`users/${uid(2)}/*/`, undefined, { token }),
    204,
    (c = { ...c, users: 2, interactions: 8, ratings: 7 }),
  );

  // In the background: user 3's interaction and inferred rating, user 5's three inferred ratings
  // (session 1's interactions stay the session's).
  const r = await api.delete('interactions-ratings-bulk/', { users_id: [uid(3), uid(5)] }, { token });
  t.equal(r.status, 202, why(r, 202));
  const [task] = await until(
    'the deletion task',
    () => tasksOf(api, token, 'interactions_ratings_deletion'),
    (ts) => ts.some((x) => x.status !== 'RUNNING'),
  );
  t.equal(task!.status, 'COMPLETED');
  c = { ...c, interactions: 7, ratings: 3 };
  t.strictSame(await countsOf(token), { ...c, warnings: [] }, 'interactions and ratings of two users');
  t.strictSame(await listed(token), c, 'the listings show as many');
});

t.test("a second database's counts are its own", async (t) => {
  const before = await countsOf(token);
  const other = await freshDatabase(api, root);
  t.strictSame(
    await countsOf(other.token),
    { items: 0, users: 0, ratings: 0, interactions: 0, sessions: 0, warnings: [] },
    'nothing of the first',
  );
  t.equal((await api.put('items-bulk/properties/', { items: [{ item_id: 1 }, { item_id: 9 }] }, { token: other.token })).status, 200);
  t.equal(
    (await api.put('ratings-bulk/', { ratings: [{ user_id: uid(1), item_id: 1, rating: 8, timestamp: now }] }, { token: other.token }))
      .status,
    200,
  );
  t.equal((await api.post(`sessions/${sid(9)}/items/9/interactions/`, { interaction_type: 'view' }, { token: other.token })).status, 200);
  t.strictSame(await countsOf(other.token), { items: 2, users: 0, ratings: 1, interactions: 1, sessions: 1, warnings: [] });
  t.strictSame(await countsOf(token), before, 'the first database unchanged');
});

t.test('an answer costs a few O(1) Redis commands, whatever the database holds', async (t) => {
  // A database of its own, so that no background task of another touches its keys meanwhile.
  const fresh = await freshDatabase(api, root);
  const seen: string[] = [];
  const monitor = await monitorServerOf(stack.redis, keys.database(fresh.db), (args) => {
    if (args.some((a) => a.startsWith(`{db:${fresh.db}}:`))) seen.push(args[0]!.toLowerCase());
  });
  try {
    await countsOf(fresh.token);
    await monitor.caughtUp();
  } finally {
    monitor.close();
  }
  t.strictSame([...new Set(seen)].sort(), ['get', 'hlen', 'hmget'], seen.join(' '));
  t.ok(seen.length <= 5, `${seen.length} commands`);
});

t.test('roles: root, manager, backend and demo_viewer read the counts; frontend is refused', async (t) => {
  const want = await countsOf(token);
  for (const role of ['root', 'manager', 'backend', 'demo_viewer']) {
    const r = await api.get('databases/current/counts/', { token: await tokenFor(api, root, role, db) });
    t.equal(r.status, 200, `${role}: ${why(r, 200)}`);
    t.strictSame(r.body, want, role);
  }
  const refused = await api.get('databases/current/counts/', { token: await frontendToken(api, root, db, uid(1)) });
  t.same(errorOf(refused), INCORRECT_ROLE, 'frontend');
  t.ok(Value.Check(ErrorBody, refused.body), `the spec's error body: ${refused.text}`);
  t.type(refused.body.message, 'string');
  t.equal((await api.get('databases/current/counts/')).status, 401, 'no token');
});
