// Probes for container orchestrators, outside the API prefix and without a token: /healthz says the
// process answers, /readyz that it can serve (Redis answers; the configuration was loaded at boot).
import { ApiError } from '../errors/api-error.js';
import { Reply } from '../contract/routes.js';

const ALLOW = 'GET, HEAD, OPTIONS';
const ALIVE = new Reply(200, { status: 'ok' }, { allow: ALLOW, 'cache-control': 'no-store' });

// The answer for a probe's path, undefined for any other path.
export function healthCheck(
  method: string,
  url: string,
  ready: (() => Promise<string | undefined>) | undefined,
): Reply | Promise<Reply> | undefined {
  const path = url.endsWith('/') ? url.slice(0, -1) : url;
  if (path !== '/healthz' && path !== '/readyz') return undefined;
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
  if (path === '/healthz' || ready === undefined) return ALIVE;
  return ready().then(
    (reason) =>
      reason === undefined ? ALIVE : new Reply(503, { status: 'unavailable', reason }, { allow: ALLOW, 'cache-control': 'no-store' }),
    (err: unknown) =>
      new Reply(
        503,
        { status: 'unavailable', reason: err instanceof Error ? err.message : String(err) },
        { allow: ALLOW, 'cache-control': 'no-store' },
      ),
  );
}
