// Bearer-token check with a bounded cache of verified tokens, so the hot path does no crypto.
import { LRUCache } from 'lru-cache';
import { ApiError, authError } from '../errors/api-error.js';
import type { Claims } from './types.js';

export type TokenVerify = (token: string) => Claims; // throws on an invalid or expired token
export type RevocationCheck = (claims: Claims) => boolean;

export class BearerAuth {
  private readonly cache: LRUCache<string, Claims>;

  constructor(
    private readonly verify: TokenVerify,
    private readonly isRevoked: RevocationCheck,
    max = 50_000,
  ) {
    this.cache = new LRUCache({ max });
  }

  authenticate(header: string): Claims {
    if (header === '') throw authError('AUTHENTICATION_REQUIRED', 'this endpoint needs an Authorization: Bearer <token> header');
    const token = bearerToken(header);
    if (token === undefined) throw authError('AUTHENTICATION_REQUIRED', 'the Authorization header must be "Bearer <token>"');
    const now = Date.now() / 1000;
    // peek: no recency bump. Every token lives as long as the next, so evicting the oldest-inserted
    // first is the right policy, and it keeps the hit path cheap.
    const cached = this.cache.peek(token);
    if (cached !== undefined) {
      if (cached.exp > now && !this.isRevoked(cached)) return cached;
      this.cache.delete(token);
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
    this.cache.set(token, claims);
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
  new ApiError('JwtTokenExpired', 'INCORRECT_JWT_TOKEN', 'the access token is invalid or expired: renew it with POST login/refresh-token/', {
    error: 'invalid or expired JWT',
  });
