// A small HTTP client for tests: JSON in and out, bearer tokens, raw bodies when a test needs them.
import { request } from 'node:http';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
  bytes: Buffer; // the body as received (binary codecs)
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  raw?: Buffer | string;
  headers?: Record<string, string>;
  query?: string;
}

export class Api {
  constructor(readonly base: string) {}

  call(method: string, path: string, o: CallOptions = {}): Promise<Res> {
    const url = new URL(`${this.base}/${path.replace(/^\//, '')}${o.query ? `?${o.query}` : ''}`);
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let payload: Buffer | undefined;
    if (o.raw !== undefined) payload = Buffer.from(o.raw);
    else if (o.body !== undefined) {
      payload = Buffer.from(JSON.stringify(o.body));
      headers['content-type'] ??= 'application/json';
    }
    if (payload) headers['content-length'] = String(payload.length);
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString();
          let body: unknown;
          if (text !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          resolve({ status: res.statusCode!, headers: res.headers, body, text, bytes });
        });
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get = (path: string, o?: CallOptions) => this.call('GET', path, o);
  post = (path: string, body?: unknown, o: CallOptions = {}) => this.call('POST', path, { ...o, body });
  put = (path: string, body?: unknown, o: CallOptions = {}) => this.call('PUT', path, { ...o, body });
  patch = (path: string, body?: unknown, o: CallOptions = {}) => this.call('PATCH', path, { ...o, body });
  delete = (path: string, body?: unknown, o: CallOptions = {}) => this.call('DELETE', path, { ...o, body });
}
