// Login throttling (issue 18: "100 wrong root passwords in 3.5 s"): failed logins per login name and
// per client address, counted in Redis across processes, refused with 429 RATE_LIMIT_OVERFLOW for the
// rest of a window that the attacker cannot extend.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Api, Res } from '../helpers/api.js';
import { errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { until, type Tt } from '../helpers/reco.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startPair, startStack } from '../helpers/stack.js';

const PER_ACCOUNT = 3;
const pair = await startPair({
  RECD_LOGIN_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
  RECD_LOGIN_FAILURES_PER_ADDRESS: '1000',
  RECD_LOGIN_WINDOW_SECONDS: '600',
});
t.teardown(() => pair.close());
const { a, b } = pair;
// Behind one trusted proxy, per address only, with a short window; same Redis.
const PER_ADDRESS = 3;
const WINDOW = 4;
const proxied = await startStack(
  {
    RECD_TRUST_PROXY_HOPS: '1',
    RECD_LOGIN_FAILURES_PER_ACCOUNT: '0',
    RECD_LOGIN_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
    RECD_LOGIN_WINDOW_SECONDS: String(WINDOW),
  },
  a.redisServer,
);
t.teardown(() => proxied.close());
const root = await rootToken(a.api);

const WRONG = 'Wrong-password-1';
const tooMany = { status: 429, code: 2, errorName: 'TooManyRequests', name: 'RATE_LIMIT_OVERFLOW' };
const incorrect = { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' };

async function individual(): Promise<string> {
  const email = `${unique('throttle')}@test.local`;
  const r = await a.api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: root });
  if (r.status !== 200) throw new Error(`account creation failed: ${r.text}`);
  return email;
}
const login = (api: Api, email: string, password: string, headers?: Record<string, string>) =>
  api.post('login/individual/', { email, password }, { headers });

// The 429 body and header: retry_after within the window, Retry-After its whole seconds.
function checkRetry(t: Tt, r: Res, window: number) {
  const after = r.body.error_data.retry_after;
  t.ok(typeof after === 'number' && after > 0 && after <= window, `retry_after ${after} within the ${window} s window`);
  t.equal(r.headers['retry-after'], String(Math.ceil(after)), 'Retry-After header');
}

t.test('a login name is refused after its budget of failures, right password included, on every process', async (t) => {
  const email = await individual();
  // Failures through both processes add up.
  for (const api of [a.api, b.api, a.api]) t.same(errorOf(await login(api, email, WRONG)), incorrect);
  const refused = await login(b.api, email, WRONG);
  t.same(errorOf(refused), tooMany, 'one failure too many');
  checkRetry(t, refused, 600);
  t.same(errorOf(await login(a.api, email, PASSWORD)), tooMany, 'the right password is refused too');
  // Another name from the same address is not affected.
  t.equal((await login(a.api, await individual(), PASSWORD)).status, 200);
});

t.test('root logins, mixed case e-mails and service logins count the same way', async (t) => {
  // The root account: the case (its e-mail is one login name whatever its case).
  for (const email of [ROOT_EMAIL, ROOT_EMAIL.toUpperCase(), ROOT_EMAIL])
    t.same(errorOf(await a.api.post('login/root/', { email, password: WRONG })), incorrect);
  t.same(errorOf(await b.api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })), tooMany, 'root, right password');
  t.same(errorOf(await login(b.api, ROOT_EMAIL, ROOT_PASSWORD)), tooMany, 'root through login/individual/');
  await a.redis.del(`login-attempts:account:e:${ROOT_EMAIL}`); // the other tests need root
  t.equal((await a.api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status, 200);

  const name = unique('svc');
  t.equal((await a.api.post('accounts/service/', { name, role: 'backend' }, { token: root })).status, 200);
  const key = (await a.api.post('accounts/service/keys/', { name }, { token: root })).body.key;
  for (let i = 0; i < PER_ACCOUNT; i++) t.same(errorOf(await a.api.post('login/service/', { name, password: `${key}x` })), incorrect);
  t.same(errorOf(await b.api.post('login/service/', { name, password: key })), tooMany, 'service, right key');
  // An expired key is no wrong guess: a service retrying with it does not lock out its other keys.
  const other = unique('svc');
  t.equal((await a.api.post('accounts/service/', { name: other, role: 'backend' }, { token: root })).status, 200);
  const stale = (await a.api.post('accounts/service/keys/', { name: other, expiration_timestamp: Date.now() / 1000 - 1 }, { token: root }))
    .body.key;
  const fresh = (await a.api.post('accounts/service/keys/', { name: other }, { token: root })).body.key;
  for (let i = 0; i <= PER_ACCOUNT; i++) {
    const r = await a.api.post('login/service/', { name: other, password: stale });
    t.same(errorOf(r), incorrect, `expired key, attempt ${i + 1}`);
    t.match(r.body.message, /expired/);
  }
  t.equal((await a.api.post('login/service/', { name: other, password: fresh })).status, 200, 'its valid key still logs in');
  // Unknown names are counted like known ones, so the answers tell nothing about which exist.
  const nobody = `${unique('nobody')}@test.local`;
  for (let i = 0; i < PER_ACCOUNT; i++) t.same(errorOf(await login(a.api, nobody, WRONG)), incorrect);
  t.same(errorOf(await login(a.api, nobody, WRONG)), tooMany, 'unknown name');
});

t.test('parallel guesses get no more than the budget', async (t) => {
  const email = await individual();
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(i % 2 ? a.api : b.api, email, WRONG)));
  const statuses = answers.map((r) => r.status);
  t.equal(statuses.filter((s) => s === 401).length, PER_ACCOUNT, `${PER_ACCOUNT} checked`);
  t.equal(statuses.filter((s) => s === 429).length, 12 - PER_ACCOUNT, 'the rest refused unchecked');
});

t.test("a successful login ends the name's window; refused attempts are not counted as failures", async (t) => {
  const email = await individual();
  for (let i = 0; i < PER_ACCOUNT - 1; i++) t.same(errorOf(await login(a.api, email, WRONG)), incorrect);
  t.equal((await login(a.api, email, PASSWORD)).status, 200);
  for (let i = 0; i < PER_ACCOUNT; i++) t.same(errorOf(await login(a.api, email, WRONG)), incorrect, `failure ${i + 1} of a new window`);
  t.same(errorOf(await login(a.api, email, WRONG)), tooMany);
  t.equal(await a.redis.get(`login-attempts:account:e:${email}`), String(PER_ACCOUNT), 'the refused attempts left the count at the budget');
});

t.test('per address behind a trusted proxy: its X-Forwarded-For entry counts, for one window', async (t) => {
  const api = proxied.api;
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const client = '203.0.113.7';
  // Different names, one address.
  for (let i = 0; i < PER_ADDRESS; i++) t.same(errorOf(await login(api, `${unique('n')}@test.local`, WRONG, from(client))), incorrect);
  const refused = await login(api, `${unique('n')}@test.local`, WRONG, from(client));
  t.same(errorOf(refused), tooMany, 'one name too many from the address');
  checkRetry(t, refused, WINDOW);
  // What the client writes before the proxy's entry does not change its address.
  t.same(errorOf(await login(api, `${unique('n')}@test.local`, WRONG, from(`198.51.100.1, ${client}`))), tooMany, 'a forged earlier entry');
  // Another address has its own budget.
  t.same(errorOf(await login(api, `${unique('n')}@test.local`, WRONG, from('198.51.100.1'))), incorrect, 'another address');
  // The window ends however much the address kept trying: it is not extended.
  const freed = await until(
    'the window ends',
    () => login(api, `${unique('n')}@test.local`, WRONG, from(client)),
    (r) => r.status !== 429,
    (WINDOW + 5) * 1000,
  );
  t.same(errorOf(freed), incorrect);
});

t.test('per address without trusted proxies: the socket address counts, X-Forwarded-For changes nothing', async (t) => {
  const direct = await startStack({
    RECD_LOGIN_FAILURES_PER_ACCOUNT: '0',
    RECD_LOGIN_FAILURES_PER_ADDRESS: '2',
    RECD_LOGIN_WINDOW_SECONDS: '600',
  });
  t.teardown(() => direct.close());
  for (const forged of ['198.51.100.1', '198.51.100.2']) {
    t.same(
      errorOf(await login(direct.api, `${unique('n')}@test.local`, WRONG, { 'x-forwarded-for': forged })),
      incorrect,
      `forged ${forged}`,
    );
  }
  t.same(
    errorOf(await login(direct.api, `${unique('n')}@test.local`, WRONG, { 'x-forwarded-for': '198.51.100.3' })),
    tooMany,
    'a third forged address does not help',
  );
  t.equal(await direct.redis.get('login-attempts:address:127.0.0.1'), '2', 'counted under the socket address');
});

t.test('password-reset mails: every request counts against budgets of their own, for an e-mail and an address', async (t) => {
  const email = await individual();
  const ask = (api: Api, to: string) =>
    api.post('accounts/individual/send-reset-password-email/', { email: to, email_redirect_url: 'https://example.com/reset' });
  const mails = () => a.redis.llen('mail:outbox');
  const before = await mails();
  // Through both processes: the budget is shared.
  for (const api of [a.api, b.api, a.api]) t.equal((await ask(api, email)).status, 204);
  t.equal(await mails(), before + 3, 'three mails sent');
  const refused = await ask(b.api, email);
  t.equal(await mails(), before + 3, 'the refused request sent none');
  t.same(errorOf(refused), tooMany, 'one mail too many for this e-mail');
  t.match(refused.body.message, /reset-mail requests/);
  checkRetry(t, refused, 600);
  // Mails and logins have separate budgets: the mails spent none of the login name's failures.
  t.equal((await login(a.api, email, PASSWORD)).status, 200, 'its owner still logs in');
  t.equal((await ask(a.api, await individual())).status, 204, 'another e-mail from this address is served');
  // Per address (the proxied server: 3 a window, any e-mail), the socket address behind the proxy's entry.
  const from = { 'x-forwarded-for': '203.0.113.77' };
  const askFrom = (to: string) =>
    proxied.api.post(
      'accounts/individual/send-reset-password-email/',
      { email: to, email_redirect_url: 'https://example.com/reset' },
      { headers: from },
    );
  for (let i = 0; i < PER_ADDRESS; i++) t.equal((await askFrom(await individual())).status, 204);
  t.same(errorOf(await askFrom(await individual())), tooMany, 'one mail too many from this address');
});
