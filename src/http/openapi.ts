// The OpenAPI 3.1 description of the route table, built once at start-up and served frozen at
// GET {base_url}/openapi.json: route rows already carry TypeBox schemas, which are JSON Schema.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_TABLE, type ErrorName } from '../errors/table.js';
import { publicRoute, type Route } from '../contract/routes.js';
import { OpenApiDocument } from '../schemas/responses.js';
import { API_PREFIX } from './router.js';

type Json = Record<string, unknown>;

export const ErrorBody = Type.Object(
  {
    error_code: Type.Integer({ description: "the error class as a number (the spec's error table)" }),
    error_name: Type.Union(Object.keys(ERROR_TABLE).map((n) => Type.Literal(n))),
    message: Type.String(),
    error_data: Type.Object(
      { name: Type.String({ description: 'the precise error, for instance WRONG_PARAMETER' }) },
      { additionalProperties: true },
    ),
  },
  { description: 'every error answer' },
);

// TypeBox keeps its own marks under symbol keys; the document holds plain JSON Schema.
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

// 'a/<b>/' → '/a/{b}/' (the table's paths have no leading slash; the root's is '/').
export const openApiPath = (path: string) => `/${path.replace(/^\/+/, '').replace(/<(?:str:)?([a-z_]+)>/g, '{$1}')}`;

function parameters(schema: TSchema | undefined, where: 'path' | 'query'): Json[] {
  const props = (schema as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
  const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: plain(s),
  }));
}

// The error classes a route can answer with, each with the statuses they go by.
function errorStatuses(route: Route): Map<number, ErrorName[]> {
  const names: ErrorName[] = ['WrongData', 'ServerError', 'ServerUnavailable'];
  if (route.access !== 'public') names.push('AuthError', 'JwtTokenExpired', 'TooManyRequests');
  if (Array.isArray(route.access) || route.frontend !== undefined) names.push('ForbiddenError');
  if (route.params || route.database) names.push('NotFoundError');
  const byStatus = new Map<number, ErrorName[]>();
  for (const n of names) {
    const row = ERROR_TABLE[n];
    byStatus.set(row.status, [...(byStatus.get(row.status) ?? []), n]);
  }
  byStatus.set(413, ['WrongData']);
  byStatus.set(414, ['WrongData']);
  return byStatus;
}

// Unique per route, as OpenAPI requires and client generators rely on: `users/<user_id>/*/` is
// `…_all`, so it does not meet `users/<user_id>/`.
export const operationId = (route: Pick<Route, 'method' | 'path'>) =>
  `${route.method.toLowerCase()}_${
    route.path
      .replace(/\*/g, 'all')
      .replace(/[^a-z0-9]+/gi, '_')
      .replace(/^_|_$/g, '') || 'root'
  }`;

function operation(route: Route): Json {
  const op: Json = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.path.split('/')[0] || 'root'],
    'x-roles': route.access,
  };
  if (route.frontend !== undefined) op['x-frontend-binding'] = route.frontend;
  if (route.access !== 'public') op.security = [{ bearer: [] }];
  const params = [...parameters(route.params, 'path'), ...parameters(route.query, 'query')];
  if (params.length > 0) op.parameters = params;
  if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: plain(route.body) } } };
  const responses: Json = {};
  if (route.response === null) responses['204'] = { description: 'done, no body' };
  else {
    const answer = route.response ? { content: { [route.media ?? 'application/json']: { schema: plain(route.response) } } } : {};
    for (const status of route.statuses ?? [200])
      responses[String(status)] = { description: status === 202 ? 'accepted: the work is queued' : 'success', ...answer };
  }
  for (const [status, names] of [...errorStatuses(route)].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: names.join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  op.responses = responses;
  return op;
}

export function openApiDocument(routes: readonly Route[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: { title: 'recd recommendation API', version },
    servers: [{ url: API_PREFIX }],
    paths,
    components: {
      schemas: { Error: plain(ErrorBody) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'an access token from POST /login/' },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// The description's own route, added after the table it describes (it describes itself too).
export function openApiRoutes(routes: readonly Route[], version: string): Route[] {
  let document: Json = {};
  const self: Route = publicRoute({
    method: 'GET',
    path: 'openapi.json',
    summary: 'this API description (OpenAPI 3.1)',
    response: OpenApiDocument,
    handler: () => document,
  });
  // Frozen: the dispatcher encodes it once per codec.
  document = deepFreeze(openApiDocument([...routes, self], version));
  return [self];
}
