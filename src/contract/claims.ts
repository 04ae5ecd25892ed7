// What a verified access token says about its bearer, as every layer reads it.
import type { Role } from './roles.js';

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
  exp: number;
  iat: number;
}

