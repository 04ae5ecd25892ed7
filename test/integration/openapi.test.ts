// The API description (GET /v1/openapi.json) and the API page (GET /v1/docs/): the document passes a
// maintained OpenAPI 3.1 validator, names every route of the table, and real answers match the
// response schemas it gives; the page and its files load from recd itself.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Value } from '@sinclair/typebox/value';
import t from 'tap';
import { ErrorBody, openApiPath } from '../../src/http/openapi.js';
import type { CallOptions } from '../helpers/api.js';
import { createDatabase, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { uid } from '../helpers/feedback.js';
import { RECO_ENV, trainedDatabase, type Tt } from '../helpers/reco.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD, startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const routes = stack.app.dispatcher.routes;

t.test('the document passes the OpenAPI 3.1 validator', async (t) => {
  const r = await api.get('openapi.json');
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.body.openapi, '3.1.0');
  const validator = new Validator();
  const res = await validator.validate(r.body);
  t.same(res.errors, undefined, 'no errors');
  t.ok(res.valid);
  t.equal(validator.version, '3.1');
});

t.test('every route of the table is described with its roles, schemas and errors', async (t) => {
  const doc = (await api.get('openapi.json')).body;
  t.ok(routes.length > 50, `${routes.length} routes`);
  for (const route of routes) {
    const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    t.ok(op, `${route.method} ${route.path}`);
    if (!op) continue;
    t.same(op['x-roles'], route.access, `${route.method} ${route.path} roles`);
    t.equal(op.summary, route.summary);
    t.not(route.response, undefined, `${route.method} ${route.path} declares its answer`);
    if (route.response === null) t.same(Object.keys(op.responses['204'] ?? {}), ['description'], `${route.path} answers 204`);
    else for (const status of route.statuses ?? [200]) t.ok(op.responses[String(status)].content[route.media ?? 'application/json'].schema, `${route.method} ${route.path} answer schema`);
    if (route.access === 'public') t.notOk(op.security, `${route.path} needs no token`);
    else {
      t.same(op.security, [{ bearer: [] }]);
      t.ok(op.responses['401'], `${route.method} ${route.path} documents 401`);
    }
    if (route.body) t.ok(op.requestBody.content['application/json'].schema, `${route.method} ${route.path} body`);
    const inPath = (route.path.match(/<[^>]+>/g) ?? []).length;
    t.equal((op.parameters ?? []).filter((p: { in: string }) => p.in === 'path').length, inPath, `${route.path} path parameters`);
    t.ok(op.responses['400'].content['application/json'].schema.$ref, 'error bodies');
  }
  const described = Object.values(doc.paths).reduce((n: number, ops) => n + Object.keys(ops as object).length, 0);
  t.equal(described, routes.length, 'no operation without a route');
  t.ok(doc.paths['/'].get, 'the root is /');
  t.same(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'an access token from POST /login/' });
});

t.test('an error answer matches the shared error schema', async (t) => {
  const doc = (await api.get('openapi.json')).body;
  const r = await api.get('databases/');
  t.equal(r.status, 401);
  t.same(doc.components.schemas.Error, JSON.parse(JSON.stringify(ErrorBody)), 'the document holds the schema checked here');
  t.ok(Value.Check(ErrorBody, r.body), JSON.stringify(r.body));
});

t.test('answers of the real server match the documented response schemas', async (t) => {
  const root = await rootToken(api);
  const service = unique('svc');
  const email = `${unique('ind')}@test.local`;
  const samples: Sample[] = [
    ['GET', '/', {}],
    ['GET', 'openapi.json', {}],
    ['POST', 'login/root/', { body: { email: ROOT_EMAIL, password: ROOT_PASSWORD } }],
    ['POST', 'login/jwt/', { token: root }],
    ['POST', 'databases/', { token: root, body: { name: unique('db'), description: 'd', item_id_type: 'uint32', user_id_type: 'uuid' } }],
    ['GET', 'databases/', { token: root }],
    ['POST', 'accounts/individual/', { token: root, body: { email, role: 'manager', password: PASSWORD } }],
    ['PATCH', 'accounts/individual/', { token: root, body: { email, first_name: 'Ada' } }],
    ['POST', 'accounts/service/', { token: root, body: { name: service, role: 'backend' } }],
    ['POST', 'accounts/service/keys/', { token: root, body: { name: service } }],
    ['GET', 'organizations/current/accounts/', { token: root }],
    ['DELETE', 'accounts/individual/', { token: root, body: { email } }],
  ];
  const db = await createDatabase(api, root);
  const onDb = await tokenFor(api, root, 'root', db);
  samples.push(
    ['POST', 'login/individual/', { body: { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_id: db } }],
    ['GET', 'databases/current/', { token: onDb }],
    ['GET', 'databases/current/status/', { token: onDb }],
    ['PATCH', 'databases/current/', { token: onDb, body: { description: 'changed' } }],
    ['POST', 'items-properties/', { token: onDb, body: { property_name: 'colour', value_type: 'unicode30' } }],
    ['GET', 'items-properties/', { token: onDb }],
    ['GET', 'items-properties/<property_name>/', { token: onDb, path: 'items-properties/colour/' }],
    ['DELETE', 'items-properties/<property_name>/', { token: onDb, path: 'items-properties/colour/' }],
  );
  await checkAnswers(t, samples);
});

t.test('recommendation, rating and listing answers match their documented schema', async (t) => {
  const root = await rootToken(api);
  const { token } = await trainedDatabase(api, root);
  await checkAnswers(t, [
    ['GET', 'recommendation/items/<item_id>/items/', { token, path: 'recommendation/items/1/items/' }],
    ['GET', 'recommendation/users/<user_id>/items/', { token, path: `recommendation/users/${uid(0)}/items/` }],
    ['POST', 'recommendation/sessions/items/', { token, body: { ratings: [{ item_id: 1, rating: 9 }] } }],
    ['POST', 'recommendation/generic/items/', { token, body: { user_id: uid(0) } }],
    ['PUT', 'users/<user_id>/ratings/<item_id>/', { token, path: `users/${uid(1)}/ratings/1/`, body: { rating: 9 } }],
    ['GET', 'users/<user_id>/ratings/', { token, path: `users/${uid(1)}/ratings/` }],
    ['GET', 'ratings-bulk/', { token, query: 'amt=5' }],
    ['DELETE', 'users/<user_id>/ratings/<item_id>/', { token, path: `users/${uid(1)}/ratings/1/` }],
    ['GET', 'interaction-rules/', { token }],
    ['GET', 'scenarios/', { token }],
    ['GET', 'pretrained-ml/trained-models/', { token }],
    ['GET', 'items-bulk/properties/', { token }],
    ['DELETE', 'users/<user_id>/*/', { token, path: `users/${uid(2)}/*/` }],
    ['DELETE', 'interactions-ratings-bulk/', { token, body: { users_id: [uid(3)] } }],
    ['PUT', 'items/<item_id>/properties/', { token, path: 'items/1/properties/', body: { item: {}, wait_for_completion: false } }],
  ]);
});

// o.path: the path to call when the route's has parameters.
type Sample = [method: string, path: string, o: CallOptions & { path?: string }];

// Each sample's answer against its route's documented response: its schema, or 204 for none.
async function checkAnswers(t: Tt, samples: Sample[]) {
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  for (const [method, path, o] of samples) {
    const route = byKey.get(`${method} ${path}`)!;
    t.not(route.response, undefined, `${method} ${path} has a response schema`);
    const r = await api.call(method, o.path ?? (path === '/' ? '' : path), o);
    if (route.response === null) {
      t.equal(r.status, 204, `${method} ${path}: documented as 204 (${r.text})`);
      continue;
    }
    t.ok((route.statuses ?? [200]).includes(r.status), `${method} ${path}: ${r.status} is documented (${r.text.slice(0, 200)})`);
    const errors = [...Value.Errors(route.response!, r.body)].slice(0, 3).map((e) => `${e.path} ${e.message}`);
    t.same(errors, [], `${method} ${path} matches its schema`);
  }
}

t.test('the API page and its files load from recd, pointed at the document', async (t) => {
  const page = await api.get('docs/');
  t.equal(page.status, 200);
  t.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  t.match(page.text, /swagger-ui-bundle\.js/);
  t.notMatch(page.text, /https?:\/\//, 'nothing from a CDN');
  const refs = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
  t.ok(refs.length >= 5, refs.join(' '));
  for (const ref of refs) t.match(ref, /^\/v1\/docs\/[\w.-]+$/, `${ref}: absolute, so /v1/docs without its slash works too`);
  for (const ref of refs) t.equal((await api.get(ref.slice('/v1/'.length))).status, 200, ref);
  t.equal((await api.get('docs')).text, page.text, 'docs without its slash: the same page');
  const files: [string, RegExp][] = [
    ['swagger-ui.css', /^text\/css/],
    ['index.css', /^text\/css/],
    ['swagger-ui-bundle.js', /^text\/javascript/],
    ['swagger-ui-standalone-preset.js', /^text\/javascript/],
    ['swagger-initializer.js', /^text\/javascript/],
    ['favicon-32x32.png', /^image\/png/],
  ];
  for (const [file, type] of files) {
    const r = await api.get(`docs/${file}`);
    t.equal(r.status, 200, file);
    t.match(r.headers['content-type'], type, file);
    t.ok(r.bytes.length > 0, file);
  }
  const init = await api.get('docs/swagger-initializer.js');
  t.match(init.text, /url: "\/v1\/openapi\.json"/);
  t.notMatch(init.text, /petstore/);
  const missing = await api.get('docs/package.json');
  t.equal(missing.status, 404);
  t.equal(missing.body.error_data.name, 'RESOURCE_NOT_FOUND');
});
