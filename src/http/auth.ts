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
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw authError('AUTHENTICATION_REQUIRED', 'the Authorization header must be "Bearer <token>"');
    const token = m[1]!;
    const now = Date.now() / 1000;
    const cached = this.cache.get(token);
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

const expired = () =>
  new ApiError('JwtTokenExpired', 'INCORRECT_JWT_TOKEN', 'the access token is invalid or expired: renew it with POST login/refresh-token/', {
    error: 'invalid or expired JWT',
  });
