// CORS: configured origins get the headers browsers need, preflights of every route are answered
// with that route's methods, other origins get none, and without configuration nothing changes.
import t from 'tap';
import { Api } from '../helpers/api.js';
import { startStack } from '../helpers/stack.js';
import { CORS_ALLOW_HEADERS } from '../../src/http/cors.js';

const APP = 'https://app.example.com';
const OTHER = 'http://localhost:3000';
const stack = await startStack({ RECD_CORS_ORIGINS: `${APP}, ${OTHER}` });
t.teardown(() => stack.close());
const { api } = stack;

// A concrete path for a route's pattern: every parameter gets a value.
const concrete = (path: string) => path.replace(/<[^>]+>/g, 'x1');

t.test('preflight of every route of the table, for an allowed origin', async (t) => {
  const routes = stack.app.dispatcher.routes;
  t.ok(routes.length > 20, `${routes.length} routes`);
  for (const route of routes) {
    const r = await api.call('OPTIONS', concrete(route.path), {
      headers: {
        origin: APP,
        'access-control-request-method': route.method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    const name = `${route.method} ${route.path}`;
    t.equal(r.status, 204, name);
    t.equal(r.headers['access-control-allow-origin'], APP, name);
    t.ok(
      String(r.headers['access-control-allow-methods']).split(', ').includes(route.method),
      `${name}: ${r.headers['access-control-allow-methods']}`,
    );
    t.equal(r.headers['access-control-allow-headers'], CORS_ALLOW_HEADERS, name);
    t.equal(r.headers['access-control-max-age'], '600', name);
    t.equal(r.headers.vary, 'Origin', name);
  }
});

t.test('answers to an allowed origin, errors included, expose the request id', async (t) => {
  for (const origin of [APP, OTHER]) {
    const ok = await api.get('', { headers: { origin } });
    t.equal(ok.status, 200);
    t.equal(ok.headers['access-control-allow-origin'], origin);
    t.equal(ok.headers['access-control-expose-headers'], 'x-request-id, retry-after');
    t.equal(ok.headers.vary, 'Origin');
    t.equal(ok.headers['access-control-allow-methods'], undefined, 'methods only on preflights');
  }
  const denied = await api.get('databases/', { headers: { origin: APP } });
  t.equal(denied.status, 401);
  t.equal(denied.headers['access-control-allow-origin'], APP, 'the browser may read the error');
  const probe = await new Api(`http://127.0.0.1:${stack.app.port}`).call('OPTIONS', 'readyz', {
    headers: { origin: APP, 'access-control-request-method': 'GET' },
  });
  t.equal(probe.status, 204);
  t.equal(probe.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
});

t.test('a refused origin gets no CORS headers but Vary: Origin', async (t) => {
  for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.example', 'null', `${APP}/`]) {
    const pre = await api.call('OPTIONS', 'databases/', { headers: { origin, 'access-control-request-method': 'GET' } });
    t.equal(pre.status, 204, origin);
    t.equal(pre.headers['access-control-allow-origin'], undefined, origin);
    t.equal(pre.headers['access-control-allow-methods'], undefined, origin);
    t.equal(pre.headers.vary, 'Origin', origin);
    const get = await api.get('', { headers: { origin } });
    t.equal(get.headers['access-control-allow-origin'], undefined, origin);
    t.equal(get.headers.vary, 'Origin', origin);
  }
});

t.test('RECD_CORS_ORIGINS=* allows any origin', async (t) => {
  const any = await startStack({ RECD_CORS_ORIGINS: '*' }, stack.redisServer);
  t.teardown(() => any.close());
  const r = await any.api.call('OPTIONS', 'login/root/', {
    headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
  });
  t.equal(r.status, 204);
  t.equal(r.headers['access-control-allow-origin'], 'https://anywhere.example');
  t.match(r.headers['access-control-allow-methods'], /POST/);
});

t.test('by default: no CORS headers at all', async (t) => {
  const plain = await startStack({}, stack.redisServer);
  t.teardown(() => plain.close());
  const pre = await plain.api.call('OPTIONS', 'databases/', { headers: { origin: APP, 'access-control-request-method': 'GET' } });
  t.equal(pre.status, 204);
  const get = await plain.api.get('', { headers: { origin: APP } });
  for (const r of [pre, get]) {
    t.notOk(
      Object.keys(r.headers).some((h) => h.startsWith('access-control-')),
      'no access-control-* header',
    );
    t.equal(r.headers.vary, undefined);
  }
});
