// The HTTP front: routing, 404/405/allow, HEAD/OPTIONS, bodies, compression, codecs, query strings.
import { deflateSync, gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import t from 'tap';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_MAX_BODY_BYTES: String(64 * 1024), RECD_MAX_DECOMPRESSED_BYTES: String(256 * 1024) });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

t.test('GET / greets without credentials and lists the allowed methods', async (t) => {
  const r = await api.get('');
  t.equal(r.status, 200);
  t.equal(typeof r.body, 'string');
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.headers.allow, 'GET, HEAD, OPTIONS');
});

t.test('HEAD answers like GET without a body; OPTIONS lists methods', async (t) => {
  const head = await api.call('HEAD', '');
  t.equal(head.status, 200);
  t.equal(head.text, '');
  const get = await api.get('');
  t.equal(Number(head.headers['content-length']), Buffer.byteLength(get.text));
  const opt = await api.call('OPTIONS', 'databases/');
  t.equal(opt.status, 204);
  t.equal(opt.headers.allow, 'POST, GET, HEAD, OPTIONS');
});

t.test('unknown paths are 404 RESOURCE_NOT_FOUND, outside /v1/ too', async (t) => {
  for (const path of ['nope/', 'databases/current/nope/']) {
    t.same(errorOf(await api.get(path, { token: root })), {
      status: 404,
      code: 60,
      errorName: 'NotFoundError',
      name: 'RESOURCE_NOT_FOUND',
    });
  }
  const outside = await new (api.constructor as any)(api.base.replace('/v1', '')).get('databases/');
  t.equal(outside.status, 404);
  t.equal(outside.body.error_data.name, 'RESOURCE_NOT_FOUND');
});

t.test('a known path with another method is 405 with an allow header', async (t) => {
  const r = await api.put('login/root/', {});
  t.same(errorOf(r), { status: 405, code: 70, errorName: 'MethodNotAllowed', name: 'HTTP_METHOD_NOT_ALLOWED' });
  t.equal(r.body.error_data.method, 'PUT');
  t.equal(r.headers.allow, 'POST, OPTIONS');
});

t.test('paths without the trailing slash reach the same route', async (t) => {
  const r = await api.get('databases', { token: root });
  t.equal(r.status, 200);
  t.ok(Array.isArray(r.body.databases));
});

t.test('error bodies carry error_code, error_name, message and error_data.name', async (t) => {
  const r = await api.post('login/root/', { email: 'nobody@x.y', password: 'whatever-Pass1' });
  t.equal(r.status, 401);
  t.same(Object.keys(r.body).sort(), ['error_code', 'error_data', 'error_name', 'message']);
  t.equal(r.body.error_data.name, 'INCORRECT_PASSWORD');
  t.type(r.body.error_data.error, 'string');
});

t.test('bad bodies are WrongData, never 500', async (t) => {
  const cases: [string, Record<string, string>, string | Buffer][] = [
    ['malformed JSON', { 'content-type': 'application/json' }, '{"email": '],
    ['not UTF-8', { 'content-type': 'application/json' }, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['JSON array instead of object', { 'content-type': 'application/json' }, '[1,2]'],
    ['JSON scalar', { 'content-type': 'application/json' }, '42'],
    ['unsupported content type', { 'content-type': 'text/csv' }, 'a,b'],
    ['wrong field type', { 'content-type': 'application/json' }, '{"email": 5, "password": "x"}'],
    ['missing field', { 'content-type': 'application/json' }, '{"email": "a@b.c"}'],
    ['unknown content encoding', { 'content-type': 'application/json', 'content-encoding': 'br' }, '{}'],
    ['garbage labelled gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not compressed at all'],
  ];
  for (const [what, headers, raw] of cases) {
    const r = await api.call('POST', 'login/root/', { headers, raw });
    t.equal(r.status, 400, what);
    t.equal(r.body.error_name, 'WrongData', what);
    t.match(r.body.error_data.name, /^WRONG_(DATA_TYPE|PARAMETER)$/, what);
  }
});

t.test('validation errors name the field', async (t) => {
  const r = await api.post('accounts/individual/', { email: 'x@y.z', role: 'emperor', password: 'Valid-password-1' }, { token: root });
  t.equal(r.status, 400);
  t.equal(r.body.error_data.field, 'role');
});

t.test('an empty body counts as {} even with a Content-Type, on every body method', async (t) => {
  // login/jwt takes no body: an empty POST with JSON (and gzip) headers must work.
  const r = await api.call('POST', 'login/jwt/', {
    token: root,
    raw: '',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  t.equal(r.status, 200);
  t.equal(r.body.account.role, 'root');
  // An empty body on an endpoint that needs fields is a WrongData about the missing field.
  const m = await api.call('POST', 'login/root/', { raw: '', headers: { 'content-type': 'application/json' } });
  t.equal(m.status, 400);
  t.match(m.body.message, /email/);
});

t.test('DELETE carries a body', async (t) => {
  const r = await api.delete('accounts/individual/', { email: 'missing@test.local' }, { token: root });
  t.same(errorOf(r), { status: 404, code: 60, errorName: 'NotFoundError', name: 'ACCOUNT_NOT_FOUND' });
  t.equal(r.body.error_data.type, 'account');
  t.equal(r.body.error_data.key, 'missing@test.local');
});

t.test('gzip and zlib bodies are decompressed whatever the label says', async (t) => {
  const body = JSON.stringify({ email: 'root@test.local', password: 'Root-password-1' });
  for (const [label, bytes] of [
    ['gzip', gzipSync(body)],
    ['gzip', deflateSync(body)], // zlib stream labelled gzip, as existing pickle clients send
    ['deflate', deflateSync(body)],
  ] as const) {
    const r = await api.call('POST', 'login/root/', {
      raw: bytes,
      headers: { 'content-type': 'application/json', 'content-encoding': label },
    });
    t.equal(r.status, 200, label);
  }
});

t.test('oversized bodies and decompression bombs are refused with 413 and the WrongData body', async (t) => {
  // RECD_MAX_BODY_BYTES (64 KiB here) caps a token's route; the public cap is the default 64 KiB.
  const big = await api.call('POST', 'databases/', {
    token: root,
    raw: Buffer.alloc(65 * 1024, 0x20),
    headers: { 'content-type': 'application/json' },
  });
  t.same(errorOf(big), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.match(big.body.message, /exceeds the limit of 65536 bytes/);
  const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)); // ~10 KiB compressed, 10 MiB inflated
  t.ok(bomb.length < 64 * 1024);
  for (const path of ['login/root/', 'databases/']) {
    const r = await api.call('POST', path, {
      token: root,
      raw: bomb,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    t.same(errorOf(r), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, path);
    t.match(r.body.message, /decompresses to more than/, path);
  }
  // The server is still fine.
  t.equal((await api.get('')).status, 200);
});

t.test('chunked uploads are read whole', async (t) => {
  const port = new URL(api.base).port;
  const body = JSON.stringify({ email: 'root@test.local', password: 'Root-password-1' });
  const half = Math.floor(body.length / 2);
  const text = await new Promise<string>((resolve, reject) => {
    const sock = connect(Number(port), '127.0.0.1');
    let out = '';
    sock.on('data', (d) => {
      out += d.toString();
      if (out.includes('"token"')) {
        sock.destroy();
        resolve(out);
      }
    });
    sock.on('error', reject);
    const chunk = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n`;
    sock.write(
      'POST /v1/login/root/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
        + chunk(body.slice(0, half))
        + chunk(body.slice(half))
        + '0\r\n\r\n',
    );
  });
  t.match(text, /^HTTP\/1.1 200 OK/);
});

t.test('unknown body fields are ignored with a warning', async (t) => {
  const r = await api.post('login/root/', { email: 'root@test.local', password: 'Root-password-1', colour: 'blue' });
  t.equal(r.status, 200);
  t.match(r.body.warnings.join(' '), /colour/);
});

t.test('query strings: repeated keys, numbers and bad values', async (t) => {
  const ok = await api.get('databases/', { token: root, query: 'amt=2&page=1' });
  t.equal(ok.status, 200);
  const bad = await api.get('databases/', { token: root, query: 'amt=lots' });
  t.same(errorOf(bad), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.equal(bad.body.error_data.field, 'amt');
  const tooMany = await api.get('databases/', { token: root, query: 'amt=100000' });
  t.equal(tooMany.status, 400);
});

t.test('Accept with an unknown type falls back to JSON', async (t) => {
  const r = await api.get('', { headers: { accept: 'text/html, */*;q=0.1' } });
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'application/json');
});

t.test('HTTP pipelining on one connection answers every request', async (t) => {
  const port = new URL(api.base).port;
  const n = 10;
  const text = await new Promise<string>((resolve, reject) => {
    const sock = connect(Number(port), '127.0.0.1');
    let out = '';
    sock.on('data', (d) => {
      out += d.toString();
      if ((out.match(/HTTP\/1.1 200/g) ?? []).length === n) {
        sock.destroy();
        resolve(out);
      }
    });
    sock.on('error', reject);
    // Alternating body-less requests: a GET, and a POST with no Content-Length (a body of length 0).
    const get = `GET /v1/ HTTP/1.1\r\nHost: x\r\n\r\n`;
    const post = `POST /v1/login/jwt/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${root}\r\n\r\n`;
    sock.write((get + post).repeat(n / 2));
  });
  t.equal((text.match(/HTTP\/1.1 200/g) ?? []).length, n);
  t.equal((text.match(/"org_id"/g) ?? []).length, n / 2, 'every login/jwt answered');
});
