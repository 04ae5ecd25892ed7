// Every error class of the spec's table reached through HTTP with its status and error_code.
import t from 'tap';
import { ERROR_TABLE } from '../../src/errors/table.js';
import { createDatabase, errorOf, rootToken, unique } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_REDIS_TIMEOUT_MS: '300', RECD_REFRESH_TTL_SECONDS: '1' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const reached = new Set<string>();

function expectClass(
  t: Pick<typeof import('tap').t, 'same' | 'type'>,
  res: { status: number; body: any },
  errorName: keyof typeof ERROR_TABLE,
  name: string,
) {
  const row = ERROR_TABLE[errorName];
  t.same(errorOf(res), { status: row.status, code: row.code, errorName, name }, `${errorName} ${name}`);
  t.type(res.body.message, 'string');
  reached.add(errorName);
}

t.test('client errors', async (t) => {
  expectClass(t, await api.post('login/root/', { email: 'x@y.z', password: 'Nope-nope-1' }), 'AuthError', 'INCORRECT_PASSWORD');
  expectClass(t, await api.get('databases/', { token: 'a.b.c' }), 'JwtTokenExpired', 'INCORRECT_JWT_TOKEN');
  expectClass(t, await api.get('databases/', { query: 'amt=0', token: root }), 'WrongData', 'WRONG_PARAMETER');
  const name = unique('dup');
  await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uint32' }, { token: root });
  expectClass(
    t,
    await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uint32' }, { token: root }),
    'DuplicatedError',
    'DUPLICATED_DATABASE',
  );
  const db = await createDatabase(api, root);
  const email = `${unique('fe')}@test.local`;
  await api.post('accounts/individual/', { email, role: 'frontend', password: 'Valid-password-1' }, { token: root });
  const fe = (await api.post('login/individual/', { email, password: 'Valid-password-1', db_id: db })).body.token;
  expectClass(t, await api.get('databases/', { token: fe }), 'ForbiddenError', 'INCORRECT_ROLE');
  expectClass(t, await api.get('no/such/thing/'), 'NotFoundError', 'RESOURCE_NOT_FOUND');
  expectClass(t, await api.delete('login/root/'), 'MethodNotAllowed', 'HTTP_METHOD_NOT_ALLOWED');
});

t.test('RefreshTokenExpired', async (t) => {
  const login = await api.post('login/root/', { email: 'root@test.local', password: 'Root-password-1' });
  await new Promise((r) => setTimeout(r, 1200));
  expectClass(
    t,
    await api.post('login/refresh-token/', { refresh_token: login.body.refresh_token }),
    'RefreshTokenExpired',
    'REFRESH_TOKEN_EXPIRED',
  );
});

t.test('ServerError: corrupt stored data is a 500 without internals', async (t) => {
  const email = `${unique('corrupt')}@test.local`;
  const created = await api.post('accounts/individual/', { email, role: 'backend', password: 'Valid-password-1' }, { token: root });
  const org = (await api.post('login/jwt/', undefined, { token: root })).body.org_id;
  await stack.redis.hset(`{org:${org}}:accounts`, created.body.id, 'not msgpack at all');
  const r = await api.post('login/individual/', { email, password: 'Valid-password-1' });
  expectClass(t, r, 'ServerError', 'SERVER_ERROR');
  t.notMatch(r.body.message, /msgpack|Error:|at /, 'no internals leak');
  t.type(r.body.error_data.request_id, 'string');
  t.equal((await api.get('')).status, 200, 'the server is still up');
});

t.test('ServerUnavailable: a frozen Redis gives 503, and service resumes', async (t) => {
  process.kill(stack.redisServer.pid, 'SIGSTOP');
  let r: Awaited<ReturnType<typeof api.get>>;
  try {
    r = await api.get('databases/', { token: root });
  } finally {
    process.kill(stack.redisServer.pid, 'SIGCONT');
  }
  expectClass(t, r, 'ServerUnavailable', 'STORAGE_UNAVAILABLE');
  // Requests that need no storage never noticed; storage ones work again once Redis is back.
  let back = await api.get('databases/', { token: root });
  for (let i = 0; i < 20 && back.status !== 200; i++) {
    await new Promise((res) => setTimeout(res, 100));
    back = await api.get('databases/', { token: root });
  }
  t.equal(back.status, 200);
});

t.test('TooManyRequests: a second server with a budget of one request per second', async (t) => {
  const limited = await startStack({ RECD_RATE_LIMIT_PER_SECOND: '1' }, stack.redisServer);
  t.teardown(() => limited.close());
  // Eight at once: however a loaded machine spreads them over one-second windows, some window gets two
  // or more (two sent one after the other could fall on both sides of a boundary and both pass).
  const answers = await Promise.all(Array.from({ length: 8 }, () => limited.api.post('login/jwt/', undefined, { token: root })));
  const refused = answers.find((a) => a.status === 429);
  t.ok(refused, `a request over the budget is refused (statuses ${answers.map((a) => a.status).join(', ')})`);
  expectClass(t, refused!, 'TooManyRequests', 'RATE_LIMIT_OVERFLOW');
  t.ok(refused!.body.error_data.retry_after > 0);
});

t.test('every class of the table was reached', async (t) => {
  t.same(
    Object.keys(ERROR_TABLE).filter((n) => !reached.has(n)),
    [],
  );
});
