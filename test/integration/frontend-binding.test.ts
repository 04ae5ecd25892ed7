// Frontend tokens (issue 18): a binding to a frontend user or session survives every refresh, and a
// frontend token without one reaches no single user's or session's data (docs/api-choices.md,
// "Frontend tokens").
import t from 'tap';
import { createDatabase, errorOf, frontendToken, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { uid } from '../helpers/feedback.js';
import { RECO_ENV, trainedDatabase } from '../helpers/reco.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const uint32 = { item_id_type: 'uint32', user_id_type: 'uint32', session_id_type: 'uint32' };
const db1 = await createDatabase(api, root, uint32);
const db2 = await createDatabase(api, root, uint32);
const backend = await tokenFor(api, root, 'backend', db1);

const forbidden = (name: string) => ({ status: 403, code: 50, errorName: 'ForbiddenError', name });
const jwtOf = (token: string) => api.post('login/jwt/', undefined, { token });
const ratingsOf = async (user: number) => (await api.get(`users/${user}/ratings/`, { token: backend })).body.user_ratings?.length;

// A frontend service account (the reproduction logs in with login/service/).
async function frontendService(): Promise<{ name: string; key: string }> {
  const name = unique('svc-front');
  const c = await api.post('accounts/service/', { name, role: 'frontend' }, { token: root });
  if (c.status !== 200) throw new Error(`service account creation failed: ${c.text}`);
  const k = await api.post('accounts/service/keys/', { name }, { token: root });
  if (k.status !== 200) throw new Error(`key creation failed: ${k.text}`);
  return { name, key: k.body.key };
}

// Users 6 and 7 rate item 1 (written by a backend).
for (const user of [6, 7]) {
  const r = await api.put(`users/${user}/ratings/1/`, { rating: 8 }, { token: backend });
  if (r.status !== 204) throw new Error(`rating failed: ${r.text}`);
}

t.test("the issue's reproduction: a binding does not fall off through a round trip to another database", async (t) => {
  const { name, key } = await frontendService();
  const login = await api.post('login/service/', { name, password: key, db_id: db1, frontend_user_id: 5 });
  t.equal(login.status, 200);
  t.equal(login.body.frontend_user_id, '5');

  // Onto database 2: refused, since the binding cannot come along (it names a user of database 1).
  const away = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token, db_id: db2 });
  t.same(errorOf(away), forbidden('INCORRECT_FRONTEND_USER_ID'));
  t.notOk(away.body.token, 'no token for database 2');

  // The refused refresh did not spend the token: back on database 1 (named, or by default) the binding holds.
  const named = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token, db_id: db1 });
  t.equal(named.status, 200);
  t.equal(named.body.frontend_user_id, '5');
  const kept = await api.post('login/refresh-token/', { refresh_token: named.body.refresh_token });
  t.equal(kept.status, 200);
  t.equal(kept.body.frontend_user_id, '5');
  t.equal(kept.body.database.id, db1);
  const j = await jwtOf(kept.body.token);
  t.equal(j.body.frontend_user_id, '5');
  t.equal(j.body.database.frontend_user_id, '5');

  // What the unbound token could do, refused for the bound one.
  const token = kept.body.token;
  t.same(
    errorOf(await api.post('users/6/interactions/1/', { interaction_type: 'view' }, { token })),
    forbidden('INCORRECT_FRONTEND_USER_ID'),
    "user 6's interactions",
  );
  t.same(errorOf(await api.delete('users/6/ratings/', undefined, { token })), forbidden('INCORRECT_FRONTEND_USER_ID'), "user 6's ratings");
  t.same(errorOf(await api.get('users/7/ratings/', { token })), forbidden('INCORRECT_FRONTEND_USER_ID'), "user 7's ratings");
  t.equal(await ratingsOf(6), 1, "user 6's rating is still there");
  // Its own user's data works.
  t.equal((await api.put('users/5/ratings/1/', { rating: 9 }, { token })).status, 204);
  t.equal((await api.get('users/~me/ratings/', { token })).body.user_ratings?.length, 1);
});

t.test('a session binding holds the same way', async (t) => {
  const { name, key } = await frontendService();
  const login = await api.post('login/service/', { name, password: key, db_id: db1, frontend_session_id: 11 });
  t.equal(login.status, 200);
  const away = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token, db_id: db2 });
  t.same(errorOf(away), forbidden('INCORRECT_FRONTEND_SESSION_ID'));
  const kept = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token });
  t.equal(kept.body.frontend_session_id, '11');
  const token = kept.body.token;
  t.same(
    errorOf(await api.post('sessions/12/items/1/interactions/', { interaction_type: 'view' }, { token })),
    forbidden('INCORRECT_FRONTEND_SESSION_ID'),
    'another session',
  );
  t.equal((await api.post('sessions/11/items/1/interactions/', { interaction_type: 'view' }, { token })).status, 200, 'its own session');
});

t.test('an unbound frontend session stays on its database too; other roles switch', async (t) => {
  const { name, key } = await frontendService();
  const login = await api.post('login/service/', { name, password: key, db_id: db1 });
  const moved = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token, db_id: db2 });
  t.same(errorOf(moved), forbidden('INCORRECT_ROLE'));
  const kept = await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token });
  t.equal(kept.body.database.id, db1);
  t.notOk('frontend_user_id' in kept.body);
  // A frontend session opened without a database picks one as a login would.
  const none = await api.post('login/service/', { name, password: key });
  t.equal((await api.post('login/refresh-token/', { refresh_token: none.body.refresh_token, db_id: db2 })).body.database?.id, db2);
  const backendLogin = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  const onDb1 = await api.post('login/refresh-token/', { refresh_token: backendLogin.body.refresh_token, db_id: db1 });
  t.equal(
    (await api.post('login/refresh-token/', { refresh_token: onDb1.body.refresh_token, db_id: db2 })).body.database?.id,
    db2,
    'root switches',
  );
});

t.test("a frontend token without a bound user reaches no user's or session's data", async (t) => {
  const token = await frontendToken(api, root, db1);
  const user = forbidden('INCORRECT_FRONTEND_USER_ID');
  const session = forbidden('INCORRECT_FRONTEND_SESSION_ID');
  const refused: [string, () => Promise<{ status: number; body: any }>, ReturnType<typeof forbidden>][] = [
    ['read ratings', () => api.get('users/7/ratings/', { token }), user],
    ['delete ratings', () => api.delete('users/6/ratings/', undefined, { token }), user],
    ['delete one rating', () => api.delete('users/6/ratings/1/', undefined, { token }), user],
    ['write ratings', () => api.put('users/6/ratings/', { ratings: [{ item_id: 1, rating: 2 }] }, { token }), user],
    ['write one rating', () => api.put('users/6/ratings/1/', { rating: 2 }, { token }), user],
    ['write an interaction', () => api.post('users/6/interactions/1/', { interaction_type: 'view' }, { token }), user],
    [
      'write interactions',
      () => api.post('users/6/interactions-bulk/', { interactions: [{ item_id: 1, interaction_type: 'view' }] }, { token }),
      user,
    ],
    ["a user's recommendations", () => api.get('recommendation/users/6/items/', { token }), user],
    [
      "a user's recommendations with context items",
      () => api.post('recommendation/context-items/users/6/items/', { context_items: [1] }, { token }),
      user,
    ],
    ["a user's property values", () => api.get('recommendation/users/6/items-properties/colour/', { token }), user],
    ["a user's precomputed list", () => api.get('recommendation/precomputed/users/6/items/', { token }), user],
    ['a user through the generic endpoint', () => api.post('recommendation/generic/items/', { user_id: 6 }, { token }), user],
    ['user_id for scenarios on item-to-items', () => api.get('recommendation/items/1/items/', { token, query: 'user_id=6' }), user],
    ['~me', () => api.get('users/~me/ratings/', { token }), user],
    ["a session's interaction", () => api.post('sessions/11/items/1/interactions/', { interaction_type: 'view' }, { token }), session],
    [
      "a session's interactions",
      () => api.post('sessions/11/interactions-bulk/', { interactions: [{ item_id: 1, interaction_type: 'view' }] }, { token }),
      session,
    ],
    [
      'a group of users',
      () => api.post('recommendation/users-groups/items/', { users_id: [6, 7] }, { token }),
      forbidden('INCORRECT_ROLE'),
    ],
  ];
  for (const [what, call, want] of refused) t.same(errorOf(await call()), want, what);
  t.equal(await ratingsOf(6), 1, "user 6's rating is still there");

  // What it may do: items, their properties, item-to-items and session recommendations from the
  // ratings the request carries, the database's status. Recommendations answer "not ready" here
  // (no model): past the access checks.
  const notReady = { status: 503, code: 1, errorName: 'ServerUnavailable', name: 'DATABASE_NOT_READY' };
  t.equal((await api.get('items-properties/', { token })).status, 200, 'item property definitions');
  t.same(
    errorOf(await api.get('items/1/properties/', { token })),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'ITEM_NOT_FOUND' },
    'an item',
  );
  t.equal((await api.get('databases/current/status/', { token })).status, 200, 'status');
  t.same(errorOf(await api.get('recommendation/items/1/items/', { token })), notReady, 'item to items');
  t.same(
    errorOf(await api.post('recommendation/sessions/items/', { ratings: [{ item_id: 1, rating: 8 }] }, { token })),
    notReady,
    'session to items',
  );
  t.same(errorOf(await api.post('recommendation/generic/items/', { item_id: 1 }, { token })), notReady, 'generic, for an item');
});

t.test('a bound frontend token names only its own user, in paths, queries and bodies', async (t) => {
  const token = await frontendToken(api, root, db1, 5);
  const user = forbidden('INCORRECT_FRONTEND_USER_ID');
  t.same(errorOf(await api.get('recommendation/users/6/items/', { token })), user);
  t.same(errorOf(await api.post('recommendation/generic/items/', { user_id: 6 }, { token })), user);
  t.same(errorOf(await api.get('recommendation/items/1/items/', { token, query: 'user_id=6' })), user);
  t.same(errorOf(await api.post('recommendation/users-groups/items/', { users_id: [5] }, { token })), forbidden('INCORRECT_ROLE'));
  const notReady = { status: 503, code: 1, errorName: 'ServerUnavailable', name: 'DATABASE_NOT_READY' };
  t.same(errorOf(await api.get('recommendation/users/5/items/', { token })), notReady, 'its own recommendations');
  t.same(errorOf(await api.get('recommendation/items/1/items/', { token, query: 'user_id=5' })), notReady, 'its own user_id');
});

t.test('on a trained database the refusals come before any answer, and a bound token gets its own', async (t) => {
  const { db } = await trainedDatabase(api, root);
  const unbound = await frontendToken(api, root, db);
  const bound = await frontendToken(api, root, db, uid(1));
  const user = forbidden('INCORRECT_FRONTEND_USER_ID');
  const session = { ratings: [{ item_id: 1, rating: 8 }] };
  t.same(
    errorOf(await api.post('recommendation/sessions/items/', { ...session, user_id: uid(1) }, { token: unbound })),
    user,
    'unbound: user_id on a session',
  );
  t.same(errorOf(await api.get(`recommendation/users/${uid(1)}/items/`, { token: unbound })), user, "unbound: a user's recommendations");
  t.same(
    errorOf(await api.get(`recommendation/items/1/items/`, { token: unbound, query: `user_id=${uid(1)}` })),
    user,
    'unbound: user_id on item-to-items',
  );
  t.equal((await api.post('recommendation/sessions/items/', session, { token: unbound })).status, 200, 'unbound: a session');
  t.equal((await api.get('recommendation/items/1/items/', { token: unbound })).status, 200, 'unbound: item to items');
  t.equal((await api.get(`recommendation/users/${uid(1)}/items/`, { token: bound })).status, 200, 'bound: its own recommendations');
  t.equal(
    (await api.post('recommendation/sessions/items/', { ...session, user_id: uid(1) }, { token: bound })).status,
    200,
    'bound: its own user_id',
  );
  t.same(errorOf(await api.get(`recommendation/users/${uid(2)}/items/`, { token: bound })), user, "bound: another user's recommendations");
  t.same(
    errorOf(await api.post('recommendation/sessions/items/', { ...session, user_id: uid(2) }, { token: bound })),
    user,
    'bound: another user_id',
  );
});
