// Access tokens (HS256 JWT) and rotating refresh tokens.
import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ApiError, authError } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { RefreshRecord, TokensStore } from '../../store/tokens-store.js';
import { randomSecret } from './secrets.js';

export type ClaimsInput = Omit<Claims, 'exp' | 'iat'>;

// How often a process compares its JWT secret with the stored one (a GET), besides when another
// process announces a new one: it bounds how long a secret lost with Redis's data (FLUSHALL, a new
// empty Redis) stays unstored, during which a process that starts would store a secret of its own.
export const SECRET_SYNC_MS = 1000;

export class TokenService {
  // Revoked subject -> the oldest password version (claims.pv) still accepted: Infinity for a deleted
  // account or service key, the new password_updated_timestamp after a password change.
  private readonly revoked = new Map<string, number>();

  private readonly changed: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  // shared: the secret is the deployment's generated one, kept in Redis (not RECD_JWT_SECRET).
  constructor(
    private secret: string,
    private readonly store: TokensStore,
    private readonly jwtTtlSeconds: number,
    private readonly refreshTtlSeconds: number,
    private readonly shared = false,
  ) {}

  onSecretChange(listener: () => void): void {
    this.changed.push(listener);
  }

  // Every process signs and verifies with the stored secret: this one's is stored again when Redis
  // lost it (the first process to ask wins), and replaced by the stored one when they differ.
  async syncSecret(): Promise<void> {
    if (!this.shared) return;
    const stored = (await this.store.storedSecret()) ?? (await this.store.jwtSecret(this.secret));
    if (stored === this.secret) return;
    this.secret = stored;
    for (const listener of this.changed) listener();
  }

  startSync(): void {
    if (this.shared) this.timer = setInterval(() => void this.syncSecret().catch(() => undefined), SECRET_SYNC_MS).unref();
  }

  stopSync(): void {
    clearInterval(this.timer);
  }

  // notAfter (seconds): a token never outlives the service key it was opened with.
  sign(claims: ClaimsInput, notAfter: number | null = null): string {
    const iat = Math.floor(Date.now() / 1000);
    const exp = Math.min(iat + this.jwtTtlSeconds, notAfter === null ? Infinity : Math.floor(notAfter));
    return jwt.sign({ ...claims, iat, exp }, this.secret, { algorithm: 'HS256' });
  }

  // Synchronous on purpose: the HTTP layer calls it on a cache miss within the request tick.
  verify = (token: string): Claims => jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as Claims;

  // Tokens of a deleted account, of a password since changed, or opened with a deleted service key,
  // stop working at once.
  isRevoked = (claims: Claims): boolean => {
    const accepted = this.revoked.get(claims.sub);
    if (accepted !== undefined && !((claims.pv ?? 0) >= accepted)) return true;
    return claims.key !== undefined && this.revoked.has(claims.key);
  };

  // Called for revocations seen from any process (pub/sub) and at start-up.
  markRevoked(entry: string): void {
    const { subject, from } = parseEntry(entry);
    this.revoked.set(subject, Math.max(from, this.revoked.get(subject) ?? -Infinity));
  }

  async loadRevoked(): Promise<void> {
    for (const entry of await this.store.revoked()) this.markRevoked(entry);
  }

  // subject: an account id or a service key id. passwordVersion: only tokens of older passwords.
  async revoke(subject: string, passwordVersion?: number): Promise<void> {
    const entry = passwordVersion === undefined ? subject : `${subject} ${passwordVersion}`;
    this.markRevoked(entry);
    await this.store.revoke(entry, Date.now() + this.jwtTtlSeconds * 1000);
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
      throw new ApiError('RefreshTokenExpired', 'REFRESH_TOKEN_EXPIRED', 'refresh token expired: log in again', {
        error: 'refresh token expired',
      });
    }
    const out = await use(rec);
    if (!(await this.store.takeRefresh(key))) throw incorrectRefresh();
    return out;
  }
}

// A revocation as stored and broadcast: "<subject>" (every token), or "<subject> <password version>".
function parseEntry(entry: string): { subject: string; from: number } {
  const space = entry.indexOf(' ');
  return space < 0 ? { subject: entry, from: Infinity } : { subject: entry.slice(0, space), from: Number(entry.slice(space + 1)) };
}

const incorrectRefresh = () => authError('INCORRECT_REFRESH_TOKEN', 'refresh token is not valid (unknown, or already used)');

// Refresh tokens are 256-bit random values, so a fast digest is a safe lookup key for them.
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
