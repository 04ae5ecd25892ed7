// HTTP over a bare socket, for what node:http will not send: partial bodies, HTTP/1.0, huge heads.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
  bytesSent: number; // body bytes the socket had taken when the answer was complete
}

// Writes `head` (the request line and headers, without the blank line; a string as UTF-8, a Buffer
// byte for byte) and then the body parts one after the other; resolves once a whole answer (by its
// Content-Length) is in, or the server closes.
// The socket is never ended by us: an answer that needs the rest of a body would never come.
export function rawRequest(port: number, head: string | Buffer, parts: Buffer[] = []): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let bytesSent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      const text = received.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        if (sock.destroyed || sock.readableEnded) {
          done = true;
          reject(new Error(`no answer: ${JSON.stringify(text.slice(0, 200))}`));
        }
        return;
      }
      const h = text.slice(0, split);
      const length = /\r\ncontent-length: *(\d+)/i.exec(h);
      const body = text.slice(split + 4);
      if (length && body.length < Number(length[1]) && !sock.readableEnded && !sock.destroyed) return;
      done = true;
      sock.destroy();
      resolve({ status: Number(h.slice(9, 12)), head: h, body, bytesSent });
    };
    sock.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      finish();
    });
    sock.on('end', finish);
    sock.on('close', finish);
    // The server may close while we still write: the answer already received is what counts.
    sock.on('error', () => finish());
    sock.write(typeof head === 'string' ? `${head}\r\n\r\n` : Buffer.concat([head, Buffer.from('\r\n\r\n')]));
    const next = (i: number) => {
      if (i >= parts.length || done || sock.destroyed) return;
      sock.write(parts[i]!, (err) => {
        if (err) return;
        bytesSent += parts[i]!.length;
        next(i + 1);
      });
    };
    next(0);
  });
}

// A chunked body: each part as one chunk, then the terminating chunk.
export function chunked(parts: Buffer[]): Buffer[] {
  const out = parts.map((p) => Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]));
  out.push(Buffer.from('0\r\n\r\n'));
  return out;
}
