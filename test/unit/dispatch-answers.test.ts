// The dispatcher's answers to results it cannot encode: a failure's answer (500 SERVER_ERROR with the
// spec's error body), whether the handler's result came at once or from a promise. A later result's
// encoding error once rejected the request's outcome, which left it unanswered.
import { pino } from 'pino';
import t from 'tap';
import { jsonCodec } from '../../src/codecs/json.js';
import { CodecRegistry } from '../../src/codecs/registry.js';
import type { Route } from '../../src/contract/routes.js';
import { BearerAuth } from '../../src/http/auth.js';
import { Dispatcher, type PlainRequest } from '../../src/http/dispatch.js';
import { Router } from '../../src/http/router.js';

// JSON has no BigInt: JSON.stringify throws on it.
const unencodable = { count: 1n };
const route = (path: string, handler: Route['handler']): Route => ({
  method: 'GET',
  path,
  access: 'public',
  database: false,
  summary: path,
  handler,
});
const dispatcher = new Dispatcher({
  router: new Router([
    route('now/', () => unencodable),
    route('later/', async () => unencodable),
    route('fine/', async () => ({ ok: true })),
  ]),
  codecs: new CodecRegistry(jsonCodec, []),
  auth: new BearerAuth(
    () => {
      throw new Error('no tokens here');
    },
    () => false,
  ),
  logger: pino({ level: 'silent' }),
  maxBodyBytes: 1 << 20,
  maxDecompressedBytes: 1 << 20,
  maxPublicBodyBytes: 1 << 16,
  maxBrowserBodyBytes: 1 << 16,
  maxUrlBytes: 8192,
  classify: () => undefined,
});

const get = (url: string): PlainRequest => ({
  method: 'GET',
  url,
  query: '',
  authorization: '',
  contentType: '',
  contentEncoding: '',
  accept: 'application/json',
  acceptEncoding: '',
  remoteAddress: '127.0.0.1',
  idempotencyKey: '',
  requestId: 'r1',
  body: undefined,
});

t.test('a result that cannot be encoded answers 500 SERVER_ERROR, at once or later', async (t) => {
  for (const url of ['/v1/now/', '/v1/later/']) {
    const out = await dispatcher.dispatch(get(url));
    t.equal(out.status, 500, url);
    const body = JSON.parse(String(out.body)) as { error: { name: string } } & Record<string, unknown>;
    t.match(JSON.stringify(body), /SERVER_ERROR/, `${url}: the spec's error name`);
    t.match(JSON.stringify(body), /r1/, `${url}: the request id, to find it in the log`);
  }
});

t.test('a later result that can be encoded answers 200 with it', async (t) => {
  const out = await dispatcher.dispatch(get('/v1/fine/'));
  t.equal(out.status, 200);
  t.same(JSON.parse(String(out.body)), { ok: true });
});
