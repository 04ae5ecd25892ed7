// Refresh tokens (by digest, with TTL), account revocations and the shared JWT secret.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface RefreshRecord {
  org: string;
  account: string;
  key: string | null; // service key of the login, for service sessions
  issued: number; // seconds; a password change after this ends the session
  db: string | null;
  fuid: string | null;
  fsid: string | null;
  expiration_timestamp: number; // seconds
}

// Expired refresh tokens are kept this long so that their use says "expired", not "incorrect".
const EXPIRED_GRACE_MS = 7 * 86400 * 1000;

export class TokensStore {
  constructor(private readonly redis: Connection) {}

  // The deployment's secret: the stored one, else `candidate`, stored (first writer wins) and
  // announced so that every process reads it again. A Redis that lost its data (FLUSHALL, a new empty
  // server) gets back the secret of whichever process asks first.
  async jwtSecret(candidate: string): Promise<string> {
    for (;;) {
      if ((await this.redis.set(keys.jwtSecret(), candidate, 'NX')) === 'OK') {
        await this.redis.publish(keys.jwtSecretChannel(), 'stored');
        return candidate;
      }
      const stored = await this.redis.get(keys.jwtSecret());
      if (stored !== null) return stored; // else flushed between the two commands: again
    }
  }

  async storedSecret(): Promise<string | null> {
    return this.redis.get(keys.jwtSecret());
  }

  async putRefresh(digest: string, rec: RefreshRecord): Promise<void> {
    const ttl = Math.max(1, Math.round(rec.expiration_timestamp * 1000 - Date.now())) + EXPIRED_GRACE_MS;
    await this.redis.set(keys.refreshToken(digest), pack(rec), 'PX', ttl);
  }

  async peekRefresh(digest: string): Promise<RefreshRecord | undefined> {
    return unpack<RefreshRecord>(await this.redis.getBuffer(keys.refreshToken(digest)));
  }

  // Deletes; false when another request used the token first (a refresh token works once).
  async takeRefresh(digest: string): Promise<boolean> {
    return (await this.redis.del(keys.refreshToken(digest))) === 1;
  }

  // entry: an account id or a service key id, with the oldest password version still accepted
  // when only older tokens are revoked (TokenService).
  async revoke(entry: string, untilMs: number): Promise<void> {
    await this.redis.zadd(keys.revokedAccounts(), untilMs, entry);
    await this.redis.zremrangebyscore(keys.revokedAccounts(), '-inf', Date.now());
    await this.redis.publish(keys.revokedChannel(), entry);
  }

  async revoked(): Promise<string[]> {
    return this.redis.zrangebyscore(keys.revokedAccounts(), Date.now(), '+inf');
  }
}
