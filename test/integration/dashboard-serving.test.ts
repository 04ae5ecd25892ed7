// The dashboard's files at /dashboard/: served by recd itself outside /v1, without a token, with
// content types, cache headers, a redirect to the slash and the page for client routes.
import t from 'tap';
import { Api } from '../helpers/api.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const site = new Api(`http://127.0.0.1:${stack.app.port}`);

t.test('/dashboard redirects to /dashboard/, which is the page naming its bundled files', async (t) => {
  const bare = await site.get('dashboard');
  t.equal(bare.status, 308);
  t.equal(bare.headers.location, '/dashboard/');
  const page = await site.get('dashboard/');
  t.equal(page.status, 200);
  t.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  t.equal(page.headers['cache-control'], 'no-cache');
  t.match(page.headers['content-security-policy'], /default-src 'self'/);
  const assets = [...page.text.matchAll(/(?:href|src)="(\/dashboard\/[^"]+)"/g)].map((m) => m[1]!);
  t.same(assets.map((a) => a.replace(/\?v=[0-9a-f]{12}$/, '')).sort(), [
    '/dashboard/app.css',
    '/dashboard/app.js',
    '/dashboard/uPlot.min.css',
  ]);
  for (const a of assets) {
    const r = await site.get(a.slice(1).replace(/\?.*/, ''), { query: a.split('?')[1] });
    t.equal(r.status, 200, a);
    t.match(r.headers['content-type'], a.includes('.js') ? /^text\/javascript/ : /^text\/css/, a);
    t.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable', a);
    t.ok(r.bytes.length > 500, `${a} has content`);
  }
  t.notMatch(page.text, /https?:\/\//, 'nothing from another origin');
});

t.test('client routes are the page; a missing file is a 404 with the error body', async (t) => {
  for (const route of ['dashboard/tasks', 'dashboard/catalogue/', 'dashboard/try']) {
    const r = await site.get(route);
    t.equal(r.status, 200, route);
    t.match(r.text, /<div id="app">/, route);
  }
  const missing = await site.get('dashboard/nothing.js');
  t.equal(missing.status, 404);
  t.equal(missing.body.error_data.name, 'RESOURCE_NOT_FOUND');
  t.equal((await site.get('dashboardx')).status, 404, 'only the dashboard path itself');
});

t.test('only GET, HEAD and OPTIONS; nothing under /v1', async (t) => {
  const post = await site.post('dashboard/', {});
  t.equal(post.status, 405);
  t.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
  t.equal(post.body.error_name, 'MethodNotAllowed');
  t.equal((await site.call('HEAD', 'dashboard/')).status, 200);
  t.equal((await site.call('OPTIONS', 'dashboard/')).status, 204);
  t.equal((await stack.api.get('dashboard/')).status, 404, 'not under /v1');
});
