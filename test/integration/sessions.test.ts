// When sessions end: deleted or expired service keys, password changes, refused refreshes.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { createDatabase, errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { PASSWORD, startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const db = await createDatabase(api, root);

async function serviceWithKeys(n: number, expiration?: number) {
  const name = unique('svc');
  await api.post('accounts/service/', { name, role: 'backend' }, { token: root });
  const keys = [];
  for (let i = 0; i < n; i++)
    keys.push((await api.post('accounts/service/keys/', { name, expiration_timestamp: expiration }, { token: root })).body);
  return { name, keys };
}

const incorrectRefresh = { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_REFRESH_TOKEN' };

t.test('deleting a service key ends the sessions opened with it, and only those', async (t) => {
  const { name, keys } = await serviceWithKeys(2);
  const s1 = (await api.post('login/service/', { name, password: keys[0].key, db_id: db })).body;
  const s2 = (await api.post('login/service/', { name, password: keys[1].key, db_id: db })).body;
  t.equal((await api.get('databases/current/status/', { token: s1.token })).status, 200, 'warm in the token cache');
  t.equal((await api.delete(`accounts/service/keys/${keys[0].id}/`, undefined, { token: root })).status, 204);
  t.same(errorOf(await api.get('databases/current/status/', { token: s1.token })), {
    status: 401,
    code: 22,
    errorName: 'JwtTokenExpired',
    name: 'INCORRECT_JWT_TOKEN',
  });
  t.same(errorOf(await api.post('login/refresh-token/', { refresh_token: s1.refresh_token })), incorrectRefresh);
  t.equal((await api.get('databases/current/status/', { token: s2.token })).status, 200, 'the other key still works');
  t.equal((await api.post('login/refresh-token/', { refresh_token: s2.refresh_token })).status, 200);
});

t.test('a session opened with a key that has since expired cannot be refreshed', async (t) => {
  const { name, keys } = await serviceWithKeys(1, Date.now() / 1000 + 1.5);
  const s = (await api.post('login/service/', { name, password: keys[0].key })).body;
  t.equal(s.role, 'backend');
  await new Promise((r) => setTimeout(r, 1700));
  t.same(errorOf(await api.post('login/refresh-token/', { refresh_token: s.refresh_token })), incorrectRefresh);
});

t.test('a password change ends refresh of the sessions opened before it', async (t) => {
  const email = `${unique('pw')}@test.local`;
  await api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: root });
  const before = (await api.post('login/individual/', { email, password: PASSWORD })).body;
  await new Promise((r) => setTimeout(r, 10));
  t.equal((await api.patch('accounts/individual/', { email, password: 'Another-password-2' }, { token: root })).status, 204);
  t.same(errorOf(await api.post('login/refresh-token/', { refresh_token: before.refresh_token })), incorrectRefresh);
  const after = (await api.post('login/individual/', { email, password: 'Another-password-2' })).body;
  t.equal((await api.post('login/refresh-token/', { refresh_token: after.refresh_token })).status, 200, 'sessions opened after it refresh');
});

t.test('a refused refresh does not spend the refresh token', async (t) => {
  const s = (await api.post('login/root/', { email: 'root@test.local', password: 'Root-password-1' })).body;
  const typo = await api.post('login/refresh-token/', { refresh_token: s.refresh_token, db_name: 'no-such-database' });
  t.same(errorOf(typo), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' });
  const ok = await api.post('login/refresh-token/', { refresh_token: s.refresh_token, db_id: db });
  t.equal(ok.status, 200, 'the same refresh token still works');
  t.equal(ok.body.database.id, db);
  t.same(errorOf(await api.post('login/refresh-token/', { refresh_token: s.refresh_token })), incorrectRefresh, 'and then it is spent');
});

t.test('concurrent refreshes with one token: exactly one wins', async (t) => {
  const s = (await api.post('login/root/', { email: 'root@test.local', password: 'Root-password-1' })).body;
  const results = await Promise.all([1, 2, 3, 4].map(() => api.post('login/refresh-token/', { refresh_token: s.refresh_token })));
  t.equal(results.filter((r) => r.status === 200).length, 1);
  for (const r of results.filter((r) => r.status !== 200)) t.same(errorOf(r), incorrectRefresh);
});
