// What the uWebSockets.js adapter (server.ts) keeps of a request while it is answered, and the bytes
// of an answer's head it writes.
import type { PlainRequest } from './dispatch.js';

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  202: '202 Accepted',
  204: '204 No Content',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  414: '414 URI Too Long',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
};
export const statusLine = (s: number) => STATUS_TEXT[s] ?? String(s);

export const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
// A refused request's body up to this size is read and dropped rather than cut off with the
// connection: what an ordinary request with an expired token sends, at the cost of a few packets.
export const DRAINED_BYTES = 64 * 1024;

// Header text as bytes, made once: uWS then copies them instead of converting a string per answer.
export const CONTENT_TYPE = Buffer.from('content-type');
export const X_REQUEST_ID = Buffer.from('x-request-id');
const headerValues = new Map<string, Buffer>();
export function headerBytes(value: string): Buffer {
  let bytes = headerValues.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(value);
    if (headerValues.size < 64) headerValues.set(value, bytes);
  }
  return bytes;
}
export const METHODS: Record<string, string> = {
  GET: 'GET',
  POST: 'POST',
  PUT: 'PUT',
  PATCH: 'PATCH',
  DELETE: 'DELETE',
  HEAD: 'HEAD',
  OPTIONS: 'OPTIONS',
};

// A request's fields and its answer's state are made with `new`, never as object literals. V8 watches
// how long a literal's objects live and, once many outlive a young-generation collection (requests
// waiting on Redis), makes every later one in the old generation, for good. There each dead one held
// its request's header strings through every young collection until a full one: with 1M users, 1.5 MB
// of them per young collection, a full collection a second and 3-4 ms pauses (bench/http/reco-synthetic.ts,
// random users). V8 tracks literals that way, not instances of a class.
export class Incoming implements PlainRequest {
  contentType = '';
  contentEncoding = '';
  body: Uint8Array | undefined = undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly query: string,
    readonly authorization: string,
    readonly accept: string,
    readonly acceptEncoding: string,
    readonly remoteAddress: string,
    readonly idempotencyKey: string,
    readonly requestId: string,
  ) {}
}

export class Pending {
  aborted = false;
  done = false;
  watched = false;

  constructor(
    readonly request: Incoming,
    readonly origin: string, // '' unless CORS is on and the request has an Origin
    readonly preflight: boolean, // OPTIONS with Access-Control-Request-Method, CORS on
    readonly started: number, // for the access log only
  ) {}

  get head(): boolean {
    return this.request.method === 'HEAD';
  }
}
