// What creating and changing an individual account takes (the routes' bodies).
import type { Role } from '../../contract/roles.js';

export type CreatableRole = Exclude<Role, 'root'>;

export interface IndividualInput {
  email: string;
  role: CreatableRole;
  first_name?: string;
  last_name?: string;
  metadata?: Record<string, unknown>;
  email_redirect_url?: string;
  password?: string;
}

export interface IndividualPatch {
  email: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  metadata?: Record<string, unknown>;
}
