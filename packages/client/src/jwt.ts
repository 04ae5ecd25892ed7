// When an access token expires, read from its claims (not verified: the server verifies; the client
// only decides when to renew).

export interface Lifetime {
  issuedAt: number; // seconds since the epoch
  expiresAt: number;
}

export function lifetimeOf(token: string): Lifetime | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    // atob: the same in browsers and Node; base64url has no padding and its own two letters.
    const b64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims = JSON.parse(atob(b64)) as { iat?: unknown; exp?: unknown };
    if (typeof claims.exp !== 'number') return undefined;
    return { issuedAt: typeof claims.iat === 'number' ? claims.iat : claims.exp, expiresAt: claims.exp };
  } catch {
    return undefined;
  }
}
