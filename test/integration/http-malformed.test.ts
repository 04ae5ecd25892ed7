// Heads recd refuses before routing, with 400 and a closed connection: a Content-Length that is not
// one plain number (a negative one once threw inside body reading and held its in-flight slot, so
// that SIGTERM waited the whole drain), two Content-Lengths (request smuggling behind a proxy), and
// bytes outside printable ASCII in a header recd reads.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { run, until } from '../helpers/cli.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis, startStack } from '../helpers/stack.js';

// What recd logs, for the check that no malformed head is an error of its own.
const logged: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n')) if (line) logged.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const stack = await startStack({}, undefined, pino({ level: 'info' }, sink));
t.teardown(() => stack.close());
const port = Number(new URL(stack.api.base).port);

const login = JSON.stringify({ email: ROOT_EMAIL, password: ROOT_PASSWORD });
// JSON unless `extra` names its own Content-Type.
const head = (method: string, path: string, extra: string[]) =>
  [
    `${method} /v1/${path} HTTP/1.1`,
    'Host: x',
    ...(extra.some((h) => /^content-type:/i.test(h)) ? [] : ['Content-Type: application/json']),
    ...extra,
  ].join('\r\n');
// A head with a header value given as bytes (Latin-1: one char per byte).
const bytesHead = (method: string, path: string, extra: string[]) => Buffer.from(head(method, path, extra), 'latin1');

function refused(t: Test, r: RawAnswer, field: string, what: string): void {
  const body = JSON.parse(r.body);
  t.same(
    errorOf({ status: r.status, body }),
    { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' },
    `${what}: the spec's 400`,
  );
  t.equal(body.error_data.field, field, `${what}: names ${field}`);
  t.match(r.head, /\r\nConnection: close/i, `${what}: the connection is closed`);
}

// uWebSockets.js 3.0.6 refuses a Content-Length that is not a number itself, once the request
// handler has returned: it writes its own 400 (an HTML page) and closes, dropping what recd wrote.
function refusedByUws(t: Test, r: RawAnswer, what: string): void {
  t.equal(r.status, 400, `${what}: 400`);
  t.match(r.head, /\r\nConnection: close/i, `${what}: the connection is closed`);
}

t.test('a Content-Length that is not a plain number is refused with 400, logged as no error, its slot released', async (t) => {
  for (const length of ['-1', '+2', '1x', '2, 2', '0x10']) {
    const r = await rawRequest(port, head('POST', 'login/root/', [`Content-Length: ${length}`]), [Buffer.from(login)]);
    refusedByUws(t, r, `Content-Length: ${length}`);
  }
  refusedByUws(t, await rawRequest(port, head('GET', '', ['Content-Length: -1'])), 'a GET with Content-Length: -1');
  t.same(
    logged.filter((l) => (l.level as number) >= 50),
    [],
    'nothing logged at error level',
  );
  const ok = await rawRequest(port, head('POST', 'login/root/', [`Content-Length: ${login.length}`]), [Buffer.from(login)]);
  t.equal(ok.status, 200, 'a sound login still works');
});

t.test('two Content-Length headers are refused, equal or not, whatever the method', async (t) => {
  for (const [a, b] of [
    [login.length, login.length + 10],
    [login.length, login.length],
  ]) {
    const r = await rawRequest(port, head('POST', 'login/root/', [`Content-Length: ${a}`, `Content-Length: ${b}`]), [Buffer.from(login)]);
    refused(t, r, 'Content-Length', `Content-Length ${a} then ${b}`);
  }
  const get = await rawRequest(port, head('GET', '', ['Content-Length: 0', 'Content-Length: 5']));
  refused(t, get, 'Content-Length', 'a GET with two');
});

t.test('a header recd reads with a byte outside printable ASCII is refused with 400', async (t) => {
  const token = await rootToken(stack.api);
  const cases: [string, string, string[]][] = [
    ['Authorization', 'GET', [`Authorization: Bearer ${token.slice(0, 10)}\xe9${token.slice(10)}`]],
    ['Idempotency-Key', 'POST', [`Authorization: Bearer ${token}`, 'Idempotency-Key: ab\xe9c', 'Content-Length: 2']],
    ['Content-Type', 'POST', [`Authorization: Bearer ${token}`, 'Content-Type: application/js\xe9on', 'Content-Length: 2']],
    ['Content-Encoding', 'POST', [`Authorization: Bearer ${token}`, 'Content-Encoding: gz\x7fip', 'Content-Length: 2']],
  ];
  for (const [field, method, extra] of cases) {
    const r = await rawRequest(port, bytesHead(method, 'databases/', extra), method === 'POST' ? [Buffer.from('{}')] : []);
    refused(t, r, field, field);
  }
  // Not tested: a non-ASCII byte at either end of a value. uWebSockets.js 3.0.6 trims a value's
  // leading and trailing bytes below 0x21 as whitespace and compares them as signed chars, so bytes
  // from 0x7f up at the ends go too, before recd sees the value (docs/security.md).
});

t.test('SIGTERM exits within 3 s after malformed requests', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const proc = run(['serve', '--workers', '1'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  });
  await until('start', () => proc.out().includes('recd listening'));
  for (const extra of [
    ['Content-Length: -1'],
    ['Content-Length: 1x'],
    [`Content-Length: ${login.length}`, `Content-Length: ${login.length + 1}`],
  ]) {
    const r = await rawRequest(port, head('POST', 'login/root/', extra), [Buffer.from(login)]);
    t.equal(r.status, 400);
  }
  const stopping = Date.now();
  proc.child.kill('SIGTERM');
  t.equal(await proc.exited, 0, 'a clean stop');
  const seconds = (Date.now() - stopping) / 1000;
  t.ok(seconds < 3, `stopped in ${seconds.toFixed(2)} s`);
  t.notMatch(proc.out(), /request handler failed/, 'no handler failure logged');
});
