// Route rows: method, path, roles, schemas and handler, with the contexts handlers receive; the
// router, the dispatcher and the route modules share them.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Claims } from './claims.js';
import type { Access, FrontendBinding, Role } from './roles.js';
import type { RecoType } from './reco-types.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Context<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  auth: Claims | undefined;
  requestId: string; // the client's X-Request-Id or one made for it; errors and log lines carry it
  remoteAddress: string; // the client's address (behind trusted proxies: as they report it); POSTs only, '' otherwise
  idempotencyKey: string; // the Idempotency-Key header of a POST ('' when absent); the writes that honour it check it
}

export interface AuthedContext<P, Q, B> extends Context<P, Q, B> {
  auth: Claims;
}

export interface DbContext<P, Q, B> extends AuthedContext<P, Q, B> {
  db: string;
}

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

// An answer sent as it is, bypassing the codecs (the API page's static files).
export class RawReply {
  constructor(
    readonly contentType: string,
    readonly body: Uint8Array | string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => new Reply(status, body, headers);

// Adds a warning to a result that carries `warnings` in an object body (a Reply's too); others pass unchanged.
export function withWarning(result: HandlerResult, warning: string | undefined): HandlerResult {
  if (warning === undefined || result instanceof RawReply) return result;
  if (result instanceof Reply) {
    const body = result.body;
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? new Reply(result.status, withWarning(body as Record<string, unknown>, warning), result.headers)
      : result;
  }
  if (result === undefined || typeof result !== 'object') return result;
  const warnings = Array.isArray(result.warnings) ? [...result.warnings, warning] : [warning];
  return { ...result, warnings };
}

// undefined means 204 No Content; a plain value means 200 with that body.
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that answer 204 return nothing
export type HandlerResult = Reply | RawReply | Record<string, unknown> | string | undefined | void;

export interface Route {
  method: Method;
  path: string;
  access: Access;
  // What a frontend token must be bound to (roles.ts); unset: frontend tokens need no binding.
  frontend?: FrontendBinding;
  database: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  // The success answer's body, for the API description (null: the route answers 204 No Content); unset: undocumented.
  response?: TSchema | null;
  // Success statuses of an answer with a body, when not only 200 (202: queued rather than done).
  statuses?: readonly number[];
  // The answer's media type when it is not the codecs' (the API page's files answer as they are).
  media?: string;
  // Body fields a codec may hand over as a ColumnarBody (see Rows in columnar.ts).
  columnar?: readonly string[];
  summary: string;
  recoType?: RecoType; // recommendation routes: what call counts file them under
  // A listing whose page may hold thousands of rows: the rows a request's page may hold, from its
  // query or body; one database's listings share a budget of rows in flight (http/listing-turns.ts).
  // biome-ignore lint/suspicious/noExplicitAny: the table holds rows of every shape; each row's own types are checked where it is written (dbRoute)
  listing?: (ctx: Context<any, any, any>) => number;
  // biome-ignore lint/suspicious/noExplicitAny: as listing above
  handler: (ctx: Context<any, any, any>) => HandlerResult | Promise<HandlerResult>;
}

type S<T> = T extends TSchema ? Static<T> : Record<string, never>;

interface RouteFields<P, Q, B, C> {
  method: Method;
  path: string;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  response?: TSchema | null;
  statuses?: readonly number[];
  media?: string;
  columnar?: readonly string[];
  frontend?: FrontendBinding;
  listing?: (ctx: C) => number;
}

interface RouteSpec<P, Q, B, C> extends RouteFields<P, Q, B, C> {
  recoType?: RecoType;
  handler: (ctx: C) => HandlerResult | Promise<HandlerResult>;
}

// A recommendation route's: its handler is given the row's reco type.
interface RecoRouteSpec<P, Q, B, C> extends RouteFields<P, Q, B, C> {
  recoType: RecoType;
  handler: (ctx: C, recoType: RecoType) => HandlerResult | Promise<HandlerResult>;
}

// Route constructors: the access level decides what the handler's context guarantees.
export function publicRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(spec: RouteSpec<P, Q, B, Context<S<P>, S<Q>, S<B>>>): Route {
  return { ...spec, access: 'public', database: false } as Route;
}

export function authedRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(access: readonly Role[] | 'authenticated', spec: RouteSpec<P, Q, B, AuthedContext<S<P>, S<Q>, S<B>>>): Route {
  return { ...spec, access, database: false } as Route;
}

export function dbRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(access: readonly Role[] | 'authenticated', spec: RouteSpec<P, Q, B, DbContext<S<P>, S<Q>, S<B>>>): Route {
  return { ...spec, access, database: true } as Route;
}

// A recommendation route: a database route whose handler reads its reco type from the row (which
// call counts file it under too).
export function recoRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(access: readonly Role[] | 'authenticated', spec: RecoRouteSpec<P, Q, B, DbContext<S<P>, S<Q>, S<B>>>): Route {
  const { recoType, handler } = spec;
  return { ...spec, handler: (ctx: DbContext<S<P>, S<Q>, S<B>>) => handler(ctx, recoType), access, database: true } as Route;
}
