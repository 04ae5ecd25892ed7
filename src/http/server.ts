// The uWebSockets.js adapter: copies request fields before anything async, reads bodies with a cap,
// and writes outcomes corked. The only module that imports uWebSockets.js.
import uWS from 'uWebSockets.js';
import type { Logger } from 'pino';
import { clientAddress } from './client-address.js';
import type { Cors } from './cors.js';
import { bodyTooLarge, Exchange, type Dispatcher, type Outcome, type PlainRequest } from './dispatch.js';
import { malformedHead } from './malformed-head.js';
import { acceptedRequestId } from './request-id.js';
import {
  CONTENT_TYPE,
  DRAINED_BYTES,
  headerBytes,
  Incoming,
  METHODS,
  NO_BODY,
  Pending,
  statusLine,
  X_REQUEST_ID,
} from './request-state.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  // Proxies in front of recd whose X-Forwarded-For is believed (client-address.ts); 0: none.
  trustProxyHops: number;
  logger: Logger;
  cors: Cors;
  accessLog: boolean; // one info line per request
  // Refuse a port another socket listens on. uWS otherwise sets SO_REUSEPORT, and Linux then spreads
  // connections over every process on the port: a second, unrelated recd would answer every other
  // request. Off only for a supervisor's workers, which share their port on purpose.
  exclusivePort: boolean;
}

// uWS's listen option (index.d.ts declares it as an enum the module does not export).
const LIBUS_LISTEN_DEFAULT = 0;
const LIBUS_LISTEN_EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: uWS.us_listen_socket | false) => void) => unknown;

// A listen refused: the port is in use, or the host is not an address of this machine (uWS says no more).
export class ListenFailed extends Error {
  override name = 'ListenFailed';
}

export class HttpServer {
  private readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | undefined;
  private inFlight = 0;
  private draining = false;
  private idle: (() => void) | undefined;
  // The request onRequest is taking: a throw there still releases its in-flight slot (else a
  // later close() would wait its whole timeout for it).
  private opening: Pending | undefined;
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
        if (this.opening) this.finish(this.opening);
        try {
          res.cork(() =>
            res
              .writeStatus('500 Internal Server Error')
              .end('{"error_code":0,"error_name":"ServerError","message":"internal error","error_data":{"name":"SERVER_ERROR"}}', true),
          );
        } catch {
          // already answered or closed
        }
      } finally {
        this.opening = undefined;
      }
    });
  }

  listen(): Promise<number> {
    const { host, port } = this.o;
    const listen = this.app.listen.bind(this.app) as unknown as ListenWithOptions;
    return new Promise((resolve, reject) => {
      listen(host, port, this.o.exclusivePort ? LIBUS_LISTEN_EXCLUSIVE_PORT : LIBUS_LISTEN_DEFAULT, (socket) => {
        if (!socket) return reject(new ListenFailed(listenRefused(host, port)));
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
    const plain = new Incoming(
      method,
      req.getUrl(),
      req.getQuery() ?? '',
      req.getHeader('authorization'),
      req.getHeader('accept'),
      req.getHeader('accept-encoding'),
      // Only logins (POST) use it, for throttling: GETs, the hot path, skip converting the address.
      method === 'POST'
        ? clientAddress(
            Buffer.from(res.getRemoteAddressAsText()).toString('latin1'),
            this.o.trustProxyHops > 0 ? req.getHeader('x-forwarded-for') : '',
            this.o.trustProxyHops,
          )
        : '',
      method === 'POST' ? req.getHeader('idempotency-key') : '',
      acceptedRequestId(req.getHeader('x-request-id')),
    );
    const cors = this.o.cors.enabled;
    const pending = new Pending(
      plain,
      cors ? req.getHeader('origin') : '',
      cors && method === 'OPTIONS' && req.getHeader('access-control-request-method') !== '',
      this.o.accessLog ? performance.now() : 0,
    );
    this.inFlight++;
    this.opening = pending;
    // Checked whatever the method: uWS frames a GET's body by it too.
    const sentLength = req.getHeader('content-length');
    const length = NO_BODY.has(method) ? '' : sentLength;
    // No body to wait for (GET and friends, or an empty one: HTTP/1.1 reads no Content-Length and no
    // Transfer-Encoding as length 0): answer within this call, which also keeps such requests safe
    // for HTTP pipelining.
    const bodyless = length === '0' || (length === '' && (NO_BODY.has(method) || req.getHeader('transfer-encoding') === ''));
    if (!bodyless) {
      plain.contentType = req.getHeader('content-type');
      plain.contentEncoding = req.getHeader('content-encoding');
    }
    // getHeader shows the first of repeated headers only: they are counted when there is one at all.
    const malformed = malformedHead(sentLength, sentLength === '' ? 0 : contentLengths(req), plain);
    if (malformed) {
      // Closed: what follows this head on the connection cannot be told apart from a next request.
      this.watchAbort(res, pending);
      return this.write(res, pending, this.dispatcher.malformed(plain, malformed), true, true);
    }
    if (bodyless) {
      // HEAD closes its connection, which uWS only accepts from a handler with an abort handler.
      if (pending.head) this.watchAbort(res, pending);
      this.deliver(res, pending, this.dispatcher.dispatch(plain), false, true);
      return;
    }
    this.watchAbort(res, pending);
    // The head is judged before any byte of the body is kept: a refusal (no route, no token, wrong
    // role, rate limit) costs no body, and the route sets how much body it may take.
    const opened = this.dispatcher.open(plain);
    const declared = Number(length || '0');
    if (!(opened instanceof Exchange)) {
      // A small body is drained (counted, not kept) so that the connection stays open for keep-alive
      // and pipelining; a larger or chunked one is not waited for: the connection closes.
      if (length !== '' && declared <= DRAINED_BYTES) return this.drain(res, pending, opened);
      return this.deliver(res, pending, opened, true, true);
    }
    if (declared > opened.caps.sent)
      return this.write(res, pending, this.dispatcher.reject(opened, plain, bodyTooLarge(opened.caps.sent)), true, true);
    this.readBody(res, pending, plain, opened, declared);
  }

  private watchAbort(res: uWS.HttpResponse, pending: Pending): void {
    pending.watched = true;
    res.onAborted(() => {
      pending.aborted = true;
      this.finish(pending);
    });
  }

  private drain(res: uWS.HttpResponse, pending: Pending, out: Outcome | Promise<Outcome>): void {
    res.onData((_chunk, isLast) => {
      if (isLast) this.deliver(res, pending, out, false, false);
    });
  }

  private readBody(res: uWS.HttpResponse, pending: Pending, plain: PlainRequest, ex: Exchange, declared: number): void {
    const cap = ex.caps.sent;
    // allocUnsafe: small bodies come from Node's shared pool (no allocation per request); every
    // byte handed on is written first (a short body is cut to its length).
    let buf: Uint8Array = Buffer.allocUnsafe(declared);
    let len = 0;
    res.onData((chunk, isLast) => {
      if (pending.done) return;
      const bytes = new Uint8Array(chunk);
      if (len + bytes.length > cap) {
        // A chunked upload (or a lying Content-Length) is cut at the cap.
        this.write(res, pending, this.dispatcher.reject(ex, plain, bodyTooLarge(cap)), true);
        return;
      }
      if (len + bytes.length > buf.length) {
        // Chunked upload or a lying Content-Length: grow geometrically.
        const grown = Buffer.allocUnsafe(Math.min(cap, Math.max(len + bytes.length, buf.length * 2)));
        grown.set(buf.subarray(0, len));
        buf = grown;
      }
      buf.set(bytes, len); // copies: uWS reuses the chunk's memory after this callback
      len += bytes.length;
      if (isLast) this.deliver(res, pending, this.dispatcher.complete(ex, plain, buf.subarray(0, len)), false, false);
    });
  }

  // Warm paths answer within this call; an async answer needs an abort handler (attached once).
  // inHandler: called from the request handler itself, where uWS has corked the socket already.
  private deliver(res: uWS.HttpResponse, pending: Pending, out: Outcome | Promise<Outcome>, close: boolean, inHandler: boolean): void {
    if (!(out instanceof Promise)) return this.write(res, pending, out, close, inHandler);
    if (!pending.watched) this.watchAbort(res, pending);
    out.then(
      (o) => this.write(res, pending, o, close),
      (err) => this.o.logger.error({ err, requestId: pending.request.requestId }, 'request failed outside the dispatcher'),
    );
  }

  private write(res: uWS.HttpResponse, pending: Pending, out: Outcome, close: boolean, corked = false): void {
    if (pending.aborted || pending.done) return;
    const closeConnection = close || this.draining;
    if (corked) this.send(res, pending, out, closeConnection);
    else res.cork(() => this.send(res, pending, out, closeConnection));
    this.finish(pending);
    if (this.o.accessLog) {
      const bytes = pending.head ? 0 : typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.byteLength;
      const ms = Math.round((performance.now() - pending.started) * 1000) / 1000;
      this.o.logger.info(
        { requestId: pending.request.requestId, method: pending.request.method, path: pending.request.url, status: out.status, ms, bytes },
        'request',
      );
    }
  }

  private send(res: uWS.HttpResponse, pending: Pending, out: Outcome, closeConnection: boolean): void {
    if (out.status !== 200) res.writeStatus(statusLine(out.status)); // uWS defaults to 200 OK
    if (out.contentType !== undefined) res.writeHeader(CONTENT_TYPE, headerBytes(out.contentType));
    if (out.headers !== undefined) for (const name in out.headers) res.writeHeader(name, out.headers[name]!);
    res.writeHeader(X_REQUEST_ID, pending.request.requestId);
    if (this.o.cors.enabled) {
      // A preflight the router answered (204 with the path's methods) gets the methods allowed.
      const allow = pending.preflight && out.status === 204 ? out.headers?.allow : undefined;
      const headers = this.o.cors.headers(pending.origin, allow);
      for (const name in headers) res.writeHeader(name, headers[name]!);
    }
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

function contentLengths(req: uWS.HttpRequest): number {
  let n = 0;
  req.forEach((name) => {
    if (name === 'content-length') n++;
  });
  return n;
}

export const listenRefused = (host: string, port: number) =>
  `cannot listen on ${host}:${port}: another program (another recd, perhaps) listens on that port, or ${host} is not an address of this machine; stop it, or set PORT (or HOST) to another`;
