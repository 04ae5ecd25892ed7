// The web dashboard at /dashboard/: the files `npm run build` bundles into dist/dashboard/ (no CDN),
// read once at start-up and served outside the API prefix, like the health probes: the API's own
// requests never reach this code.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ApiError, notFound } from '../errors/api-error.js';
import { RawReply, Reply } from '../contract/routes.js';

export const DASHBOARD_PATH = '/dashboard';

// What the bundle holds; anything else with a file extension is a 404, the rest is a client route.
const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'uPlot.min.css': 'text/css; charset=utf-8',
};

const ALLOW = 'GET, HEAD, OPTIONS';
// The dashboard talks only to its own origin; uPlot sets inline styles on its elements.
const SECURITY = {
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
// Asset URLs carry a hash of the bundle, so browsers may keep them; index.html is asked for each time.
const IMMUTABLE = { ...SECURITY, 'cache-control': 'public, max-age=31536000, immutable' };
const REVALIDATE = { ...SECURITY, 'cache-control': 'no-cache' };

export type DashboardPage = (method: string, url: string) => Reply | RawReply | undefined;

// dir: the built dashboard (default dist/dashboard/, beside dist/src/). A build without it serves a
// 404 that says so rather than failing at start-up: the API does not need the dashboard.
export function dashboardPages(dir = fileURLToPath(new URL('../../dashboard/', import.meta.url))): DashboardPage {
  const built = existsSync(join(dir, 'index.html'));
  const files = new Map<string, RawReply>();
  let index: RawReply | undefined;
  if (built) {
    const hash = createHash('sha256');
    for (const [name, type] of Object.entries(ASSETS)) {
      const bytes = readFileSync(join(dir, name));
      hash.update(bytes);
      files.set(name, new RawReply(type, bytes, IMMUTABLE));
    }
    const version = hash.digest('hex').slice(0, 12);
    const html = readFileSync(join(dir, 'index.html'), 'utf8').replace(
      /(href|src)="\.\/([\w.-]+)"/g,
      `$1="${DASHBOARD_PATH}/$2?v=${version}"`,
    );
    index = new RawReply('text/html; charset=utf-8', html, REVALIDATE);
  }
  return (method, url) => {
    if (url !== DASHBOARD_PATH && !url.startsWith(`${DASHBOARD_PATH}/`)) return undefined;
    if (method === 'OPTIONS') return new Reply(204, undefined, { allow: ALLOW });
    if (method !== 'GET' && method !== 'HEAD') {
      throw new ApiError(
        'MethodNotAllowed',
        'HTTP_METHOD_NOT_ALLOWED',
        `method ${method} is not allowed on ${url}`,
        { method },
        { allow: ALLOW },
      );
    }
    // Relative links of the page resolve against the path with its slash.
    if (url === DASHBOARD_PATH) return new Reply(308, { location: `${DASHBOARD_PATH}/` }, { location: `${DASHBOARD_PATH}/` });
    if (!index) throw notFound('RESOURCE_NOT_FOUND', 'path', url, 'the dashboard was not built: run npm run build');
    const rest = url.slice(DASHBOARD_PATH.length + 1);
    const file = files.get(rest);
    if (file) return file;
    // A client route (/dashboard/tasks, …) is the page itself, which reads its path; a missing file is not.
    if (/\.[a-z0-9]+$/i.test(rest)) throw notFound('RESOURCE_NOT_FOUND', 'path', url, `no file ${rest} in the dashboard`);
    return index;
  };
}
