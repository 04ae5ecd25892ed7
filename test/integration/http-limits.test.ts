// What one request may cost before it is refused: bodies judged by their head first (no body read
// for a refused token), small caps for the public routes, decompression stopped at its cap, the URL
// limit, uWebSockets.js's own refusals (HTTP/1.0, huge heads), and error bodies that do not echo
// huge input.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { freshDatabase } from '../helpers/feedback.js';
import { errorOf, frontendToken, rootToken } from '../helpers/fixtures.js';
import { chunked, rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { startStack } from '../helpers/stack.js';

// Defaults: 64 KiB public bodies, 64 MiB / 512 MiB for routes that need a token, 16 KiB URLs.
const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const port = Number(new URL(api.base).port);
const root = await rootToken(api);

const MiB = 1024 * 1024;
// A gzip stream of many members, each 10 MiB of spaces: `members` × 10 MiB inflated for about
// 10 KiB sent each (gunzip reads concatenated members as one body).
const member = gzipSync(Buffer.alloc(10 * MiB, 0x20));
const bomb = (members: number) => Buffer.concat(Array.from({ length: members }, () => member));
const bigBomb = bomb(Math.ceil((10 * MiB) / member.length)); // 10 MB sent, ~10 GiB inflated
const bigBombChunked = chunked([bigBomb]);
const smallBomb = bomb(Math.floor((60 * 1024) / member.length)); // under the public cap as sent, ~60 MiB inflated

const jsonHead = (method: string, path: string, extra: string[]) =>
  [`${method} /v1/${path} HTTP/1.1`, 'Host: x', 'Content-Type: application/json', ...extra].join('\r\n');
const parsed = (r: RawAnswer) => ({ status: r.status, body: JSON.parse(r.body) });

// Peak resident memory of this process (recd runs in it) since it started, in bytes: what a
// request costs even when it is freed before anyone looks.
const peakRss = () => process.resourceUsage().maxRSS * 1024;

t.test('a 10 MB gzip bomb to POST login/root/ is refused with 413 before it is read; GET / answers meanwhile', async (t) => {
  t.ok(bigBomb.length >= 10 * 1000 * 1000, `the bomb weighs ${bigBomb.length} bytes`);
  const before = peakRss();
  // Eight at once, half with a Content-Length, half chunked (no length to judge: cut at the cap).
  const bombs = Array.from({ length: 8 }, (_, i) =>
    i % 2 === 0
      ? rawRequest(port, jsonHead('POST', 'login/root/', ['Content-Encoding: gzip', `Content-Length: ${bigBomb.length}`]), [bigBomb])
      : rawRequest(port, jsonHead('POST', 'login/root/', ['Content-Encoding: gzip', 'Transfer-Encoding: chunked']), bigBombChunked),
  );
  const greeting = await api.get('');
  t.equal(greeting.status, 200, 'GET / answers while the bombs are in flight');
  for (const r of await Promise.all(bombs)) {
    const { status, body } = parsed(r);
    t.same(errorOf({ status, body }), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
    t.match(body.message, /request body exceeds the limit of 65536 bytes/);
  }
  const grown = peakRss() - before;
  t.ok(grown < 10 * MiB, `peak RSS grew by ${(grown / MiB).toFixed(1)} MiB`);
});

t.test('a bomb under the public cap as sent is stopped once it inflates past the cap', async (t) => {
  t.ok(smallBomb.length <= 64 * 1024, `the bomb weighs ${smallBomb.length} bytes`);
  const before = peakRss();
  const answers = await Promise.all(
    Array.from({ length: 8 }, () =>
      api.call('POST', 'login/root/', { raw: smallBomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
    ),
  );
  for (const r of answers) {
    t.same(errorOf(r), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
    t.match(r.body.message, /decompresses to more than 65536 bytes/);
  }
  const grown = peakRss() - before;
  t.ok(grown < 10 * MiB, `peak RSS grew by ${(grown / MiB).toFixed(1)} MiB`);
  // A login of normal size still works, compressed or not.
  const login = JSON.stringify({ email: 'root@test.local', password: 'Root-password-1' });
  t.equal(
    (
      await api.call('POST', 'login/root/', {
        raw: gzipSync(login),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      })
    ).status,
    200,
  );
});

t.test('a route that needs a token answers 401 from the head, without waiting for a 50 MB body', async (t) => {
  for (const auth of [[], ['Authorization: Bearer not-a-token']]) {
    const r = await rawRequest(port, jsonHead('POST', 'databases/', [...auth, `Content-Length: ${50 * 1000 * 1000}`]), [
      Buffer.from('{"name":'),
    ]);
    t.equal(r.status, 401, auth.length ? 'invalid token' : 'no token');
    t.equal(JSON.parse(r.body).error_name, auth.length ? 'JwtTokenExpired' : 'AuthError');
    t.match(r.head, /\r\nconnection: close/i, 'the unread body is not waited for');
  }
  // A wrong role is refused from the head as well.
  const { token } = await freshDatabase(api, root);
  const r = await rawRequest(
    port,
    jsonHead('POST', 'databases/', [`Authorization: Bearer ${token}`, `Content-Length: ${50 * 1000 * 1000}`]),
    [Buffer.from('{')],
  );
  t.equal(r.status, 403);
  t.equal(JSON.parse(r.body).error_data.name, 'INCORRECT_ROLE');
});

t.test('a refused request with a small body keeps its connection: pipelined requests behind it are answered', async (t) => {
  const body = '{"name":"x","description":"x","item_id_type":"uint32","user_id_type":"uuid"}';
  const refused = `${jsonHead('POST', 'databases/', [`Content-Length: ${body.length}`])}\r\n\r\n${body}`;
  const text = await new Promise<string>((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let out = '';
    sock.on('data', (d) => {
      out += d.toString();
      if ((out.match(/HTTP\/1.1 /g) ?? []).length === 3) {
        sock.destroy();
        resolve(out);
      }
    });
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
    sock.write(`${refused}GET /v1/ HTTP/1.1\r\nHost: x\r\n\r\n${refused}`);
  });
  t.same(
    [...text.matchAll(/HTTP\/1.1 (\d+)/g)].map((m) => m[1]),
    ['401', '200', '401'],
  );
  t.notMatch(text, /connection: close/i);
});

t.test('bodies over the caps of a token route: 413 from the Content-Length, or at the cap when chunked', async (t) => {
  const declared = await rawRequest(
    port,
    jsonHead('POST', 'databases/', [`Authorization: Bearer ${root}`, `Content-Length: ${65 * MiB}`]),
    [Buffer.from('{')],
  );
  t.same(errorOf(parsed(declared)), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.match(JSON.parse(declared.body).message, /exceeds the limit of 67108864 bytes/);
  // Public routes: over 64 KiB is refused whatever the token.
  const pub = await api.call('POST', 'login/root/', {
    raw: Buffer.alloc(64 * 1024 + 1, 0x20),
    headers: { 'content-type': 'application/json' },
  });
  t.equal(pub.status, 413);
  const chunks = await rawRequest(
    port,
    jsonHead('POST', 'login/root/', ['Transfer-Encoding: chunked']),
    chunked([Buffer.alloc(40 * 1024, 0x20), Buffer.alloc(40 * 1024, 0x20)]),
  );
  t.equal(chunks.status, 413);
});

t.test('frontend tokens (they live in browsers) take bodies of RECD_MAX_BROWSER_BODY_BYTES at most, as sent and inflated', async (t) => {
  const { db, token: backend } = await freshDatabase(api, root, { user_id_type: 'uint32' });
  const frontend = await frontendToken(api, root, db, 1);
  // 300 KiB sent inflating to ~10 MiB: over the browser cap once inflated, far under the backend's caps.
  const inflated = gzipSync(
    Buffer.from(JSON.stringify({ interactions: [{ item_id: 1, interaction_type: 'view', pad: 'x'.repeat(10 * MiB) }] })),
  );
  const asFrontend = await rawRequest(
    port,
    jsonHead('POST', 'users/1/interactions-bulk/', [
      `Authorization: Bearer ${frontend}`,
      'Content-Encoding: gzip',
      `Content-Length: ${inflated.length}`,
    ]),
    [inflated],
  );
  t.same(errorOf(parsed(asFrontend)), { status: 413, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.match(JSON.parse(asFrontend.body).message, /decompresses to more than 1048576 bytes|exceeds the limit of 1048576 bytes/);
  const declared = await rawRequest(
    port,
    jsonHead('POST', 'users/1/interactions-bulk/', [`Authorization: Bearer ${frontend}`, `Content-Length: ${2 * MiB}`]),
    [Buffer.from('{')],
  );
  t.equal(declared.status, 413, 'a declared 2 MiB body is refused from the head');
  // The same body from a backend token passes the caps and reaches validation (the pad field is ignored).
  const asBackend = await rawRequest(
    port,
    jsonHead('POST', 'users/1/interactions-bulk/', [
      `Authorization: Bearer ${backend}`,
      'Content-Encoding: gzip',
      `Content-Length: ${inflated.length}`,
    ]),
    [inflated],
  );
  t.not(asBackend.status, 413, `a backend token's body of the same size is read (${asBackend.status})`);
});

t.test('URLs: 414 above RECD_MAX_URL_BYTES with the WrongData body; uWebSockets.js refuses heads over ~125 KiB', async (t) => {
  const id = 'a'.repeat(16 * 1024);
  const long = await api.get(`items/${id}/properties/`, { token: root });
  t.same(errorOf(long), { status: 414, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' });
  t.match(long.body.message, /exceed the limit of 16384 characters/);
  const query = await api.get('databases/', { token: root, query: `amt=1&x=${'b'.repeat(16 * 1024)}` });
  t.equal(query.status, 414, 'the query string counts');
  const under = await api.get(`items/${'a'.repeat(8 * 1024)}/properties/`, { token: root });
  t.not(under.status, 414, 'a long URL under the limit reaches the route');
  // Past uWebSockets.js's buffer the request line is refused by uWS itself (505, its own HTML body),
  // and headers by 431: recd never sees them.
  const huge = await rawRequest(port, `GET /v1/${'a'.repeat(130 * 1024)} HTTP/1.1\r\nHost: x`);
  t.equal(huge.status, 505);
  const header = await rawRequest(port, `GET /v1/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(130 * 1024)}`);
  t.equal(header.status, 431);
});

t.test('HTTP/1.0 is refused by uWebSockets.js with 505 (documented: speak HTTP/1.1 to recd)', async (t) => {
  const r = await rawRequest(port, 'GET /v1/ HTTP/1.0\r\nHost: x');
  t.equal(r.status, 505);
  t.match(r.head, /\r\nconnection: close/i);
  const ok = await rawRequest(port, 'GET /v1/ HTTP/1.1\r\nHost: x');
  t.equal(ok.status, 200);
});

t.test('error bodies show huge input cut to 100 characters with its length', async (t) => {
  const { token } = await freshDatabase(api, root);
  const id = 'a'.repeat(MiB);
  const r = await api.put('items-bulk/properties/', { items: [{ item_id: id }] }, { token });
  t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'INCORRECT_ITEM_ID_TYPE' });
  t.ok(r.bytes.length < 2000, `the error body weighs ${r.bytes.length} bytes`);
  const shown = `"${'a'.repeat(100)}… (${MiB} characters)"`;
  t.ok(r.body.message.includes(shown), r.body.message);
  t.ok(r.body.error_data.error.includes(shown));
});
