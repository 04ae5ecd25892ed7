// Account management: individual and service accounts, service keys, listings, self-deletion,
// set-password and reset mails (Redis outbox and SMTP), reset codes.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { decode } from '@msgpack/msgpack';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import type { Api } from '../helpers/api.js';
import { createDatabase, errorOf, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startStack, type Stack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const dbId = await createDatabase(api, root);
const manager = await tokenFor(api, root, 'manager', dbId);

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  timestamp: number;
}

const email = (prefix: string) => `${unique(prefix)}@test.local`;
const login = (api: Api, email: string, password: string) => api.post('login/individual/', { email, password });
const loginService = (name: string, password: string) => api.post('login/service/', { name, password });

// The newest mail of the Redis outbox (the list is newest first).
async function newestMail(s: Stack = stack): Promise<OutboxMail | undefined> {
  const [blob] = await s.redis.lrangeBuffer('mail:outbox', 0, 0);
  return blob === undefined ? undefined : (decode(blob) as OutboxMail);
}

const outboxLength = () => stack.redis.llen('mail:outbox');

// The code of a set-password or reset mail: from the link when there is one, else the "...: <code>" line.
function codeOf(text: string): string {
  const link = /https?:\/\/\S+/.exec(text);
  if (link) return new URL(link[0]).searchParams.get('code') ?? '';
  return /: ([A-Za-z0-9_-]{16,})\s*$/m.exec(text)?.[1] ?? '';
}

function linkOf(text: string): URL {
  const link = /https?:\/\/\S+/.exec(text);
  if (!link) throw new Error(`no link in the mail: ${text}`);
  return new URL(link[0]);
}

async function createIndividual(token: string, extra: Record<string, unknown> = {}) {
  const address = email('acc');
  const r = await api.post('accounts/individual/', { email: address, role: 'backend', password: PASSWORD, ...extra }, { token });
  if (r.status !== 200) throw new Error(`account creation failed: ${r.text}`);
  return { email: address, id: r.body.id as string };
}

async function createService(token: string, extra: Record<string, unknown> = {}) {
  const name = unique('svc');
  const r = await api.post('accounts/service/', { name, role: 'backend', ...extra }, { token });
  if (r.status !== 200) throw new Error(`service account creation failed: ${r.text}`);
  return name;
}

async function createKey(name: string, extra: Record<string, unknown> = {}) {
  const r = await api.post('accounts/service/keys/', { name, ...extra }, { token: root });
  if (r.status !== 200) throw new Error(`key creation failed: ${r.text}`);
  return r.body;
}

async function listing(path = 'organizations/current/accounts/') {
  const r = await api.get(path, { token: root });
  if (r.status !== 200) throw new Error(`listing failed: ${r.text}`);
  return r.body;
}

const serviceIn = (list: any, name: string) => list.service_accounts.find((s: any) => s.name === name);
const individualIn = (list: any, address: string) => list.individual_accounts.find((a: any) => a.email === address);

// Every field and value of every Redis key matching the pattern, read by type (DUMP may compress).
async function storedBlobs(s: Stack, pattern: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  let cursor = '0';
  do {
    const [next, names] = await s.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 100);
    cursor = next;
    for (const name of names) {
      out.push(Buffer.from(name));
      const type = await s.redis.type(name);
      if (type === 'string') out.push((await s.redis.getBuffer(name))!);
      else if (type === 'hash') {
        for (const [field, value] of Object.entries(await s.redis.hgetallBuffer(name))) out.push(Buffer.from(field), value);
      } else if (type === 'list') out.push(...(await s.redis.lrangeBuffer(name, 0, -1)));
      else if (type === 'set') out.push(...(await s.redis.smembersBuffer(name)));
      else if (type === 'zset') out.push(...(await s.redis.zrangeBuffer(name, 0, '-1')));
    }
  } while (cursor !== '0');
  return out;
}

t.test('POST accounts/individual/ with a password creates an account that logs in', async (t) => {
  const address = email('created');
  const r = await api.post(
    'accounts/individual/',
    { email: address, role: 'backend', first_name: 'Ada', last_name: 'Lovelace', metadata: { team: 'ml' }, password: PASSWORD },
    { token: manager },
  );
  t.equal(r.status, 200);
  t.type(r.body.id, 'string');
  const l = await login(api, address, PASSWORD);
  t.equal(l.status, 200);
  t.equal(l.body.account.id, r.body.id);
  t.equal(l.body.account.role, 'backend');
  t.equal(l.body.account.first_name, 'Ada');
  t.equal(l.body.account.last_name, 'Lovelace');
  t.equal(l.body.account.metadata.team, 'ml');
  const listed = individualIn(await listing(), address);
  t.match(listed, { id: r.body.id, role: 'backend', first_name: 'Ada', last_name: 'Lovelace', email: address, metadata: { team: 'ml' } });
});

t.test('no account is created with the root role, nor by a non-admin', async (t) => {
  const address = email('wannabe');
  const r = await api.post('accounts/individual/', { email: address, role: 'root', password: PASSWORD }, { token: manager });
  t.equal(r.status, 400);
  t.equal(r.body.error_name, 'WrongData');
  t.equal(r.body.error_data.field, 'role');
  const backend = await tokenFor(api, root, 'backend', dbId);
  const f = await api.post('accounts/individual/', { email: address, role: 'manager', password: PASSWORD }, { token: backend });
  t.same(errorOf(f), { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' });
  t.same(errorOf(await login(api, address, PASSWORD)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
});

t.test('without a password a set-password mail carries the code, and reset sets the password', async (t) => {
  const address = email('unverified');
  const r = await api.post('accounts/individual/', { email: address, role: 'backend' }, { token: root });
  t.equal(r.status, 200);
  t.same(errorOf(await login(api, address, PASSWORD)), { status: 401, code: 21, errorName: 'AuthError', name: 'ACCOUNT_NOT_VERIFIED' });
  const mail = await newestMail();
  t.equal(mail?.to, address);
  const code = codeOf(mail!.text);
  t.ok(code.length >= 16, 'the mail carries a code');
  const reset = await api.post('accounts/individual/reset/', { code, email: address, new_password: PASSWORD });
  t.equal(reset.status, 204);
  const l = await login(api, address, PASSWORD);
  t.equal(l.status, 200);
  t.equal(l.body.account.id, r.body.id);
  t.type(l.body.account.metadata.password_updated_timestamp, 'number');
  // A code works once.
  const again = await api.post('accounts/individual/reset/', { code, email: address, new_password: 'Another-password-2' });
  t.same(errorOf(again), { status: 401, code: 21, errorName: 'AuthError', name: 'CODE_DOES_NOT_MATCH' });
  t.equal((await login(api, address, PASSWORD)).status, 200);
});

t.test('email_redirect_url receives code, email and code_expiration_timestamp as query parameters', async (t) => {
  const address = email('redirected');
  const before = Date.now() / 1000;
  const r = await api.post(
    'accounts/individual/',
    { email: address, role: 'manager', email_redirect_url: 'https://app.example/welcome/' },
    { token: root },
  );
  t.equal(r.status, 200);
  const mail = await newestMail();
  t.equal(mail?.to, address);
  const link = linkOf(mail!.text);
  t.equal(link.origin + link.pathname, 'https://app.example/welcome/');
  t.equal(link.searchParams.get('email'), address);
  const code = link.searchParams.get('code');
  t.ok(code, 'code parameter');
  const expiration = Number(link.searchParams.get('code_expiration_timestamp'));
  t.ok(Number.isFinite(expiration) && expiration > before, 'code_expiration_timestamp is a future timestamp');
  const reset = await api.post('accounts/individual/reset/', {
    code,
    email: address,
    new_password: PASSWORD,
    code_expiration_timestamp: expiration,
  });
  t.equal(reset.status, 204);
  t.equal((await login(api, address, PASSWORD)).status, 200);
});

t.test('a taken e-mail is DuplicatedError DUPLICATED_ACCOUNT', async (t) => {
  const { email: address } = await createIndividual(root);
  for (const taken of [address, ROOT_EMAIL]) {
    const r = await api.post('accounts/individual/', { email: taken, role: 'backend', password: PASSWORD }, { token: root });
    t.same(errorOf(r), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_ACCOUNT' }, taken);
    t.equal(r.body.error_data.type, 'account');
    t.equal(r.body.error_data.key, taken);
  }
  // The first account keeps its password.
  t.equal((await login(api, address, PASSWORD)).status, 200);
});

t.test('every broken individual password rule is WrongData WRONG_PARAMETER', async (t) => {
  const address = email('rules');
  const broken: [string, string][] = [
    ['9 characters', 'Short-pw1'],
    ['no lowercase letter', 'VALID-PASSWORD-1'],
    ['no uppercase letter', 'valid-password-1'],
    ['no digit', 'Valid-password-x'],
    ['no non-alphanumeric character', 'Validpassword1'],
  ];
  for (const [rule, password] of broken) {
    const r = await api.post('accounts/individual/', { email: address, role: 'backend', password }, { token: root });
    t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, rule);
  }
  // No refused attempt kept the e-mail; exactly 10 characters with every class is accepted.
  const ok = await api.post('accounts/individual/', { email: address, role: 'backend', password: 'Valid-pw10' }, { token: root });
  t.equal(ok.status, 200);
  t.equal((await login(api, address, 'Valid-pw10')).status, 200);
  // The same rules hold for PATCH.
  for (const [rule, password] of broken) {
    const r = await api.patch('accounts/individual/', { email: address, password }, { token: root });
    t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, `PATCH: ${rule}`);
  }
  t.equal((await login(api, address, 'Valid-pw10')).status, 200);
});

t.test('PATCH accounts/individual/ changes names, metadata and password', async (t) => {
  const { email: address, id } = await createIndividual(root, { first_name: 'Old', last_name: 'Name', metadata: { a: 1 } });
  const p = await api.patch(
    'accounts/individual/',
    { email: address, first_name: 'New', last_name: 'Surname', metadata: { b: 'two' } },
    { token: manager },
  );
  t.equal(p.status, 204);
  const listed = individualIn(await listing(), address);
  t.equal(listed.id, id);
  t.equal(listed.first_name, 'New');
  t.equal(listed.last_name, 'Surname');
  t.same(listed.metadata, { b: 'two' });

  const newPassword = 'Changed-password-2';
  t.equal((await api.patch('accounts/individual/', { email: address, password: newPassword }, { token: manager })).status, 204);
  t.same(errorOf(await login(api, address, PASSWORD)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
  const l = await login(api, address, newPassword);
  t.equal(l.status, 200);
  t.equal(l.body.account.first_name, 'New');
});

t.test('PATCH of an unknown e-mail is ACCOUNT_NOT_FOUND; a manager may not patch the root account', async (t) => {
  const missing = email('missing');
  const r = await api.patch('accounts/individual/', { email: missing, first_name: 'X' }, { token: root });
  t.same(errorOf(r), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.equal(r.body.error_data.type, 'account');
  t.equal(r.body.error_data.key, missing);

  const f = await api.patch(
    'accounts/individual/',
    { email: ROOT_EMAIL, password: 'Hijacked-password-1', first_name: 'Mallory' },
    { token: manager },
  );
  t.same(errorOf(f), { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ACCOUNT' });
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status, 200);
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: 'Hijacked-password-1' })).status, 401);
  t.not(individualIn(await listing(), ROOT_EMAIL).first_name, 'Mallory');
});

t.test('DELETE accounts/individual/', async (t) => {
  for (const token of [root, manager]) {
    const r = await api.delete('accounts/individual/', { email: ROOT_EMAIL }, { token });
    t.same(errorOf(r), { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ACCOUNT' });
  }
  t.ok(individualIn(await listing(), ROOT_EMAIL), 'root is still there');

  const missing = email('missing');
  const nf = await api.delete('accounts/individual/', { email: missing }, { token: root });
  t.same(errorOf(nf), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.equal(nf.body.error_data.type, 'account');
  t.equal(nf.body.error_data.key, missing);

  const { email: address } = await createIndividual(root);
  const token = (await login(api, address, PASSWORD)).body.token;
  t.equal((await api.post('login/jwt/', undefined, { token })).status, 200);
  t.equal((await api.delete('accounts/individual/', { email: address }, { token: manager })).status, 204);
  const after = await api.post('login/jwt/', undefined, { token });
  t.same(errorOf(after), { status: 401, code: 22, errorName: 'JwtTokenExpired', name: 'INCORRECT_JWT_TOKEN' });
  t.same(errorOf(await login(api, address, PASSWORD)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
  t.notOk(individualIn(await listing(), address), 'no longer listed');
  const again = await api.delete('accounts/individual/', { email: address }, { token: root });
  t.equal(again.body.error_data.name, 'ACCOUNT_NOT_FOUND');
  // The e-mail is free again.
  t.equal((await api.post('accounts/individual/', { email: address, role: 'backend', password: PASSWORD }, { token: root })).status, 200);
});

t.test('service accounts: create, duplicate, delete', async (t) => {
  const name = unique('svc');
  const c = await api.post('accounts/service/', { name, role: 'backend', metadata: { owner: 'ops' } }, { token: manager });
  t.equal(c.status, 200);
  t.type(c.body.id, 'string');
  t.match(serviceIn(await listing(), name), { name, role: 'backend', metadata: { owner: 'ops' }, keys: [] });

  const d = await api.post('accounts/service/', { name, role: 'frontend' }, { token: root });
  t.same(errorOf(d), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_ACCOUNT' });
  t.equal(d.body.error_data.type, 'account');
  t.equal(d.body.error_data.key, name);
  t.equal(serviceIn(await listing(), name).role, 'backend');

  const key = (await createKey(name)).key;
  t.equal((await loginService(name, key)).status, 200);
  t.equal((await api.delete('accounts/service/', { name }, { token: manager })).status, 204);
  t.notOk(serviceIn(await listing(), name), 'no longer listed');
  t.same(errorOf(await loginService(name, key)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
  const nf = await api.delete('accounts/service/', { name }, { token: root });
  t.same(errorOf(nf), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.equal(nf.body.error_data.type, 'account');
  t.equal(nf.body.error_data.key, name);
});

t.test('the deprecated service password follows its rules and becomes a key usable with login/service', async (t) => {
  const name = unique('svc');
  const broken: [string, string][] = [
    ['11 characters', 'Abcdefghij1'],
    ['no lowercase letter', 'ABCDEFGHIJK1'],
    ['no uppercase letter', 'abcdefghijk1'],
    ['no digit', 'Abcdefghijkl'],
  ];
  for (const [rule, password] of broken) {
    const r = await api.post('accounts/service/', { name, role: 'backend', password }, { token: root });
    t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, rule);
  }
  // 12 characters with lower, upper and digit suffice: no symbol needed for service passwords.
  const password = 'Abcdefghijk1';
  t.equal((await api.post('accounts/service/', { name, role: 'backend', password }, { token: root })).status, 200);
  const l = await loginService(name, password);
  t.equal(l.status, 200);
  t.equal(l.body.account.name, name);
  const keys = serviceIn(await listing(), name).keys;
  t.equal(keys.length, 1);
  t.equal(keys[0].is_expired, false);
  t.same(errorOf(await loginService(name, 'Abcdefghijk2')), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
});

t.test('POST accounts/service/keys/ shows the secret once; it logs in; only a hash is stored', async (t) => {
  const name = await createService(root, { role: 'backend' });
  const deprecated = 'Deprecated-Pass1';
  const name2 = await createService(root, { password: deprecated });
  const expiration = Math.floor(Date.now() / 1000) + 3600;
  const before = Date.now() / 1000;
  const r = await api.post(
    'accounts/service/keys/',
    { name, expiration_timestamp: expiration, metadata: { purpose: 'ci' } },
    { token: manager },
  );
  const after = Date.now() / 1000;
  t.equal(r.status, 200);
  t.type(r.body.id, 'string');
  t.type(r.body.created_timestamp, 'number');
  t.ok(r.body.created_timestamp >= before - 1 && r.body.created_timestamp <= after + 1, 'created_timestamp is the creation time');
  t.equal(r.body.expiration_timestamp, expiration);
  t.equal(r.body.is_expired, false);
  t.same(r.body.metadata, { purpose: 'ci' });
  t.type(r.body.key, 'string');
  t.ok(r.body.key.length >= 16, 'a long secret');
  t.ok(Array.isArray(r.body.warnings));
  const secret: string = r.body.key;

  const l = await loginService(name, secret);
  t.equal(l.status, 200);
  t.equal(l.body.role, 'backend');

  // Listed without the secret.
  const res = await api.get('organizations/current/accounts/', { token: root });
  t.notOk(res.text.includes(secret), 'the listing does not show the secret');
  const listedKey = serviceIn(res.body, name).keys.find((k: any) => k.id === r.body.id);
  t.same(listedKey, {
    id: r.body.id,
    created_timestamp: r.body.created_timestamp,
    expiration_timestamp: expiration,
    is_expired: false,
    metadata: { purpose: 'ci' },
  });

  // Redis holds no secret in clear, but does hold the key record (so the scan looked at the right place).
  const blobs = await storedBlobs(stack, `{org:${l.body.org_id}}:*`);
  t.ok(
    blobs.some((b) => b.includes(r.body.id)),
    'the scan sees the key record',
  );
  for (const s of [secret, deprecated])
    t.notOk(
      blobs.some((b) => b.includes(s)),
      'no secret stored in clear',
    );
  t.notOk(
    (await storedBlobs(stack, '*')).some((b) => b.includes(secret) || b.includes(deprecated)),
    'nowhere in Redis',
  );
  t.equal((await loginService(name2, deprecated)).status, 200);
});

t.test('a key whose expiration_timestamp has passed is expired and refused at login', async (t) => {
  const name = await createService(root);
  const valid = await createKey(name);
  t.equal(valid.expiration_timestamp, null);
  const r = await api.post('accounts/service/keys/', { name, expiration_timestamp: Date.now() / 1000 - 60 }, { token: root });
  t.equal(r.status, 200);
  t.equal(r.body.is_expired, true);
  t.ok(Array.isArray(r.body.warnings));
  const l = await loginService(name, r.body.key);
  t.equal(l.status, 401);
  t.equal(l.body.error_code, 21);
  t.equal(l.body.error_name, 'AuthError');
  t.equal(l.body.error_data.name, 'INCORRECT_PASSWORD');
  t.equal(serviceIn(await listing(), name).keys.find((k: any) => k.id === r.body.id).is_expired, true);
  // The other key of the account still works.
  t.equal((await loginService(name, valid.key)).status, 200);
});

t.test('DELETE accounts/service/keys/<id>/ revokes the key', async (t) => {
  const name = await createService(root);
  const a = await createKey(name);
  const b = await createKey(name);
  t.equal((await loginService(name, a.key)).status, 200);
  t.equal((await api.delete(`accounts/service/keys/${a.id}/`, undefined, { token: manager })).status, 204);
  t.same(errorOf(await loginService(name, a.key)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
  t.same(
    serviceIn(await listing(), name).keys.map((k: any) => k.id),
    [b.id],
  );
  t.equal((await loginService(name, b.key)).status, 200);

  for (const id of [a.id, 'no-such-key']) {
    const nf = await api.delete(`accounts/service/keys/${id}/`, undefined, { token: root });
    t.same(errorOf(nf), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' }, id);
    t.equal(nf.body.error_data.key, id);
  }
  const missing = unique('nosvc');
  const nk = await api.post('accounts/service/keys/', { name: missing }, { token: root });
  t.same(errorOf(nk), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.equal(nk.body.error_data.type, 'account');
  t.equal(nk.body.error_data.key, missing);
});

t.test('GET organizations/current/accounts/ and organizations/accounts/ list both kinds of account', async (t) => {
  const { email: address, id } = await createIndividual(root, { first_name: 'Grace' });
  const name = await createService(root, { role: 'frontend', metadata: { app: 'web' } });
  const key = await createKey(name, { metadata: { k: 1 } });
  const current = await api.get('organizations/current/accounts/', { token: manager });
  const legacy = await api.get('organizations/accounts/', { token: manager });
  for (const r of [current, legacy]) {
    t.equal(r.status, 200);
    t.ok(Array.isArray(r.body.individual_accounts));
    t.ok(Array.isArray(r.body.service_accounts));
    t.ok(Array.isArray(r.body.warnings));
    t.match(individualIn(r.body, ROOT_EMAIL), { role: 'root', email: ROOT_EMAIL });
    t.match(individualIn(r.body, address), { id, role: 'backend', first_name: 'Grace', email: address });
    const svc = serviceIn(r.body, name);
    t.match(svc, { name, role: 'frontend', metadata: { app: 'web' } });
    t.same(
      svc.keys.map((k: any) => k.id),
      [key.id],
    );
    t.same(svc.keys[0].metadata, { k: 1 });
    t.notOk(/scrypt|password_hash|"hash"/.test(r.text), 'no password or key hashes');
  }
  t.same(legacy.body, current.body);
  const backend = await tokenFor(api, root, 'backend', dbId);
  t.same(errorOf(await api.get('organizations/current/accounts/', { token: backend })), {
    status: 403,
    code: 50,
    errorName: 'ForbiddenError',
    name: 'INCORRECT_ROLE',
  });
});

t.test('DELETE accounts/ deletes the account of the token; root cannot delete itself', async (t) => {
  const { email: address } = await createIndividual(root);
  const token = (await login(api, address, PASSWORD)).body.token;
  t.equal((await api.delete('accounts/', undefined, { token })).status, 204);
  t.same(errorOf(await api.post('login/jwt/', undefined, { token })), {
    status: 401,
    code: 22,
    errorName: 'JwtTokenExpired',
    name: 'INCORRECT_JWT_TOKEN',
  });
  t.same(errorOf(await login(api, address, PASSWORD)), { status: 401, code: 21, errorName: 'AuthError', name: 'INCORRECT_PASSWORD' });
  t.notOk(individualIn(await listing(), address), 'no longer listed');

  const name = await createService(root);
  const key = (await createKey(name)).key;
  const serviceToken = (await loginService(name, key)).body.token;
  t.equal((await api.delete('accounts/', undefined, { token: serviceToken })).status, 204);
  t.equal((await api.post('login/jwt/', undefined, { token: serviceToken })).status, 401);
  t.notOk(serviceIn(await listing(), name), 'service account no longer listed');
  t.equal((await loginService(name, key)).status, 401);

  const r = await api.delete('accounts/', undefined, { token: root });
  t.same(errorOf(r), { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ACCOUNT' });
  t.equal((await api.post('login/jwt/', undefined, { token: root })).status, 200);
  t.ok(individualIn(await listing(), ROOT_EMAIL), 'root is still there');
});

t.test('send-reset-password-email answers alike for known and unknown e-mails; only known ones get mail', async (t) => {
  const { email: address } = await createIndividual(root);
  const redirect = 'https://app.example/reset';
  const start = await outboxLength();
  const unknown = await api.post('accounts/individual/send-reset-password-email/', {
    email: email('nobody'),
    email_redirect_url: redirect,
  });
  t.equal(unknown.status, 204);
  t.equal(await outboxLength(), start, 'no mail for an unknown e-mail');
  const known = await api.post('accounts/individual/send-reset-password-email/', { email: address, email_redirect_url: redirect });
  t.equal(known.status, 204);
  t.equal(known.text, unknown.text);
  t.equal(await outboxLength(), start + 1);
  const mail = await newestMail();
  t.equal(mail?.to, address);
  const link = linkOf(mail!.text);
  t.equal(link.origin + link.pathname, redirect);
  t.equal(link.searchParams.get('email'), address);
  t.ok(link.searchParams.get('code'), 'code parameter');
  t.ok(Number(link.searchParams.get('code_expiration_timestamp')) > Date.now() / 1000, 'code_expiration_timestamp in the future');

  const newPassword = 'Reset-password-3';
  const reset = await api.post('accounts/individual/reset/', {
    code: link.searchParams.get('code'),
    email: address,
    new_password: newPassword,
    code_expiration_timestamp: Number(link.searchParams.get('code_expiration_timestamp')),
  });
  t.equal(reset.status, 204);
  t.equal((await login(api, address, newPassword)).status, 200);
  t.equal((await login(api, address, PASSWORD)).status, 401);
});

t.test('reset with a wrong code is AuthError CODE_DOES_NOT_MATCH', async (t) => {
  const a = await createIndividual(root);
  const b = await createIndividual(root);
  t.equal(
    (await api.post('accounts/individual/send-reset-password-email/', { email: a.email, email_redirect_url: 'https://app.example/r' }))
      .status,
    204,
  );
  const code = codeOf((await newestMail())!.text);
  t.ok(code, 'a code was mailed');
  const newPassword = 'Reset-password-4';
  const cases: [string, Record<string, unknown>][] = [
    ['wrong code', { code: 'this-is-not-the-code', email: a.email }],
    ['code of another account', { code, email: b.email }],
    ['unknown e-mail', { code, email: email('nobody') }],
  ];
  for (const [what, body] of cases) {
    const r = await api.post('accounts/individual/reset/', { ...body, new_password: newPassword });
    t.same(errorOf(r), { status: 401, code: 21, errorName: 'AuthError', name: 'CODE_DOES_NOT_MATCH' }, what);
  }
  t.equal((await login(api, b.email, PASSWORD)).status, 200, 'the other account keeps its password');
  // A weak new password is refused without using up the code.
  const weak = await api.post('accounts/individual/reset/', { code, email: a.email, new_password: 'weak' });
  t.same(errorOf(weak), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.equal((await api.post('accounts/individual/reset/', { code, email: a.email, new_password: newPassword })).status, 204);
  t.equal((await login(api, a.email, newPassword)).status, 200);
});

// RFC 822 message → its decoded body (nodemailer picks 7bit, quoted-printable or base64).
function mailBody(raw: string): { headers: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  let body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'quoted-printable') {
    body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  } else if (encoding === 'base64') body = Buffer.from(body, 'base64').toString();
  return { headers, body };
}

// A second app on the same redis-server (no extra redis-server): another root e-mail makes a second
// organisation, and this app mails through SMTP with 1-second codes.
t.test('a second organisation, served with SMTP mail and 1-second codes', async (t) => {
  const delivered: { rcpt: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        delivered.push({ rcpt: session.envelope.rcptTo.map((a) => a.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  let second: Stack | undefined;
  t.teardown(async () => {
    await second?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  const rootB = 'root-b@test.local';
  second = await startStack(
    {
      RECD_SMTP_URL: `smtp://127.0.0.1:${port}`,
      RECD_RESET_CODE_TTL_SECONDS: '1',
      RECD_ROOT_EMAIL: rootB,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    },
    stack.redisServer,
  );
  const api2 = second.api;
  const r2 = await api2.post('login/root/', { email: rootB, password: ROOT_PASSWORD });
  t.equal(r2.status, 200);
  const root2: string = r2.body.token;
  const orgA = (await api.post('login/jwt/', undefined, { token: root })).body.org_id;
  t.not(r2.body.org_id, orgA, 'a second organisation');

  await t.test('accounts of another organisation are out of reach', async (t) => {
    const b = email('org-b');
    t.equal((await api2.post('accounts/individual/', { email: b, role: 'manager', password: PASSWORD }, { token: root2 })).status, 200);
    const svc = unique('svc-b');
    t.equal((await api2.post('accounts/service/', { name: svc, role: 'backend' }, { token: root2 })).status, 200);
    const keyB = (await api2.post('accounts/service/keys/', { name: svc }, { token: root2 })).body;
    const notFound = { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' };
    t.same(
      errorOf(await api.patch('accounts/individual/', { email: b, password: 'Stolen-password-1' }, { token: root })),
      notFound,
      'PATCH',
    );
    t.same(errorOf(await api.delete('accounts/individual/', { email: b }, { token: manager })), notFound, 'DELETE individual');
    t.same(errorOf(await api.delete('accounts/individual/', { email: rootB }, { token: root })), notFound, 'DELETE the other root');
    t.same(errorOf(await api.delete('accounts/service/', { name: svc }, { token: root })), notFound, 'DELETE service');
    t.same(errorOf(await api.post('accounts/service/keys/', { name: svc }, { token: root })), notFound, 'POST key');
    t.same(errorOf(await api.delete(`accounts/service/keys/${keyB.id}/`, undefined, { token: root })), notFound, 'DELETE key');
    const listA = await listing();
    t.notOk(individualIn(listA, b) ?? individualIn(listA, rootB) ?? serviceIn(listA, svc), 'not in the listing of organisation A');
    // Everything of organisation B still works.
    t.equal((await login(api, b, PASSWORD)).status, 200);
    t.equal((await loginService(svc, keyB.key)).status, 200);
    const listB = (await api2.get('organizations/current/accounts/', { token: root2 })).body;
    t.ok(individualIn(listB, b) && serviceIn(listB, svc), 'listed in organisation B');
    t.notOk(individualIn(listB, ROOT_EMAIL), 'organisation A is not listed in B');
  });

  const address = email('smtp');
  t.equal((await api2.post('accounts/individual/', { email: address, role: 'backend', password: PASSWORD }, { token: root2 })).status, 200);
  const outboxBefore = await outboxLength();

  await t.test('the mail reaches the SMTP server with the code link', async (t) => {
    t.equal(delivered.length, 0, 'accounts with a password get no mail');
    const redirect = 'https://app.example/smtp-reset';
    const r = await api2.post('accounts/individual/send-reset-password-email/', { email: address, email_redirect_url: redirect });
    t.equal(r.status, 204);
    t.equal(delivered.length, 1, 'one mail reached the SMTP server');
    t.same(delivered[0]!.rcpt, [address]);
    const { headers, body } = mailBody(delivered[0]!.raw);
    t.match(headers, new RegExp(`^To: .*${address.replace(/[.]/g, '\\.')}`, 'im'));
    const link = linkOf(body);
    t.equal(link.origin + link.pathname, redirect);
    t.equal(link.searchParams.get('email'), address);
    t.ok(link.searchParams.get('code'), 'code parameter');
    t.ok(link.searchParams.get('code_expiration_timestamp'), 'code_expiration_timestamp parameter');
    t.equal(await outboxLength(), outboxBefore, 'nothing went to the Redis outbox');
  });

  await t.test('a code used after RECD_RESET_CODE_TTL_SECONDS is CODE_EXPIRED', async (t) => {
    const code = linkOf(mailBody(delivered.at(-1)!.raw).body).searchParams.get('code');
    t.ok(code, 'the code of the SMTP mail');
    await sleep(1200);
    const late = await api2.post('accounts/individual/reset/', { code, email: address, new_password: 'Too-late-password-5' });
    t.same(errorOf(late), { status: 401, code: 21, errorName: 'AuthError', name: 'CODE_EXPIRED' });
    t.equal((await login(api2, address, PASSWORD)).status, 200, 'the password is unchanged');
    t.equal((await login(api2, address, 'Too-late-password-5')).status, 401);
  });
});
