// The API description (GET /v1/openapi.json) and the API page (GET /v1/docs/): the document passes a
// maintained OpenAPI 3.1 validator, names every route of the table and gives every answer exactly
// (no answer in outline); the page and its files load from recd itself. Real answers against the
// documented schemas: openapi-answers.test.ts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import t from 'tap';
import { ErrorBody, openApiPath } from '../../src/http/openapi.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const routes = stack.app.dispatcher.routes;
const plainSchema = (s: TSchema): Record<string, any> => JSON.parse(JSON.stringify(s));

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
    else
      for (const status of route.statuses ?? [200])
        t.ok(op.responses[String(status)].content[route.media ?? 'application/json'].schema, `${route.method} ${route.path} answer schema`);
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
  const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
    Object.values(ops).map((op) => op.operationId),
  );
  t.same(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'operationIds are unique',
  );
  const described = Object.values(doc.paths).reduce((n: number, ops) => n + Object.keys(ops as object).length, 0);
  t.equal(described, routes.length, 'no operation without a route');
  t.ok(doc.paths['/'].get, 'the root is /');
  t.same(doc.components.securitySchemes.bearer, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'an access token from POST /login/',
  });
});

t.test('an error answer matches the shared error schema', async (t) => {
  const doc = (await api.get('openapi.json')).body;
  const r = await api.get('databases/');
  t.equal(r.status, 401);
  t.same(doc.components.schemas.Error, JSON.parse(JSON.stringify(ErrorBody)), 'the document holds the schema checked here');
  t.ok(Value.Check(ErrorBody, r.body), JSON.stringify(r.body));
});

// An answer schema says exactly what comes back. Every object in it is either closed
// (`additionalProperties: false`) or an open map whose keys are data (metadata, property values by
// name): `additionalProperties` or `patternProperties` a schema, and a description saying what the
// keys are. An unconstrained schema (`{}`) appears only as an open map's values (any JSON, as the
// spec has for metadata). A JSON answer's top level is a closed object, or a string (the greeting).
type Schema = Record<string, any>;
function looseParts(schema: Schema, at: string, mapValue = false): string[] {
  const out: string[] = [];
  const keys = Object.keys(schema).filter((k) => k !== 'description' && k !== 'default' && k !== 'examples');
  if (keys.length === 0) return mapValue ? [] : [`${at}: any value`];
  const isObject = schema.type === 'object' || schema.properties !== undefined;
  if (isObject) {
    const extra = schema.additionalProperties;
    const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, Schema>);
    const open = (typeof extra === 'object' && extra !== null) || patterns.length > 0;
    if (extra !== false && !open) out.push(`${at}: an object that allows any other field`);
    if (open && !(typeof schema.description === 'string' && schema.description.length > 0))
      out.push(`${at}: an open map that does not say what its keys are`);
    if (!open && Object.keys(schema.properties ?? {}).length === 0) out.push(`${at}: an object without fields`);
    if (typeof extra === 'object' && extra !== null) out.push(...looseParts(extra, `${at}.*`, true));
    for (const p of patterns) out.push(...looseParts(p, `${at}.*`, true));
  }
  if (schema.type === 'array' && schema.items === undefined) out.push(`${at}: an array of anything`);
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) out.push(...looseParts(s, `${at}.${name}`));
  if (schema.items) out.push(...looseParts(schema.items, `${at}[]`));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const [i, s] of ((schema[k] ?? []) as Schema[]).entries()) out.push(...looseParts(s, `${at}|${i}`, mapValue));
  return out;
}

function answerProblems(schema: Schema): string[] {
  if (schema.type === 'string') return [];
  if (schema.type !== 'object' || schema.additionalProperties !== false) return ['the answer is not a closed object'];
  return looseParts(schema, '$');
}

t.test('the outline rule catches loose answers', async (t) => {
  t.same(
    answerProblems(plainSchema(Type.Object({ warnings: Type.Array(Type.String()) }))),
    ['the answer is not a closed object'],
    'an object with warnings and room for more',
  );
  t.same(answerProblems(plainSchema(Type.Object({}, { additionalProperties: false }))), ['$: an object without fields']);
  t.same(answerProblems(plainSchema(Type.Object({ a: Type.Object({ b: Type.Number() }) }, { additionalProperties: false }))), [
    '$.a: an object that allows any other field',
  ]);
  t.same(answerProblems(plainSchema(Type.Object({ a: Type.Unknown() }, { additionalProperties: false }))), ['$.a: any value']);
  t.same(
    answerProblems(
      plainSchema(Type.Object({ a: Type.Array(Type.Union([Type.String(), Type.Unknown()])) }, { additionalProperties: false })),
    ),
    ['$.a[]|1: any value'],
  );
  t.same(answerProblems(plainSchema(Type.Object({ a: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }))), [
    '$.a: an open map that does not say what its keys are',
  ]);
  t.same(
    answerProblems(
      plainSchema(
        Type.Object(
          { a: Type.Record(Type.String(), Type.Object({ c: Type.String() }), { description: 'by name' }) },
          { additionalProperties: false },
        ),
      ),
    ),
    ['$.a.*: an object that allows any other field'],
  );
  t.same(
    answerProblems(
      plainSchema(
        Type.Object({ a: Type.Record(Type.String(), Type.Unknown(), { description: 'any JSON' }) }, { additionalProperties: false }),
      ),
    ),
    [],
    'metadata',
  );
});

t.test('no route documents its answer in outline', async (t) => {
  const doc = (await api.get('openapi.json')).body;
  let checked = 0;
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, res] of Object.entries(op.responses as Record<string, Schema>)) {
        const schema = res.content?.['application/json']?.schema;
        if (!status.startsWith('2') || !schema) continue;
        checked++;
        t.same(answerProblems(schema), [], `${method.toUpperCase()} ${path} ${status}`);
      }
    }
  }
  t.ok(checked > 80, `${checked} answers checked`);
});

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
