// Access tokens (HS256 JWT) and rotating refresh tokens.
import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ApiError, authError } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { RefreshRecord, TokensStore } from '../../store/tokens-store.js';
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
  verify = (token: string): Claims => jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as Claims;

  // Tokens of a deleted account, or opened with a deleted service key, stop working at once.
  isRevoked = (claims: Claims): boolean => this.revoked.has(claims.sub) || (claims.key !== undefined && this.revoked.has(claims.key));

  // Called for revocations seen from any process (pub/sub) and at start-up.
  markRevoked(subject: string): void {
    this.revoked.add(subject);
  }

  async loadRevoked(): Promise<void> {
    for (const id of await this.store.revoked()) this.revoked.add(id);
  }

  // subject: an account id or a service key id.
  async revoke(subject: string): Promise<void> {
    this.revoked.add(subject);
    await this.store.revoke(subject, Date.now() + this.jwtTtlSeconds * 1000);
  }

  async issueRefresh(rec: Omit<RefreshRecord, 'expiration_timestamp' | 'issued'>): Promise<string> {
    const token = randomSecret(32);
    const now = Date.now() / 1000;
    await this.store.putRefresh(digest(token), { ...rec, issued: now, expiration_timestamp: now + this.refreshTtlSeconds });
    return token;
  }

  // A refresh token works once; the login that uses it returns the next one. `use` checks the
  // record (and may refuse it) before the token is spent, so a refused refresh keeps its token.
  async useRefresh<T>(token: string, use: (rec: RefreshRecord) => Promise<T>): Promise<T> {
    const key = digest(token);
    const rec = await this.store.peekRefresh(key);
    if (!rec) throw incorrectRefresh();
    if (rec.expiration_timestamp <= Date.now() / 1000) {
      throw new ApiError('RefreshTokenExpired', 'REFRESH_TOKEN_EXPIRED', 'refresh token expired: log in again', { error: 'refresh token expired' });
    }
    const out = await use(rec);
    if (!(await this.store.takeRefresh(key))) throw incorrectRefresh();
    return out;
  }
}

const incorrectRefresh = () => authError('INCORRECT_REFRESH_TOKEN', 'refresh token is not valid (unknown, or already used)');

// Refresh tokens are 256-bit random values, so a fast digest is a safe lookup key for them.
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
