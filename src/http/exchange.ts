// What the dispatcher (dispatch.ts) and the server (server.ts) pass each other: a request as plain
// values, its outcome, the dispatcher's options, and a request past its head's checks (Exchange).
import type { Logger } from 'pino';
import type { CodecRegistry } from '../codecs/registry.js';
import type { ApiError } from '../errors/api-error.js';
import type { BearerAuth } from './auth.js';
import type { ValidQueries } from './query.js';
import type { Router } from './router.js';
import type { Claims } from '../contract/claims.js';
import type { Context, RawReply, Reply, Route } from '../contract/routes.js';
import type { Validator } from './validate.js';
import type { RecoType } from '../contract/reco-types.js';

export interface PlainRequest {
  method: string;
  url: string;
  query: string;
  authorization: string;
  contentType: string;
  contentEncoding: string;
  accept: string;
  acceptEncoding: string;
  remoteAddress: string; // the client's, as the server resolved it (client-address.ts); only for POSTs
  idempotencyKey: string; // a POST's Idempotency-Key header, '' when absent or not a POST
  requestId: string; // the client's X-Request-Id or one made for it (request-id.ts)
  body: Uint8Array | undefined;
}

export interface Outcome {
  status: number;
  contentType: string | undefined; // undefined when there is no body
  headers: Record<string, string> | undefined;
  body: Uint8Array | string;
}

export interface DispatcherOptions {
  router: Router;
  codecs: CodecRegistry;
  auth: BearerAuth;
  logger: Logger;
  // Body caps of routes that need a token, as sent and decompressed.
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  // Both caps of public routes (logins, password reset): anyone may send to them, so they stay small.
  maxPublicBodyBytes: number;
  maxBrowserBodyBytes: number; // frontend and demo_viewer tokens: they live in browsers, where anyone may take one
  maxUrlBytes: number;
  // Maps infrastructure failures (storage down, timeouts) to spec errors; undefined for a bug.
  classify: (err: unknown) => ApiError | undefined;
  // Admission of an authenticated request (rate limits); throws to refuse it.
  admit?: (claims: Claims) => void;
  // Call counts: every authenticated request by its route's group (the first path segment), and
  // recommendation requests by type and scenario once their parameters are read.
  countRequest?: (claims: Claims, group: string) => void;
  countReco?: (claims: Claims, recoType: RecoType, scenario: string) => void;
  // Pages outside the API (the dashboard): the answer for a path, undefined when it is not theirs.
  page?: (method: string, url: string) => Reply | RawReply | undefined;
  // Refusal of writes while storage cannot keep them (an evicting Redis); undefined: served.
  // Writes: every method but GET, recommendation POSTs excepted (they only read).
  refuseWrite?: () => ApiError | undefined;
  // Readiness for GET /readyz: undefined when ready, else the reason.
  ready?: () => Promise<string | undefined>;
  // A finished request (metrics): its route's group (undefined when it matched none), status and latency in ms.
  observe?: (group: string | undefined, status: number, ms: number) => void;
}

export interface Compiled {
  group: string;
  params?: Validator;
  query?: ValidQueries;
  body?: Validator;
  bodyKeys?: Set<string>;
}

export interface BodyCaps {
  sent: number;
  decompressed: number;
}

// A request past its head's checks: the handler's context, and the route its body is for. It is the
// context itself so that a request costs no extra object on the hot path.
export class Exchange implements Context {
  body: unknown = {};
  readonly db: string | undefined;
  started = 0; // performance.now() when its head came, for observe()

  constructor(
    readonly route: Route,
    readonly compiled: Compiled,
    readonly caps: BodyCaps,
    readonly params: Record<string, string>,
    readonly query: Record<string, unknown>,
    readonly auth: Claims | undefined,
    readonly requestId: string,
    readonly remoteAddress: string,
    readonly idempotencyKey: string,
  ) {
    this.db = route.database ? auth!.db : undefined;
  }
}
