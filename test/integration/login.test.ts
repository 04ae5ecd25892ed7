// Logins (root, individual, service, refresh token), login/jwt, and how bearer tokens are checked:
// missing, malformed, tampered, revoked and expired tokens.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import jwt from 'jsonwebtoken';
import t from 'tap';
import { createDatabase, errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const dbName = unique('logindb');
const dbId = await createDatabase(api, root, {
  name: dbName,
  description: 'login tests',
  item_id_type: 'uint32',
  user_id_type: 'uuid',
  session_id_type: 'uuid',
});
const otherDbName = unique('otherdb');
const otherDbId = await createDatabase(api, root, {
  name: otherDbName,
  item_id_type: 'urlsafe',
  user_id_type: 'uint64',
  session_id_type: 'urlsafe',
});

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
const jwtOf = (token: string) => api.post('login/jwt/', undefined, { token });

async function individual(role = 'backend', extra: Record<string, unknown> = {}) {
  const email = `${unique(role)}@test.local`;
  const r = await api.post('accounts/individual/', { email, role, password: PASSWORD, ...extra }, { token: root });
  if (r.status !== 200) throw new Error(`account creation failed: ${r.text}`);
  return { email, id: r.body.id as string };
}

async function service(role = 'backend', metadata: Record<string, unknown> = {}) {
  const name = unique(`svc-${role}`);
  const c = await api.post('accounts/service/', { name, role, metadata }, { token: root });
  if (c.status !== 200) throw new Error(`service account creation failed: ${c.text}`);
  const k = await api.post('accounts/service/keys/', { name }, { token: root });
  if (k.status !== 200) throw new Error(`key creation failed: ${k.text}`);
  return { name, key: k.body.key as string };
}

t.test('login/root/ answers token, org_id, role, refresh_token and account', async (t) => {
  const r = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.equal(r.status, 200);
  t.match(r.body.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  t.type(r.body.org_id, 'string');
  t.equal(r.body.role, 'root');
  t.type(r.body.refresh_token, 'string');
  t.not(r.body.refresh_token, r.body.token);
  t.match(r.body.account, { role: 'root', email: ROOT_EMAIL });
  t.type(r.body.account.id, 'string');
  t.notOk('database' in r.body, 'no database without db_id or db_name');
  const j = await jwtOf(r.body.token);
  t.equal(j.status, 200);
  t.equal(j.body.org_id, r.body.org_id);
  t.same(j.body.account, { id: r.body.account.id, role: 'root' });
  t.notOk('database' in j.body);
});

t.test('login/root/ refuses a wrong password, an unknown e-mail and non-root accounts with INCORRECT_PASSWORD', async (t) => {
  const { email } = await individual('manager');
  const cases: [string, Record<string, string>][] = [
    ['wrong password', { email: ROOT_EMAIL, password: 'Wrong-password-1' }],
    ['unknown e-mail', { email: 'nobody@test.local', password: ROOT_PASSWORD }],
    ['non-root account with its right password', { email, password: PASSWORD }],
  ];
  for (const [what, body] of cases) {
    const r = await api.post('login/root/', body);
    t.same(errorOf(r), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' }, what);
    t.notOk(r.body.token, what);
  }
  // The manager's own login works, so the refusal above is about login/root/.
  t.equal((await api.post('login/individual/', { email, password: PASSWORD })).status, 200);
});

t.test('login/individual/ with db_id, then db_name: database and account fields', async (t) => {
  const { email, id } = await individual('backend', { first_name: 'Alan', last_name: 'Turing', metadata: { desk: 7 } });
  const first = await api.post('login/individual/', { email, password: PASSWORD, db_id: dbId });
  t.equal(first.status, 200);
  t.type(first.body.token, 'string');
  t.type(first.body.refresh_token, 'string');
  t.type(first.body.org_id, 'string');
  t.equal(first.body.role, 'backend');
  t.same(first.body.database, {
    id: dbId,
    name: dbName,
    description: 'login tests',
    item_id_type: 'uint32',
    user_id_type: 'uuid',
    session_id_type: 'uuid',
    status: 'pending',
  });
  t.match(first.body.account, { id, role: 'backend', first_name: 'Alan', last_name: 'Turing', email });
  t.equal(first.body.account.metadata.desk, 7);
  t.equal(first.body.account.metadata.previous_login_timestamp, null);
  t.type(first.body.account.metadata.password_updated_timestamp, 'number');
  t.notOk(JSON.stringify(first.body.account).includes('scrypt'), 'no password hash');

  const second = await api.post('login/individual/', { email, password: PASSWORD, db_name: dbName });
  t.equal(second.status, 200);
  t.equal(second.body.database.id, dbId);
  t.equal(second.body.database.name, dbName);
  t.type(second.body.account.metadata.previous_login_timestamp, 'number');
  t.equal(second.body.account.metadata.password_updated_timestamp, first.body.account.metadata.password_updated_timestamp);

  const j = await jwtOf(second.body.token);
  t.equal(j.status, 200);
  t.match(j.body.database, { id: dbId, item_id_type: 'uint32', user_id_type: 'uuid', session_id_type: 'uuid' });
  t.same(j.body.account, { id, role: 'backend' });

  const other = await api.post('login/individual/', { email, password: PASSWORD, db_name: otherDbName });
  t.equal(other.body.database.id, otherDbId);
  t.equal(other.body.database.user_id_type, 'uint64');

  const none = await api.post('login/individual/', { email, password: PASSWORD });
  t.equal(none.status, 200);
  t.notOk('database' in none.body);
});

t.test('login/individual/ errors: unknown database, wrong password', async (t) => {
  const { email } = await individual();
  const missingId = randomUUID();
  const byId = await api.post('login/individual/', { email, password: PASSWORD, db_id: missingId });
  t.same(errorOf(byId), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' });
  t.equal(byId.body.error_data.type, 'database');
  t.equal(byId.body.error_data.key, missingId);
  const missingName = unique('nodb');
  const byName = await api.post('login/individual/', { email, password: PASSWORD, db_name: missingName });
  t.same(errorOf(byName), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' });
  t.equal(byName.body.error_data.type, 'database');
  t.equal(byName.body.error_data.key, missingName);
  const wrong = await api.post('login/individual/', { email, password: 'Wrong-password-1', db_id: dbId });
  t.same(errorOf(wrong), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
});

t.test('login/service/ with a key', async (t) => {
  const { name, key } = await service('backend', { team: 'data' });
  const r = await api.post('login/service/', { name, password: key, db_id: dbId });
  t.equal(r.status, 200);
  t.type(r.body.token, 'string');
  t.type(r.body.refresh_token, 'string');
  t.type(r.body.org_id, 'string');
  t.equal(r.body.role, 'backend');
  t.same(r.body.account, { name, role: 'backend', metadata: { team: 'data' } });
  t.equal(r.body.database.id, dbId);
  t.equal(r.body.database.status, 'pending');
  const j = await jwtOf(r.body.token);
  t.equal(j.body.account.role, 'backend');
  t.equal(j.body.database.id, dbId);
  const byName = await api.post('login/service/', { name, password: key, db_name: dbName });
  t.equal(byName.body.database.id, dbId);

  for (const [what, body] of [
    ['wrong key', { name, password: `${key}x` }],
    ['unknown name', { name: unique('nosvc'), password: key }],
  ] as const) {
    t.same(
      errorOf(await api.post('login/service/', body)),
      { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' },
      what,
    );
  }
  const nodb = await api.post('login/service/', { name, password: key, db_id: randomUUID() });
  t.equal(nodb.body.error_data?.name, 'DATABASE_NOT_FOUND');
});

t.test('a frontend service login carries frontend_user_id and frontend_session_id', async (t) => {
  const { name, key } = await service('frontend');
  const user = randomUUID();
  const session = randomUUID();
  const r = await api.post('login/service/', { name, password: key, db_id: dbId, frontend_user_id: user, frontend_session_id: session });
  t.equal(r.status, 200);
  t.equal(r.body.role, 'frontend');
  t.equal(r.body.frontend_user_id, user);
  t.equal(r.body.frontend_session_id, session);

  const j = await jwtOf(r.body.token);
  t.equal(j.status, 200);
  t.equal(j.body.frontend_user_id, user);
  t.same(j.body.account.role, 'frontend');
  t.match(j.body.database, {
    id: dbId,
    item_id_type: 'uint32',
    user_id_type: 'uuid',
    session_id_type: 'uuid',
    frontend_user_id: user,
    frontend_session_id: session,
  });

  // The refreshed token keeps them on the same database.
  const f = await api.post('login/refresh-token/', { refresh_token: r.body.refresh_token });
  t.equal(f.status, 200);
  t.equal(f.body.frontend_user_id, user);
  t.equal(f.body.frontend_session_id, session);
  t.equal((await jwtOf(f.body.token)).body.frontend_user_id, user);

  const badUser = await api.post('login/service/', { name, password: key, db_id: dbId, frontend_user_id: 'not-a-uuid' });
  t.same(errorOf(badUser), { status: 400, code: 40, errorName: 'WrongData', name: 'INCORRECT_USER_ID_TYPE' });
  const badSession = await api.post('login/service/', {
    name,
    password: key,
    db_id: dbId,
    frontend_user_id: user,
    frontend_session_id: 12,
  });
  t.same(errorOf(badSession), { status: 400, code: 40, errorName: 'WrongData', name: 'INCORRECT_SESSION_ID_TYPE' });
  // On a database with uint64 user IDs a number is the right type.
  const other = await api.post('login/service/', { name, password: key, db_id: otherDbId, frontend_user_id: 42 });
  t.equal(other.status, 200);
  t.equal(String(other.body.frontend_user_id), '42');
});

t.test('login/jwt/ describes the token', async (t) => {
  const { email, id } = await individual('manager');
  const l = await api.post('login/individual/', { email, password: PASSWORD, db_name: otherDbName });
  const j = await jwtOf(l.body.token);
  t.equal(j.status, 200);
  t.equal(j.body.org_id, l.body.org_id);
  t.same(j.body.account, { id, role: 'manager' });
  t.match(j.body.database, { id: otherDbId, item_id_type: 'urlsafe', user_id_type: 'uint64', session_id_type: 'urlsafe' });
  t.ok(Array.isArray(j.body.warnings));
  t.notOk('frontend_user_id' in j.body, 'no frontend_user_id for a non-frontend account');
});

t.test('login/refresh-token/ returns a new token and a new refresh token; the old one stops working', async (t) => {
  const { email, id } = await individual();
  const l = await api.post('login/individual/', { email, password: PASSWORD, db_id: dbId });
  const r = await api.post('login/refresh-token/', { refresh_token: l.body.refresh_token });
  t.equal(r.status, 200);
  t.type(r.body.token, 'string');
  t.type(r.body.refresh_token, 'string');
  t.not(r.body.refresh_token, l.body.refresh_token);
  t.equal(r.body.org_id, l.body.org_id);
  t.equal(r.body.role, 'backend');
  t.match(r.body.account, { id, email, role: 'backend' });
  t.equal(r.body.database.id, dbId);
  const j = await jwtOf(r.body.token);
  t.equal(j.status, 200);
  t.same(j.body.account, { id, role: 'backend' });
  t.equal(j.body.database.id, dbId);

  const reused = await api.post('login/refresh-token/', { refresh_token: l.body.refresh_token });
  t.same(errorOf(reused), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_REFRESH_TOKEN' });
  const garbage = await api.post('login/refresh-token/', { refresh_token: 'not-a-refresh-token' });
  t.same(errorOf(garbage), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_REFRESH_TOKEN' });
  // The new one works, once.
  const next = await api.post('login/refresh-token/', { refresh_token: r.body.refresh_token });
  t.equal(next.status, 200);
  t.equal(
    (await api.post('login/refresh-token/', { refresh_token: r.body.refresh_token })).body.error_data?.name,
    'INCORRECT_REFRESH_TOKEN',
  );

  // A service account's refresh shows service fields.
  const s = await service('backend', { x: 1 });
  const sl = await api.post('login/service/', { name: s.name, password: s.key });
  const sr = await api.post('login/refresh-token/', { refresh_token: sl.body.refresh_token });
  t.equal(sr.status, 200);
  t.same(sr.body.account, { name: s.name, role: 'backend', metadata: { x: 1 } });
});

t.test('login/refresh-token/ with db_id or db_name switches database', async (t) => {
  const l = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.notOk('database' in l.body);
  const a = await api.post('login/refresh-token/', { refresh_token: l.body.refresh_token, db_id: otherDbId });
  t.equal(a.status, 200);
  t.equal(a.body.database.id, otherDbId);
  t.equal(a.body.database.item_id_type, 'urlsafe');
  t.equal((await jwtOf(a.body.token)).body.database.id, otherDbId);
  const b = await api.post('login/refresh-token/', { refresh_token: a.body.refresh_token, db_name: dbName });
  t.equal(b.status, 200);
  t.equal(b.body.database.id, dbId);
  t.equal((await jwtOf(b.body.token)).body.database.id, dbId);
  // Without db_id or db_name the database stays.
  const c = await api.post('login/refresh-token/', { refresh_token: b.body.refresh_token });
  t.equal(c.body.database.id, dbId);
  const missing = unique('nodb');
  const d = await api.post('login/refresh-token/', { refresh_token: c.body.refresh_token, db_name: missing });
  t.same(errorOf(d), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' });
});

t.test('refreshing the token of a deleted account is NotFoundError ACCOUNT_NOT_FOUND', async (t) => {
  const { email } = await individual();
  const l = await api.post('login/individual/', { email, password: PASSWORD, db_id: dbId });
  t.equal((await api.delete('accounts/individual/', { email }, { token: root })).status, 204);
  const r = await api.post('login/refresh-token/', { refresh_token: l.body.refresh_token });
  t.same(errorOf(r), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.same(errorOf(await jwtOf(l.body.token)), { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' });
});

t.test('tampered, foreign and malformed tokens are JwtTokenExpired INCORRECT_JWT_TOKEN', async (t) => {
  const { email } = await individual('demo_viewer');
  const token: string = (await api.post('login/individual/', { email, password: PASSWORD, db_id: dbId })).body.token;
  t.equal((await jwtOf(token)).status, 200);
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = payloadOf(token);
  const { exp: _exp, iat: _iat, ...unsigned } = claims;
  const asRoot = Buffer.from(JSON.stringify({ ...claims, role: 'root' })).toString('base64url');
  const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  const cases: [string, string][] = [
    ['payload changed, signature kept', `${header}.${asRoot}.${signature}`],
    ['signature changed', `${header}.${payload}.${flipped}`],
    ['alg none', `${none}.${asRoot}.`],
    ['signed with another secret', jwt.sign(unsigned, 'not-the-server-secret', { algorithm: 'HS256', expiresIn: 3600 })],
    ['not a JWT at all', 'garbage'],
  ];
  for (const [what, bad] of cases) {
    const r = await jwtOf(bad);
    t.same(errorOf(r), { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' }, what);
    // An admin endpoint is refused the same way (and the forged root role does not help).
    t.equal((await api.get('organizations/current/accounts/', { token: bad })).status, 401, what);
  }
});

t.test('no Authorization header is AuthError AUTHENTICATION_REQUIRED; so is a Basic one', async (t) => {
  for (const path of ['login/jwt/', 'databases/']) {
    const method = path === 'login/jwt/' ? 'POST' : 'GET';
    const none = await api.call(method, path);
    t.same(errorOf(none), { status: 401, code: 21, errorName: 'AuthError', name: 'AUTHENTICATION_REQUIRED' }, path);
    const basic = await api.call(method, path, {
      headers: { authorization: `Basic ${Buffer.from(`${ROOT_EMAIL}:${ROOT_PASSWORD}`).toString('base64')}` },
    });
    t.equal(basic.status, 401, path);
    t.equal(basic.body.error_code, 21, path);
    t.equal(basic.body.error_name, 'AuthError', path);
    t.equal(basic.body.error_data.name, 'AUTHENTICATION_REQUIRED', path);
  }
  // The same token as a Bearer works.
  t.equal((await api.call('GET', 'databases/', { token: root })).status, 200);
});

t.test('access and refresh tokens expire after RECD_JWT_TTL_SECONDS and RECD_REFRESH_TTL_SECONDS', async (t) => {
  const short = await startStack({ RECD_JWT_TTL_SECONDS: '1', RECD_REFRESH_TTL_SECONDS: '1' });
  t.teardown(() => short.close());
  const l = await short.api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.equal(l.status, 200);
  const claims = payloadOf(l.body.token);
  t.equal(claims.exp - claims.iat, 1, 'the JWT lives 1 s');
  // Usually still valid here, which puts the token in the server's cache of verified tokens, so the
  // check below covers cached tokens too; either answer is right at this point.
  const early = await short.api.post('login/jwt/', undefined, { token: l.body.token });
  t.ok(early.status === 200 || early.body.error_name === 'JwtTokenExpired', 'valid, or already expired');
  // JWT exp has second granularity: after 2.2 s both are past their end whatever the start.
  await sleep(2200);
  const j = await short.api.post('login/jwt/', undefined, { token: l.body.token });
  t.same(errorOf(j), { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' });
  const r = await short.api.post('login/refresh-token/', { refresh_token: l.body.refresh_token });
  t.same(errorOf(r), { status: 401, code: 28, errorName: 'RefreshTokenExpired', name: 'REFRESH_TOKEN_EXPIRED' });
  // Logging in again still works.
  t.equal((await short.api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status, 200);
});
