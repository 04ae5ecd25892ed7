// Request ids: X-Request-Id accepted when sane or made here, returned on every answer, in every
// error body's error_data and in the log lines of the request; the access log, off by default.
import t from 'tap';
import { pino } from 'pino';
import { MAX_REQUEST_ID_CHARS } from '../../src/http/request-id.js';
import { rootToken, unique } from '../helpers/fixtures.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startStack } from '../helpers/stack.js';

interface Line {
  msg: string;
  [k: string]: unknown;
}
function capturing(): { lines: Line[]; logger: pino.Logger } {
  const lines: Line[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) }) };
}

const logs = capturing();
const stack = await startStack({}, undefined, logs.logger);
t.teardown(() => stack.close());
const { api } = stack;
const MADE = /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/;

t.test('an id is made for every answer, unique, and errors carry it in error_data', async (t) => {
  const a = await api.get('');
  const b = await api.get('');
  t.equal(a.status, 200);
  t.match(a.headers['x-request-id'], MADE);
  t.not(a.headers['x-request-id'], b.headers['x-request-id']);
  const missing = await api.get('no/such/thing/');
  t.equal(missing.status, 404);
  t.match(missing.headers['x-request-id'], MADE);
  t.equal(missing.body.error_data.request_id, missing.headers['x-request-id']);
  const outside = await api.call('GET', '../nothing');
  t.equal(outside.body.error_data.request_id, outside.headers['x-request-id'], 'outside /v1 too');
  const refused = await api.post(
    'login/root/',
    { email: 'x@y.z', password: 'Nope-nope-1' },
    { headers: { 'x-request-id': 'login-attempt-1' } },
  );
  t.equal(refused.status, 401);
  t.equal(refused.headers['x-request-id'], 'login-attempt-1', 'a POST with a body echoes it too');
  t.equal(refused.body.error_data.request_id, 'login-attempt-1');
  t.equal(refused.body.error_data.name, 'INCORRECT_PASSWORD', 'the error data keeps its own fields');
});

t.test("the client's id is kept when it is 1-128 visible ASCII characters, else replaced", async (t) => {
  const ok = ['abc', 'x'.repeat(MAX_REQUEST_ID_CHARS), '!~{}[]:;"\'<>?/\\|'];
  for (const id of ok) {
    const r = await api.get('no/such/', { headers: { 'x-request-id': id } });
    t.equal(r.headers['x-request-id'], id);
    t.equal(r.body.error_data.request_id, id);
  }
  const bad = ['x'.repeat(MAX_REQUEST_ID_CHARS + 1), 'has space', 'tab\there'];
  for (const id of bad) {
    const r = await api.get('', { headers: { 'x-request-id': id } });
    t.match(r.headers['x-request-id'], MADE, `${JSON.stringify(id.slice(0, 20))} replaced`);
  }
  // Sent as UTF-8 over a bare socket; inside the value, as uWS trims bytes over 127 at its end.
  const accented = await rawRequest(stack.app.port, 'GET /v1/ HTTP/1.1\r\nHost: x\r\nX-Request-Id: caf\u00e9-au-lait');
  t.equal(accented.status, 200);
  t.match(/^x-request-id: (.*)$/im.exec(accented.head)?.[1], MADE, 'non-ASCII replaced');
});

t.test('the log line of a failed request carries its id', async (t) => {
  const root = await rootToken(api);
  const email = `${unique('corrupt')}@test.local`;
  const created = await api.post('accounts/individual/', { email, role: 'backend', password: 'Valid-password-1' }, { token: root });
  const org = (await api.post('login/jwt/', undefined, { token: root })).body.org_id;
  await stack.redis.hset(`{org:${org}}:accounts`, created.body.id, 'not msgpack at all');
  const r = await api.post('login/individual/', { email, password: 'Valid-password-1' }, { headers: { 'x-request-id': 'trace-me-500' } });
  t.equal(r.status, 500);
  t.equal(r.body.error_data.request_id, 'trace-me-500');
  t.match(r.body.message, /trace-me-500/);
  const line = logs.lines.find((l) => l.msg === 'unhandled error' && l.requestId === 'trace-me-500');
  t.ok(line, 'the error is logged with the request id');
  t.notOk(
    logs.lines.some((l) => l.msg === 'request'),
    'no access log by default',
  );
});

t.test('RECD_ACCESS_LOG=1: one line per request', async (t) => {
  const own = capturing();
  const logged = await startStack({ RECD_ACCESS_LOG: '1' }, stack.redisServer, own.logger);
  t.teardown(() => logged.close());
  const ok = await logged.api.get('', { headers: { 'x-request-id': 'access-1' } });
  await logged.api.get('no/such/', { headers: { 'x-request-id': 'access-2' } });
  const post = await logged.api.post(
    'login/root/',
    { email: 'x@y.z', password: 'Nope-nope-1' },
    { headers: { 'x-request-id': 'access-3' } },
  );
  const lines = own.lines.filter((l) => l.msg === 'request');
  t.equal(lines.length, 3);
  t.match(lines[0], { requestId: 'access-1', method: 'GET', path: '/v1/', status: 200, bytes: ok.bytes.length });
  t.type(lines[0]!.ms, 'number');
  t.match(lines[1], { requestId: 'access-2', method: 'GET', path: '/v1/no/such/', status: 404 });
  t.match(lines[2], { requestId: 'access-3', method: 'POST', path: '/v1/login/root/', status: 401, bytes: post.bytes.length });
});
