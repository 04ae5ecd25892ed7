// Router: fixed segments, parameters, percent-decoding, 405 allow lists, trailing slashes.
import t from 'tap';
import { Router } from '../../src/http/router.js';
import type { Route } from '../../src/contract/routes.js';

const r = (method: Route['method'], path: string): Route => ({
  method,
  path,
  access: 'public',
  database: false,
  summary: path,
  handler: () => undefined,
});

const router = new Router([
  r('GET', 'items/<item_id>/properties/'),
  r('PUT', 'items/<item_id>/properties/'),
  r('GET', 'items/special/properties/'),
  r('POST', 'items-bulk/properties/list/'),
  r('GET', 'users/<user_id>/interactions/<item_id>/'),
  r('GET', '/'),
]);

t.test('fixed segments win over parameters, and parameters still match elsewhere', async (t) => {
  const fixed = router.match('GET', '/items/special/properties/');
  t.equal(fixed.kind === 'route' && fixed.route.path, 'items/special/properties/');
  const param = router.match('GET', '/items/42/properties/');
  t.same(param.kind === 'route' && param.params, { item_id: '42' });
  // "special" with another method falls back to the parameter route.
  const put = router.match('PUT', '/items/special/properties/');
  t.same(put.kind === 'route' && put.params, { item_id: 'special' });
});

t.test('several parameters, percent-decoded', async (t) => {
  const m = router.match('GET', '/users/a%20b/interactions/%E2%9C%93/');
  t.same(m.kind === 'route' && m.params, { user_id: 'a b', item_id: '✓' });
});

t.test('bad percent-encoding is WrongData', async (t) => {
  t.throws(() => router.match('GET', '/items/%E0%A4%A/properties/'), { name: 'ApiError', errorName: 'WrongData' } as { name: string });
});

t.test('wrong method gives the allow list with HEAD and OPTIONS', async (t) => {
  const m = router.match('DELETE', '/items/1/properties/');
  t.same(m, { kind: 'method', allow: 'GET, PUT, HEAD, OPTIONS' });
  t.same(router.match('GET', '/items-bulk/properties/list/'), { kind: 'method', allow: 'POST, OPTIONS' });
});

t.test('HEAD uses the GET route; unknown paths do not match', async (t) => {
  t.equal(router.match('HEAD', '/').kind, 'route');
  t.equal(router.match('GET', '/items/').kind, 'none');
  t.equal(router.match('GET', '/items//properties/').kind, 'none');
  t.equal(router.match('GET', '/nothing/here/').kind, 'none');
});

t.test('the trailing slash is optional', async (t) => {
  t.equal(router.match('GET', '/items/3/properties').kind, 'route');
});

t.test('clashing parameter names and duplicate routes are refused at build time', async (t) => {
  t.throws(() => new Router([r('GET', 'a/<x>/'), r('PUT', 'a/<y>/')]), /clashes/);
  t.throws(() => new Router([r('GET', 'a/'), r('GET', 'a/')]), /twice/);
});

t.test('a segment matches whole, never by its prefix', async (t) => {
  t.equal(router.match('GET', '/item/3/properties/').kind, 'none');
  t.equal(router.match('POST', '/items-bul/properties/list/').kind, 'none');
  t.equal(router.match('POST', '/items-bulk/properties/lists/').kind, 'none');
  const m = router.match('GET', '/items/specials/properties/');
  t.same(m.kind === 'route' && m.params, { item_id: 'specials' });
});
