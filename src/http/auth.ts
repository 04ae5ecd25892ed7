// Bearer-token check with a bounded cache of verified tokens, so the hot path does no crypto.
import { LRUCache } from 'lru-cache';
import { ApiError, authError } from '../errors/api-error.js';
import type { Claims } from '../contract/claims.js';

export type TokenVerify = (token: string) => Claims; // throws on an invalid or expired token
export type RevocationCheck = (claims: Claims) => boolean;

interface Verified {
  token: string;
  claims: Claims;
}

export class BearerAuth {
  // Keyed by the token's signature segment: hashing 43 characters instead of the whole token is
  // most of the hit path's cost. A hit still requires the identical token string.
  private readonly cache: LRUCache<string, Verified>;
  private last: { header: string; claims: Claims } | undefined;

  constructor(
    private readonly verify: TokenVerify,
    private readonly isRevoked: RevocationCheck,
    max = 50_000,
  ) {
    this.cache = new LRUCache({ max });
  }

  // Forgets every verified token (the secret changed: they are verified again with the new one).
  forget(): void {
    this.cache.clear();
    this.last = undefined;
  }

  authenticate(header: string): Claims {
    const now = Date.now() / 1000;
    // Most requests in a row carry the same header (a backend's one token): compared whole, it
    // skips parsing and the cache lookup.
    const last = this.last;
    if (last !== undefined && header === last.header && last.claims.exp > now && !this.isRevoked(last.claims)) return last.claims;
    if (header === '') throw authError('AUTHENTICATION_REQUIRED', 'this endpoint needs an Authorization: Bearer <token> header');
    const token = bearerToken(header);
    if (token === undefined) throw authError('AUTHENTICATION_REQUIRED', 'the Authorization header must be "Bearer <token>"');
    const key = token.slice(token.lastIndexOf('.') + 1);
    // peek: no recency bump. Every token lives as long as the next, so evicting the oldest-inserted
    // first is the right policy, and it keeps the hit path cheap.
    const hit = this.cache.peek(key);
    if (hit !== undefined && hit.token === token) {
      if (hit.claims.exp > now && !this.isRevoked(hit.claims)) {
        this.last = { header, claims: hit.claims };
        return hit.claims;
      }
      this.cache.delete(key);
      throw expired();
    }
    let claims: Claims;
    try {
      claims = this.verify(token);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw expired();
    }
    if (this.isRevoked(claims)) throw expired();
    this.cache.set(key, { token, claims });
    this.last = { header, claims };
    return claims;
  }
}

// "Bearer <token>", scheme case-insensitive, surrounding spaces allowed.
function bearerToken(header: string): string | undefined {
  const h = header.trim();
  if (h.length < 8 || h.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = h.slice(7).trimStart();
  return token === '' || token.includes(' ') || token.includes('\t') ? undefined : token;
}

const expired = () =>
  new ApiError(
    'JwtTokenExpired',
    'INCORRECT_JWT_TOKEN',
    'the access token is invalid or expired: renew it with POST login/refresh-token/',
    {
      error: 'invalid or expired JWT',
    },
  );
