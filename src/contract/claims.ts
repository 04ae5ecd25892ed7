// What a verified access token says about its bearer, as every layer reads it.
import type { FrontendBinding, Role } from './roles.js';

export interface Claims {
  sub: string; // account id
  org: string;
  role: Role;
  kind: 'individual' | 'service';
  db?: string;
  // The database's identifier types: immutable after creation, so tokens can carry them.
  dbt?: [string, string, string];
  fuid?: string;
  fsid?: string;
  // The service key a service session was opened with: deleting the key ends the session.
  key?: string;
  // Individual accounts: the account's password_updated_timestamp when the token was issued. A token
  // from before the latest password change is refused.
  pv?: number;
  exp: number;
  iat: number;
}

// Whether a frontend token may act on data of this binding's kind (other roles always may).
export const frontendBound = (claims: Claims, binding: FrontendBinding): boolean =>
  claims.role !== 'frontend' || (binding === 'user' ? claims.fuid !== undefined : claims.fsid !== undefined);
