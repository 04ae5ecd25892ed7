// Access tokens that must stop working before they expire (issue 18): tokens of a password since
// changed or reset, and tokens of a service key that expired, on every process.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { decode } from '@msgpack/msgpack';
import t from 'tap';
import { createDatabase, errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { until, type Tt } from '../helpers/reco.js';
import { PASSWORD, startPair, startStack } from '../helpers/stack.js';

const pair = await startPair();
t.teardown(() => pair.close());
const { a, b } = pair;
const root = await rootToken(a.api);
const db = await createDatabase(a.api, root);

const expired = { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' };
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
const status = (api: typeof a.api, token: string) => api.get('databases/current/status/', { token });

async function individual(): Promise<string> {
  const email = `${unique('revoke')}@test.local`;
  const r = await a.api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: root });
  if (r.status !== 200) throw new Error(`account creation failed: ${r.text}`);
  return email;
}
async function tokenOf(email: string, password: string): Promise<string> {
  const r = await a.api.post('login/individual/', { email, password, db_id: db });
  if (r.status !== 200) throw new Error(`login failed: ${r.text}`);
  return r.body.token;
}

// Both processes have verified (and cached) the token before it is revoked; then both refuse it.
async function refusedEverywhere(t: Tt, token: string, what: string) {
  for (const [name, s] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const r = await until(
      `${what} refused by ${name}`,
      () => status(s.api, token),
      (r) => r.status === 401,
      5000,
    );
    t.same(errorOf(r), expired, `${what}: refused by ${name}`);
  }
}

t.test('a password change ends the tokens issued before it, not the ones after', async (t) => {
  const email = await individual();
  const before = await tokenOf(email, PASSWORD);
  const other = await tokenOf(await individual(), PASSWORD);
  for (const s of [a, b]) t.equal((await status(s.api, before)).status, 200, 'valid and cached before the change');
  const newPassword = 'Changed-password-2';
  t.equal((await a.api.patch('accounts/individual/', { email, password: newPassword }, { token: root })).status, 204);
  await refusedEverywhere(t, before, 'the token of the old password');
  const after = await tokenOf(email, newPassword);
  for (const s of [a, b]) t.equal((await status(s.api, after)).status, 200, 'a token of the new password works');
  for (const s of [a, b]) t.equal((await status(s.api, other)).status, 200, "another account's token is untouched");
  // A change that is not a password revokes nothing.
  t.equal((await a.api.patch('accounts/individual/', { email, first_name: 'Ada' }, { token: root })).status, 204);
  for (const s of [a, b]) t.equal((await status(s.api, after)).status, 200, 'still valid after a name change');
});

t.test('a process started after the change refuses the old tokens too (the revocations are in Redis)', async (t) => {
  const email = await individual();
  const before = await tokenOf(email, PASSWORD);
  t.equal((await a.api.patch('accounts/individual/', { email, password: 'Changed-password-3' }, { token: root })).status, 204);
  const c = await startStack({}, a.redisServer);
  t.teardown(() => c.close());
  t.same(errorOf(await status(c.api, before)), expired);
});

t.test('a password reset with a mailed code ends the tokens issued before it', async (t) => {
  const email = await individual();
  const before = await tokenOf(email, PASSWORD);
  for (const s of [a, b]) t.equal((await status(s.api, before)).status, 200);
  t.equal(
    (await a.api.post('accounts/individual/send-reset-password-email/', { email, email_redirect_url: 'https://app.example/reset' })).status,
    204,
  );
  const [blob] = await a.redis.lrangeBuffer('mail:outbox', 0, 0);
  const link = new URL(/https?:\/\/\S+/.exec((decode(blob!) as { text: string }).text)![0]);
  const newPassword = 'Reset-password-9';
  const reset = await b.api.post('accounts/individual/reset/', { email, code: link.searchParams.get('code'), new_password: newPassword });
  t.equal(reset.status, 204);
  await refusedEverywhere(t, before, 'the token of the old password');
  t.equal((await status(b.api, await tokenOf(email, newPassword))).status, 200);
});

t.test('a service session ends when its key expires, however long its token was to live', async (t) => {
  const name = unique('svc');
  t.equal((await a.api.post('accounts/service/', { name, role: 'backend' }, { token: root })).status, 200);
  const expiration = Date.now() / 1000 + 3;
  const key = await a.api.post('accounts/service/keys/', { name, expiration_timestamp: expiration }, { token: root });
  t.equal(key.status, 200);
  const lasting = await a.api.post('accounts/service/keys/', { name }, { token: root });
  const login = await a.api.post('login/service/', { name, password: key.body.key, db_id: db });
  t.equal(login.status, 200);
  t.ok(payloadOf(login.body.token).exp <= expiration, 'the token expires with the key');
  const refreshed = await a.api.post('login/refresh-token/', { refresh_token: login.body.refresh_token });
  t.equal(refreshed.status, 200);
  t.ok(payloadOf(refreshed.body.token).exp <= expiration, 'so does a refreshed one');
  const control = (await a.api.post('login/service/', { name, password: lasting.body.key, db_id: db })).body.token;
  t.ok(payloadOf(control).exp > expiration + 60, 'a key without expiry: the full lifetime');
  for (const s of [a, b]) t.equal((await status(s.api, refreshed.body.token)).status, 200, 'valid (and cached) before the expiry');
  await until(
    'the key expired',
    async () => Date.now() / 1000,
    (now) => now > expiration,
    10_000,
  );
  for (const s of [a, b]) t.same(errorOf(await status(s.api, refreshed.body.token)), expired, 'refused after the expiry');
  for (const s of [a, b]) t.equal((await status(s.api, control)).status, 200, "the other key's session goes on");
});
