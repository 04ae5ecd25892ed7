// The request pipeline without sockets: route, negotiate, authenticate, check roles, validate, handle,
// encode. Stays synchronous unless decompression or the handler is async, so warm hot paths answer
// in the same tick (uWS closes pipelined connections whose earlier response is still pending).
// A request with a body is taken in two steps: open() decides from the head alone (refusals such as
// 401, 403, 404 and 405 need no body, and the route sets how large a body may be), complete() takes
// the body read within those caps.
import { DecodeError, type Codec } from '../codecs/codec.js';
import { ApiError, TooLarge, notFound, wrongData } from '../errors/api-error.js';
import { decompress, needsDecompression } from './body.js';
import { compressed } from './compress.js';
import { ValidQueries } from './query.js';
import { healthCheck } from './health.js';
import { API_PREFIX } from './router.js';
import { authorize } from './authorize.js';
import { type RawReply, Reply, withWarning, type Context, type HandlerResult, type Route } from '../contract/routes.js';
import { compileValidator } from './validate.js';
import { ListingTurns } from './listing-turns.js';
import { AnswerEncoder } from './answer-encoder.js';
import { Exchange, type BodyCaps, type Compiled, type DispatcherOptions, type Outcome, type PlainRequest } from './exchange.js';

// What the server and the tests take from here (exchange.ts holds them).
export { Exchange, type Outcome, type PlainRequest } from './exchange.js';

const EMPTY = new Uint8Array(0);
const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});
const BROWSER_ROLES: ReadonlySet<string> = new Set(['frontend', 'demo_viewer']);

export class Dispatcher {
  private readonly compiled = new Map<Route, Compiled>();
  // Encodings of frozen results: handlers that memoise an answer return it frozen, and it is encoded once per codec.
  private readonly answers = new AnswerEncoder();
  private readonly listings = new ListingTurns();
  // The group of the request being admitted, for observe() of a refusal thrown once it is routed.
  private group: string | undefined;
  private readonly caps: BodyCaps;
  private readonly publicCaps: BodyCaps;
  private readonly browserCaps: BodyCaps;

  constructor(private readonly o: DispatcherOptions) {
    this.caps = { sent: o.maxBodyBytes, decompressed: o.maxDecompressedBytes };
    this.publicCaps = {
      sent: Math.min(o.maxPublicBodyBytes, o.maxBodyBytes),
      decompressed: Math.min(o.maxPublicBodyBytes, o.maxDecompressedBytes),
    };
    this.browserCaps = {
      sent: Math.min(o.maxBrowserBodyBytes, o.maxBodyBytes),
      decompressed: Math.min(o.maxBrowserBodyBytes, o.maxDecompressedBytes),
    };
    for (const route of o.router.routes) {
      const props = (route.body as { properties?: Record<string, unknown> } | undefined)?.properties;
      this.compiled.set(route, {
        group: route.path.split('/')[0]!,
        params: route.params && compileValidator(route.params, 'path'),
        query: route.query && new ValidQueries(route.query, compileValidator(route.query, 'query')),
        body: route.body && compileValidator(route.body, 'body'),
        bodyKeys: props ? new Set(Object.keys(props)) : undefined,
      });
    }
  }

  // The route table (for documentation and tests that cover every route).
  get routes(): readonly Route[] {
    return this.o.router.routes;
  }

  // A whole request: its body (if any) in req.body.
  dispatch(req: PlainRequest): Outcome | Promise<Outcome> {
    if (this.o.observe === undefined) return this.dispatchUnobserved(req);
    const started = performance.now();
    this.group = undefined;
    return this.observed(this.dispatchUnobserved(req), this.group, started);
  }

  private dispatchUnobserved(req: PlainRequest): Outcome | Promise<Outcome> {
    let result: HandlerResult | Promise<HandlerResult>;
    try {
      const ex = this.admit(req);
      result = ex instanceof Exchange ? this.proceed(ex, req, req.body ?? EMPTY) : ex;
    } catch (err) {
      return this.refuse(err, req);
    }
    return this.settle(result, req);
  }

  // Reports an outcome to observe() when it is known (one clock read).
  private observed(out: Outcome | Promise<Outcome>, group: string | undefined, started: number): Outcome | Promise<Outcome> {
    const observe = this.o.observe!;
    if (!(out instanceof Promise)) {
      observe(group, out.status, performance.now() - started);
      return out;
    }
    return out.then((o) => {
      observe(group, o.status, performance.now() - started);
      return o;
    });
  }

  // The head of a request whose body is still to come: the exchange to read it for (with its caps),
  // or the answer when the head alone settles it.
  open(req: PlainRequest): Exchange | Outcome | Promise<Outcome> {
    if (this.o.observe === undefined) return this.openUnobserved(req);
    const started = performance.now();
    this.group = undefined;
    const opened = this.openUnobserved(req);
    if (!(opened instanceof Exchange)) return this.observed(opened, this.group, started);
    opened.started = started;
    return opened;
  }

  private openUnobserved(req: PlainRequest): Exchange | Outcome | Promise<Outcome> {
    try {
      const ex = this.admit(req);
      if (!(ex instanceof Exchange)) return this.settle(ex, req);
      needsDecompression(req.contentEncoding); // an unknown encoding is refused before the body
      return ex;
    } catch (err) {
      return this.refuse(err, req);
    }
  }

  // An opened request with its body, read within ex.caps.sent.
  complete(ex: Exchange, req: PlainRequest, body: Uint8Array): Outcome | Promise<Outcome> {
    const out = this.completeUnobserved(ex, req, body);
    return this.o.observe === undefined ? out : this.observed(out, ex.compiled.group, ex.started);
  }

  private completeUnobserved(ex: Exchange, req: PlainRequest, body: Uint8Array): Outcome | Promise<Outcome> {
    let result: HandlerResult | Promise<HandlerResult>;
    try {
      result = this.proceed(ex, req, body);
    } catch (err) {
      return this.refuse(err, req);
    }
    return this.settle(result, req);
  }

  // An outcome for an opened request refused before its body is handled (a body over the cap).
  reject(ex: Exchange, req: PlainRequest, err: ApiError): Outcome {
    const out = this.fail(err, this.o.codecs.forAccept(req.accept), req);
    this.o.observe?.(ex.compiled.group, out.status, performance.now() - ex.started);
    return out;
  }

  // An outcome for a request whose head is malformed (malformed-head.ts): refused before routing.
  malformed(req: PlainRequest, err: ApiError): Outcome {
    const out = this.fail(err, this.o.codecs.forAccept(req.accept), req);
    this.o.observe?.(undefined, out.status, 0);
    return out;
  }

  // A result's answer: encoded with the request's codec, compressed when the client asks. A result
  // that cannot be encoded answers as a failure, whether it came at once or later (a later one's
  // encoding error once left its request unanswered).
  private settle(result: HandlerResult | Promise<HandlerResult>, req: PlainRequest): Outcome | Promise<Outcome> {
    const codec = this.o.codecs.forAccept(req.accept);
    if (!(result instanceof Promise)) return this.answer(result, codec, req);
    return result.then(
      (r) => this.answer(r, codec, req),
      (err) => this.failure(err, codec, req),
    );
  }

  private answer(result: HandlerResult, codec: Codec, req: PlainRequest): Outcome | Promise<Outcome> {
    let out: Outcome;
    try {
      out = this.answers.encode(result, codec);
    } catch (err) {
      out = this.fail(err, codec, req);
    }
    return compressed(out, codec, req.acceptEncoding);
  }

  // A failure's answer, likewise.
  private refuse(err: unknown, req: PlainRequest): Outcome | Promise<Outcome> {
    return this.failure(err, this.o.codecs.forAccept(req.accept), req);
  }

  private failure(err: unknown, codec: Codec, req: PlainRequest): Outcome | Promise<Outcome> {
    return compressed(this.fail(err, codec, req), codec, req.acceptEncoding);
  }

  // What the head decides: route, authentication and roles, path and query. A reply (OPTIONS) or the
  // exchange whose body comes next; refusals throw.
  private admit(req: PlainRequest): Exchange | Reply | RawReply | Promise<Reply> {
    if (req.url.length + req.query.length > this.o.maxUrlBytes) {
      throw new TooLarge(414, `the path and query string exceed the limit of ${this.o.maxUrlBytes} characters`);
    }
    const path = stripPrefix(req.url);
    if (path === undefined) {
      // Outside the API: the orchestrators' probes and the dashboard's pages.
      const probe = healthCheck(req.method, req.url, this.o.ready) ?? this.o.page?.(req.method, req.url);
      if (probe) return probe;
      throw notFound('RESOURCE_NOT_FOUND', 'path', req.url, `no resource at ${req.url}: the API is served under ${API_PREFIX}/`);
    }
    const match = this.o.router.match(req.method, path);
    if (match.kind === 'none') throw notFound('RESOURCE_NOT_FOUND', 'path', req.url, `no resource at ${req.url}`);
    if (match.kind === 'method') {
      if (req.method === 'OPTIONS') return new Reply(204, undefined, { allow: match.allow });
      throw new ApiError(
        'MethodNotAllowed',
        'HTTP_METHOD_NOT_ALLOWED',
        `method ${req.method} is not allowed on ${req.url}`,
        { method: req.method },
        {
          allow: match.allow,
        },
      );
    }
    const { route, params } = match;
    const c = this.compiled.get(route)!;
    this.group = c.group;
    const auth = authorize(route, req.authorization, this.o);
    if (auth) this.o.countRequest?.(auth, c.group);
    if (this.o.refuseWrite !== undefined && route.method !== 'GET' && route.recoType === undefined) {
      const refused = this.o.refuseWrite();
      if (refused) throw refused;
    }
    c.params?.(params);
    const query = c.query ? c.query.of(req.query) : NO_QUERY;
    const caps = auth === undefined ? this.publicCaps : BROWSER_ROLES.has(auth.role) ? this.browserCaps : this.caps;
    return new Exchange(route, c, caps, params, query, auth, req.requestId, req.remoteAddress, req.idempotencyKey);
  }

  // The body's part: decompression within the route's cap, decoding, validation, the handler.
  private proceed(ex: Exchange, req: PlainRequest, body: Uint8Array): HandlerResult | Promise<HandlerResult> {
    if (body.length > ex.caps.sent) throw bodyTooLarge(ex.caps.sent);
    if (body.length > 0 && needsDecompression(req.contentEncoding)) {
      return decompress(body, ex.caps.decompressed).then((plain) => this.handle(ex, plain, req.contentType));
    }
    if (body.length > ex.caps.decompressed) throw bodyTooLarge(ex.caps.decompressed);
    return this.handle(ex, body, req.contentType);
  }

  private handle(ctx: Exchange, bytes: Uint8Array, contentType: string): HandlerResult | Promise<HandlerResult> {
    const { route, compiled: c } = ctx;
    let unknownKeys: string[] | undefined;
    if (bytes.length > 0) {
      const codec = this.o.codecs.forContentType(contentType);
      if (!codec) throw wrongData('WRONG_DATA_TYPE', `Content-Type ${JSON.stringify(contentType)} is not supported: send application/json`);
      let body: unknown;
      try {
        body = codec.decode(bytes, route.columnar);
      } catch (err) {
        if (err instanceof DecodeError) throw wrongData('WRONG_DATA_TYPE', err.message);
        throw err;
      }
      ctx.body = body;
      if (c.bodyKeys && isPlainObject(body)) for (const k in body) if (!c.bodyKeys.has(k)) (unknownKeys ??= []).push(k);
    }
    c.body?.(ctx.body);
    if (route.recoType !== undefined && ctx.auth) this.o.countReco?.(ctx.auth, route.recoType, scenarioOf(ctx));
    const out =
      route.listing && ctx.db !== undefined ? this.listings.run(ctx.db, route.listing(ctx), () => route.handler(ctx)) : route.handler(ctx);
    if (unknownKeys === undefined || unknownKeys.length === 0) return out;
    const warning = `fields ignored (not used by this endpoint): ${unknownKeys.join(', ')}`;
    return out instanceof Promise ? out.then((r) => withWarning(r, warning)) : withWarning(out, warning);
  }

  private fail(err: unknown, codec: Codec, req: PlainRequest): Outcome {
    const requestId = req.requestId;
    const thrown = err instanceof ApiError;
    let api = thrown ? err : this.o.classify(err);
    if (!api) {
      this.o.logger.error({ err, requestId, method: req.method, url: req.url }, 'unhandled error');
      api = new ApiError('ServerError', 'SERVER_ERROR', `internal error (request ${requestId}); the server log has the details`, {
        request_id: requestId,
      });
    } else if (api.status >= 500 && thrown) {
      // A storage fault (classified) is logged by classify(), once per burst rather than per request.
      this.o.logger.warn({ requestId, method: req.method, url: req.url, error: api.message }, 'request failed');
    }
    const body = api.body();
    body.error_data = { ...body.error_data, request_id: requestId };
    return { status: api.status, contentType: codec.mediaTypes[0]!, headers: api.headers, body: codec.encode(body) };
  }
}

export const bodyTooLarge = (limit: number) => new TooLarge(413, `request body exceeds the limit of ${limit} bytes`);

function stripPrefix(url: string): string | undefined {
  if (url === API_PREFIX) return '/';
  return url.startsWith(`${API_PREFIX}/`) ? url.slice(API_PREFIX.length) : undefined;
}

// The scenario a recommendation request names (query or body), '' for none.
function scenarioOf(ctx: Context): string {
  const named = (ctx.query as { scenario?: unknown }).scenario ?? (isPlainObject(ctx.body) ? ctx.body.scenario : undefined);
  return typeof named === 'string' ? named : '';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
