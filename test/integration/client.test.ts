// @recd/client (packages/client) against the real server: its generated types are the document recd
// serves, a session through it (database, catalogue, ratings, recommendations), the README's example
// as written, tokens renewed before they expire and after a 401 JwtTokenExpired (the refresh endpoint
// seen being called, once however many requests wait), a refused refresh token, signing out while a
// login is under way, and the API's error body as a typed answer.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import {
  createRecdClient,
  type ErrorBody,
  type LoginAnswer,
  type RecdClient,
  type RecdClientOptions,
} from '../../packages/client/src/index.js';
import { CLIENT_SRC, clientSources, servedDocument } from '../../scripts/client-schema-source.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startStack } from '../helpers/stack.js';
import { N_ITEMS, RATINGS, RECO_ENV, isA, until } from '../helpers/reco.js';
import { range } from '../helpers/feedback.js';

// Access tokens live this long here, so the tests see them expire; long enough that a renewed token
// is still good when its request arrives.
const TTL_SECONDS = 6;
const stack = await startStack({ ...RECO_ENV, RECD_JWT_TTL_SECONDS: String(TTL_SECONDS) });
t.teardown(() => stack.close());
const { api } = stack;
const baseUrl = api.base;
const asRoot = { root: { email: ROOT_EMAIL, password: ROOT_PASSWORD } };

// Every request the client sends (logins and refreshes too), with its answer's status.
function recorder() {
  const calls: string[] = [];
  const fetchLogged = async (request: Request) => {
    const res = await fetch(request);
    calls.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/v1/, '')} ${res.status}`);
    return res;
  };
  return { calls, fetch: fetchLogged };
}

function client(o: Omit<RecdClientOptions, 'baseUrl'>): RecdClient {
  return createRecdClient({ baseUrl, ...o });
}

// Waits until the server refuses `token` (it expired): the condition, not a time, ends the wait.
async function expired(token: string | undefined): Promise<void> {
  await until(
    'the token expires',
    () => api.post('login/jwt/', undefined, { token: token! }),
    (r) => r.status === 401 && r.body?.error_name === 'JwtTokenExpired',
    30_000,
  );
}

t.test('the committed types are what the route table gives, and the route table gives what is served', async (t) => {
  const served = (await api.get('openapi.json')).body;
  const built = servedDocument();
  t.same(built, served, 'the document built in-process is the one served');
  const ids = Object.values(built.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
    Object.values(item).map((op) => op.operationId),
  );
  t.equal(new Set(ids).size, ids.length, 'every operationId is unique (openapi-typescript refuses duplicates)');
  for (const [name, text] of Object.entries(await clientSources(built))) {
    t.ok(
      readFileSync(join(CLIENT_SRC, name), 'utf8') === text,
      `packages/client/src/${name} is current (else: npm run build && npm run client:schema)`,
    );
  }
});

let shopId = '';
t.test('a typed session: database, account, catalogue, ratings, recommendations', async (t) => {
  const recd = client({ login: asRoot });
  const db = await recd.POST('/databases/', {
    body: { name: 'shop', description: 'my shop', item_id_type: 'uint32', user_id_type: 'uuid' },
  });
  t.equal(db.response.status, 200, JSON.stringify(db.error));
  shopId = db.data!.id as string;
  const account = await recd.POST('/accounts/individual/', {
    body: { email: 'backend@example.com', role: 'backend', password: 'Backend-pass-1' },
  });
  t.equal(account.response.status, 200, JSON.stringify(account.error));

  t.same(await recd.switchDatabase({ db_id: shopId }), {}, 'root moves to the database');
  const status = await recd.GET('/databases/current/status/');
  t.equal(status.data?.status, 'pending');
  t.equal((await recd.POST('/items-properties/', { body: { property_name: 'genre', value_type: 'unicode16' } })).response.status, 204);
  const items = range(1, N_ITEMS + 1).map((i) => ({ item_id: i, genre: isA(i) ? 'a' : 'b' }));
  const put = await recd.PUT('/items-bulk/properties/', { body: { items } });
  t.equal(put.response.status, 200, JSON.stringify(put.error));
  const rated = await recd.PUT('/ratings-bulk/', { body: { ratings: RATINGS } });
  t.equal(rated.response.status, 200, JSON.stringify(rated.error));
  const counts = await recd.GET('/databases/current/counts/');
  t.same([counts.data?.items, counts.data?.ratings], [N_ITEMS, RATINGS.length], 'the counts, typed');
  // Training starts by itself past 500 ratings; the wait outlives several access tokens.
  await until(
    'ready',
    async () => (await recd.GET('/databases/current/status/')).data?.status,
    (s) => s === 'ready',
  );

  const reco = await recd.GET('/recommendation/items/{item_id}/items/', { params: { path: { item_id: '1' }, query: { amt: 5 } } });
  t.equal(reco.response.status, 200, JSON.stringify(reco.error));
  const ids: (string | number)[] = reco.data?.items_id ?? [];
  t.equal(ids.length, 5);
  t.ok(
    ids.every((id) => isA(Number(id))),
    `item 1's neighbours are of its genre: ${ids}`,
  );
});

t.test("the README's TypeScript example runs as written", async (t) => {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
  const section = readme.slice(readme.indexOf('## TypeScript client'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  t.ok(example, 'the section has a ts block');
  const entry = pathToFileURL(fileURLToPath(new URL('../../packages/client/src/index.js', import.meta.url))).href;
  const code = example!.replace("from '@recd/client'", `from '${entry}'`).replace('http://127.0.0.1:8080/v1', baseUrl);
  t.not(code.indexOf(entry), -1, 'imports @recd/client');
  t.not(code.indexOf(baseUrl), -1, 'names the example session URL');
  // The block is TypeScript that is also JavaScript: node runs it as it is.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
  const printed = JSON.parse(stdout) as number[];
  t.equal(printed.length, 5, stdout);
  t.ok(
    printed.every((id) => isA(id)),
    `item 1's neighbours: ${stdout}`,
  );
});

t.test('a token about to expire is renewed before the request', async (t) => {
  const log = recorder();
  const answers: LoginAnswer[] = [];
  const recd = client({ login: asRoot, fetch: log.fetch, onTokens: (a) => answers.push(a) });
  t.equal((await recd.GET('/databases/')).response.status, 200);
  t.same(log.calls, ['POST /login/root/ 200', 'GET /databases/ 200'], 'logs in first');
  const first = recd.tokens();
  await expired(first.token);
  log.calls.length = 0;
  t.equal((await recd.GET('/databases/')).response.status, 200);
  t.same(log.calls, ['POST /login/refresh-token/ 200', 'GET /databases/ 200'], 'renewed before, no 401');
  t.equal(answers.length, 2);
  t.not(recd.tokens().token, first.token);
  t.equal(recd.tokens().refresh_token, answers[1]!.refresh_token, 'the latest refresh token kept');
  t.not(answers[1]!.refresh_token, first.refresh_token);
});

t.test('a 401 JwtTokenExpired renews the token once and sends the requests again, bodies included', async (t) => {
  const log = recorder();
  // A clock that never passes the token's expiry: the server's answer is what says it expired.
  const recd = client({ login: asRoot, fetch: log.fetch, now: () => 0 });
  t.equal((await recd.GET('/databases/')).response.status, 200);
  await expired(recd.tokens().token);
  log.calls.length = 0;
  const names = range(0, 4).map((i) => `renewed-${i}`);
  const made = await Promise.all(
    names.map((name) =>
      recd.POST('/databases/', { body: { name, description: 'sent twice', item_id_type: 'uint32', user_id_type: 'uuid' } }),
    ),
  );
  t.same(
    made.map((m) => m.response.status),
    [200, 200, 200, 200],
    JSON.stringify(made.map((m) => m.error)),
  );
  t.same(
    log.calls.filter((c) => c.startsWith('POST /login/')),
    ['POST /login/refresh-token/ 200'],
    'one refresh for all four',
  );
  t.equal(log.calls.filter((c) => c === 'POST /databases/ 401').length, 4, 'each first refused');
  t.equal(log.calls.filter((c) => c === 'POST /databases/ 200').length, 4, 'each sent again');
  const listed = await recd.GET('/databases/', { params: { query: { amt: 100 } } });
  const listedNames = (listed.data?.databases ?? []).map((d) => d.name);
  t.ok(
    names.every((n) => listedNames.includes(n)),
    'the bodies arrived',
  );
});

t.test('a refused refresh token: credentials log in again; without them, the error body is the answer', async (t) => {
  const login = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  const used = login.body.refresh_token as string;
  t.equal((await api.post('login/refresh-token/', { refresh_token: used })).status, 200, 'used once, elsewhere');

  const log = recorder();
  const withLogin = client({ refreshToken: used, login: asRoot, fetch: log.fetch });
  t.equal((await withLogin.GET('/databases/')).response.status, 200);
  t.same(log.calls, ['POST /login/refresh-token/ 401', 'POST /login/root/ 200', 'GET /databases/ 200']);

  // Three requests wait for the one refresh: each gets the refusal as its answer.
  const without = client({ refreshToken: used });
  for (const r of await Promise.all([without.GET('/databases/'), without.GET('/databases/'), without.GET('/databases/current/')])) {
    t.equal(r.response.status, 401);
    const error: ErrorBody | undefined = r.error;
    t.equal(error?.error_name, 'AuthError');
    t.equal(error?.error_data.name, 'INCORRECT_REFRESH_TOKEN');
  }
});

t.test('switchDatabase moves the session, and a new login returns to the database chosen', async (t) => {
  const log = recorder();
  const recd = client({ login: asRoot, fetch: log.fetch });
  const refused = await recd.switchDatabase({ db_id: 'no-such-database' });
  t.equal(refused.error?.error_name, 'NotFoundError', JSON.stringify(refused));
  t.same(await recd.switchDatabase({ db_id: shopId }), {});
  t.equal((await recd.GET('/databases/current/')).data?.id, shopId);
  // Its refresh token used elsewhere: once the token expires, only a new login renews it.
  t.equal((await api.post('login/refresh-token/', { refresh_token: recd.tokens().refresh_token })).status, 200);
  await expired(recd.tokens().token);
  log.calls.length = 0;
  t.equal((await recd.GET('/databases/current/')).data?.id, shopId, 'back on the database');
  t.same(log.calls, [
    'POST /login/refresh-token/ 401',
    'POST /login/root/ 200',
    'POST /login/refresh-token/ 200',
    'GET /databases/current/ 200',
  ]);
});

t.test('signOut forgets the session: the login under way keeps nothing, later requests go without a token', async (t) => {
  const log = recorder();
  const answers: LoginAnswer[] = [];
  const recd = client({ login: asRoot, fetch: log.fetch, onTokens: (a) => answers.push(a) });
  // The request starts the login before it returns (nothing is awaited before the middleware asks for
  // a token); the client signs out while that login is on its way.
  const waiting = recd.GET('/databases/');
  recd.signOut();
  const r = await waiting;
  t.equal(r.response.status, 401, 'sent without a token');
  t.equal(r.error?.error_name, 'AuthError');
  t.same(log.calls, ['POST /login/root/ 200', 'GET /databases/ 401'], 'the login went through, its tokens were not used');
  t.same(answers, [], 'no onTokens after signing out');
  t.same(recd.tokens(), { token: undefined, refresh_token: undefined });
  log.calls.length = 0;
  t.equal((await recd.GET('/databases/')).response.status, 401);
  t.same(log.calls, ['GET /databases/ 401'], 'no login: the credentials are forgotten');
});

t.test("a bad request's answer is the API's error body, typed", async (t) => {
  const recd = client({ login: { individual: { email: 'backend@example.com', password: 'Backend-pass-1', db_id: shopId } } });
  const r = await recd.GET('/recommendation/items/{item_id}/items/', { params: { path: { item_id: 'not-a-number' } } });
  t.equal(r.response.status, 400);
  t.equal(r.data, undefined);
  t.equal(r.error?.error_name, 'WrongData');
  t.type(r.error?.error_code, 'number');
  t.type(r.error?.error_data.name, 'string');
  const wrong = await client({ login: { individual: { email: 'backend@example.com', password: `${PASSWORD}x` } } }).GET(
    '/databases/current/status/',
  );
  t.equal(wrong.response.status, 401, 'a refused login is the answer');
  t.equal(wrong.error?.error_data.name, 'INCORRECT_PASSWORD');
});

// Compiled, never run: the document's paths, parameters and answers are types.
function typeChecks(recd: RecdClient) {
  // @ts-expect-error no such path
  void recd.GET('/recommendation/items/{item_id}/itemz/', { params: { path: { item_id: '1' } } });
  // @ts-expect-error the path's item_id is missing
  void recd.GET('/recommendation/items/{item_id}/items/', { params: { path: {} } });
  // @ts-expect-error a database needs its id types
  void recd.POST('/databases/', { body: { name: 'x', description: 'y' } });
  void recd.GET('/recommendation/items/{item_id}/items/', { params: { path: { item_id: '1' } } }).then(({ data, error }) => {
    // @ts-expect-error items_id is a list
    const one: string = data!.items_id;
    const name: ErrorBody['error_name'] | undefined = error?.error_name;
    return [one, name];
  });
}
void typeChecks;
