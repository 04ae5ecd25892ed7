// Access tokens (HS256 JWT) and rotating refresh tokens.
import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ApiError, authError } from '../errors/api-error.js';
import type { Claims } from '../http/types.js';
import type { RefreshRecord, TokensStore } from '../store/tokens-store.js';
import { randomSecret } from './secrets.js';

export type ClaimsInput = Omit<Claims, 'exp' | 'iat'>;

export class TokenService {
  private readonly revoked = new Set<string>();

  constructor(
    private readonly secret: string,
    private readonly store: TokensStore,
    private readonly jwtTtlSeconds: number,
    private readonly refreshTtlSeconds: number,
  ) {}

  sign(claims: ClaimsInput): string {
    return jwt.sign(claims, this.secret, { algorithm: 'HS256', expiresIn: this.jwtTtlSeconds });
  }

  // Synchronous on purpose: the HTTP layer calls it on a cache miss within the request tick.
  verify = (token: string): Claims => {
    const claims = jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as Claims;
    if (this.revoked.has(claims.sub)) throw expiredToken();
    return claims;
  };

  isRevoked(accountId: string): boolean {
    return this.revoked.has(accountId);
  }

  // Called for revocations seen from any process (pub/sub) and at start-up.
  markRevoked(accountId: string): void {
    this.revoked.add(accountId);
  }

  async loadRevoked(): Promise<void> {
    for (const id of await this.store.revoked()) this.revoked.add(id);
  }

  async revokeAccount(accountId: string): Promise<void> {
    this.revoked.add(accountId);
    await this.store.revoke(accountId, Date.now() + this.jwtTtlSeconds * 1000);
  }

  async issueRefresh(rec: Omit<RefreshRecord, 'expiration_timestamp'>): Promise<string> {
    const token = randomSecret(32);
    await this.store.putRefresh(digest(token), { ...rec, expiration_timestamp: Date.now() / 1000 + this.refreshTtlSeconds });
    return token;
  }

  // A refresh token works once; the login that uses it returns the next one.
  async useRefresh(token: string): Promise<RefreshRecord> {
    const rec = await this.store.takeRefresh(digest(token));
    if (!rec) throw authError('INCORRECT_REFRESH_TOKEN', 'refresh token is not valid (unknown, or already used)');
    if (rec.expiration_timestamp <= Date.now() / 1000) {
      throw new ApiError('RefreshTokenExpired', 'REFRESH_TOKEN_EXPIRED', 'refresh token expired: log in again', { error: 'refresh token expired' });
    }
    return rec;
  }
}

// Refresh tokens are 256-bit random values, so a fast digest is a safe lookup key for them.
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

const expiredToken = () =>
  new ApiError('JwtTokenExpired', 'INCORRECT_JWT_TOKEN', 'the account of this token was deleted', { error: 'revoked JWT' });
