// Accounts and service keys as answers show them (no secrets), and whether a key has expired.
import type { IndividualAccount, ServiceKey } from '../../store/accounts-store.js';

const now = () => Date.now() / 1000;

export const publicIndividual = (a: IndividualAccount) => ({
  id: a.id,
  role: a.role,
  first_name: a.first_name,
  last_name: a.last_name,
  email: a.email,
  metadata: a.metadata,
});

export const publicKey = (k: ServiceKey) => ({
  id: k.id,
  created_timestamp: k.created_timestamp,
  expiration_timestamp: k.expiration_timestamp,
  is_expired: isExpired(k),
  metadata: k.metadata,
});

export const isExpired = (k: ServiceKey) => k.expiration_timestamp !== null && k.expiration_timestamp <= now();
