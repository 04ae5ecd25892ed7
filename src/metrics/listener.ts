// GET /metrics on a listener of its own (RECD_METRICS_PORT), apart from the API: what the scraper
// sees is decided by where this port is reachable, and optionally by a bearer token.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Metrics } from './registry.js';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

export async function listenMetrics(metrics: Metrics, host: string, port: number, token: string | undefined): Promise<MetricsListener> {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
    if (expected !== undefined && !sameBytes(Buffer.from(req.headers.authorization ?? ''), expected)) {
      return void res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('unauthorized\n');
    }
    metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
