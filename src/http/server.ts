// The uWebSockets.js adapter: copies request fields before anything async, reads bodies with a cap,
// and writes outcomes corked. The only module that imports uWebSockets.js.
import uWS from 'uWebSockets.js';
import type { Logger } from 'pino';
import { ApiError } from '../errors/api-error.js';
import type { Dispatcher, Outcome, PlainRequest } from './dispatch.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  logger: Logger;
}

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
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
};
const statusLine = (s: number) => STATUS_TEXT[s] ?? String(s);

const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

// Header text as bytes, made once: uWS then copies them instead of converting a string per answer.
const CONTENT_TYPE = Buffer.from('content-type');
const headerValues = new Map<string, Buffer>();
function headerBytes(value: string): Buffer {
  let bytes = headerValues.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(value);
    if (headerValues.size < 64) headerValues.set(value, bytes);
  }
  return bytes;
}
const METHODS: Record<string, string> = { GET: 'GET', POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE', HEAD: 'HEAD', OPTIONS: 'OPTIONS' };

interface Pending {
  aborted: boolean;
  done: boolean;
  head: boolean;
  watched: boolean;
}

export class HttpServer {
  private readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | undefined;
  private inFlight = 0;
  private draining = false;
  private idle: (() => void) | undefined;
  port = 0;

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly o: HttpServerOptions,
  ) {
    this.app = uWS.App();
    this.app.any('/*', (res, req) => {
      try {
        this.onRequest(res, req);
      } catch (err) {
        // A bug here would otherwise abort the whole process inside uWS: answer 500 instead.
        this.o.logger.error({ err }, 'request handler failed');
        try {
          res.cork(() => res.writeStatus('500 Internal Server Error').end('{"error_code":0,"error_name":"ServerError","message":"internal error","error_data":{"name":"SERVER_ERROR"}}', true));
        } catch {
          // already answered or closed
        }
      }
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(this.o.host, this.o.port, (socket) => {
        if (!socket) return reject(new Error(`cannot listen on ${this.o.host}:${this.o.port}`));
        this.listenSocket = socket;
        this.port = uWS.us_socket_local_port(socket);
        resolve(this.port);
      });
    });
  }

  // Stops accepting, lets in-flight requests finish (up to timeoutMs), then closes every connection.
  async close(timeoutMs = 10_000): Promise<void> {
    this.draining = true;
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.app.close();
  }

  private onRequest(res: uWS.HttpResponse, req: uWS.HttpRequest): void {
    const raw = req.getCaseSensitiveMethod();
    const method = METHODS[raw] ?? raw.toUpperCase();
    const plain: PlainRequest = {
      method,
      url: req.getUrl(),
      query: req.getQuery() ?? '',
      authorization: req.getHeader('authorization'),
      contentType: '',
      contentEncoding: '',
      accept: req.getHeader('accept'),
      acceptEncoding: req.getHeader('accept-encoding'),
      idempotencyKey: req.getHeader('idempotency-key'),
      body: undefined,
    };
    const pending: Pending = { aborted: false, done: false, head: method === 'HEAD', watched: false };
    this.inFlight++;
    const length = NO_BODY.has(method) ? '' : req.getHeader('content-length');
    // No body to wait for (GET and friends, or an empty one: HTTP/1.1 reads no Content-Length and no
    // Transfer-Encoding as length 0): answer within this call, which also keeps such requests safe
    // for HTTP pipelining.
    if (length === '0' || (length === '' && (NO_BODY.has(method) || req.getHeader('transfer-encoding') === ''))) {
      // HEAD closes its connection, which uWS only accepts from a handler with an abort handler.
      if (pending.head) this.watchAbort(res, pending);
      this.answer(res, pending, plain, true);
      return;
    }
    plain.contentType = req.getHeader('content-type');
    plain.contentEncoding = req.getHeader('content-encoding');
    this.watchAbort(res, pending);
    const declared = Number(length || '0');
    if (declared > this.o.maxBodyBytes) {
      this.write(res, pending, this.tooLarge(plain), true);
      return;
    }
    this.readBody(res, pending, plain, declared);
  }

  private watchAbort(res: uWS.HttpResponse, pending: Pending): void {
    pending.watched = true;
    res.onAborted(() => {
      pending.aborted = true;
      this.finish(pending);
    });
  }

  private readBody(res: uWS.HttpResponse, pending: Pending, plain: PlainRequest, declared: number): void {
    // allocUnsafe: small bodies come from Node's shared pool (no allocation per request); every
    // byte handed on is written first (a short body is cut to its length).
    let buf: Uint8Array = Buffer.allocUnsafe(declared);
    let len = 0;
    res.onData((chunk, isLast) => {
      if (pending.done) return;
      const bytes = new Uint8Array(chunk);
      if (len + bytes.length > this.o.maxBodyBytes) {
        this.write(res, pending, this.tooLarge(plain), true);
        return;
      }
      if (len + bytes.length > buf.length) {
        // Chunked upload or a lying Content-Length: grow geometrically.
        const grown = Buffer.allocUnsafe(Math.min(this.o.maxBodyBytes, Math.max(len + bytes.length, buf.length * 2)));
        grown.set(buf.subarray(0, len));
        buf = grown;
      }
      buf.set(bytes, len); // copies: uWS reuses the chunk's memory after this callback
      len += bytes.length;
      if (isLast) {
        plain.body = buf.subarray(0, len);
        this.answer(res, pending, plain, false);
      }
    });
  }

  // Warm paths answer within this call; an async answer needs an abort handler (attached once).
  // inHandler: called from the request handler itself, where uWS has corked the socket already.
  private answer(res: uWS.HttpResponse, pending: Pending, plain: PlainRequest, inHandler: boolean): void {
    const out = this.dispatcher.dispatch(plain);
    if (!(out instanceof Promise)) return this.write(res, pending, out, false, inHandler);
    if (!pending.watched) this.watchAbort(res, pending);
    out.then(
      (o) => this.write(res, pending, o, false),
      (err) => this.o.logger.error({ err }, 'request failed outside the dispatcher'),
    );
  }

  private tooLarge(plain: PlainRequest): Outcome {
    const err = new ApiError('WrongData', 'WRONG_PARAMETER', `request body exceeds the limit of ${this.o.maxBodyBytes} bytes`, {
      error: 'request body too large',
    });
    return this.dispatcher.reject(plain, err);
  }

  private write(res: uWS.HttpResponse, pending: Pending, out: Outcome, close: boolean, corked = false): void {
    if (pending.aborted || pending.done) return;
    const closeConnection = close || this.draining;
    if (corked) this.send(res, pending, out, closeConnection);
    else res.cork(() => this.send(res, pending, out, closeConnection));
    this.finish(pending);
  }

  private send(res: uWS.HttpResponse, pending: Pending, out: Outcome, closeConnection: boolean): void {
    if (out.status !== 200) res.writeStatus(statusLine(out.status)); // uWS defaults to 200 OK
    if (out.contentType !== undefined) res.writeHeader(CONTENT_TYPE, headerBytes(out.contentType));
    if (out.headers !== undefined) for (const name in out.headers) res.writeHeader(name, out.headers[name]!);
    if (pending.head) {
      // uWS keeps no sane keep-alive state after a body-less end with a length, so HEAD closes.
      res.endWithoutBody(typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.byteLength, true);
    } else {
      res.end(out.body, closeConnection);
    }
  }

  private finish(pending: Pending): void {
    if (pending.done) return;
    pending.done = true;
    if (--this.inFlight === 0 && this.idle) this.idle();
  }
}
