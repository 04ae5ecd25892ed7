// CORS for browsers calling recd directly: allowed origins are exact (or `*`); none configured
// means no CORS headers at all, so browsers keep other origins out.
export const CORS_ALLOW_HEADERS = 'authorization, content-type, content-encoding, accept, idempotency-key, x-request-id';
export const CORS_EXPOSE_HEADERS = 'x-request-id, retry-after';
export const CORS_MAX_AGE_SECONDS = 600;

export class Cors {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes('*');
    this.origins = new Set(origins);
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  allows(origin: string): boolean {
    return origin !== '' && (this.any || this.origins.has(origin));
  }

  // The headers an answer carries. allow: the route's methods when the request is a preflight
  // (OPTIONS with Access-Control-Request-Method) that the router answered, else undefined.
  headers(origin: string, allow: string | undefined): Record<string, string> {
    const out: Record<string, string> = { vary: 'Origin' };
    if (!this.allows(origin)) return out;
    out['access-control-allow-origin'] = origin;
    if (allow !== undefined) {
      out['access-control-allow-methods'] = allow;
      out['access-control-allow-headers'] = CORS_ALLOW_HEADERS;
      out['access-control-max-age'] = String(CORS_MAX_AGE_SECONDS);
    } else {
      out['access-control-expose-headers'] = CORS_EXPOSE_HEADERS;
    }
    return out;
  }
}
