// A database's quotas (docs/api-choices.md, "Quotas"): what one tenant may store on an instance it
// shares, from the configuration table (env.ts), as the stores and services take them.
import { LIMITS } from './limits.js';
import type { Config } from './env.js';

export interface Quotas {
  items: number;
  users: number;
  ratings: number;
  interactions: number;
  properties: number; // definitions of each kind
  recordBytes: number; // one item's or user's stored properties
  trainingSeconds: number;
  requestsPerSecond: number; // of the organisation; 0: no limit
}

export function quotasOf(config: Config): Quotas {
  return {
    items: config.quotaItems,
    users: config.quotaUsers,
    ratings: config.quotaRatings,
    interactions: config.quotaInteractions,
    properties: config.quotaProperties,
    recordBytes: LIMITS.recordBytesMax,
    trainingSeconds: config.quotaTrainingSeconds,
    requestsPerSecond: config.rateLimitPerSecond,
  };
}

// No quota: what a store checks against when its caller sets none (tools and tests of the store alone).
export const UNLIMITED: Quotas = {
  items: Number.MAX_SAFE_INTEGER,
  users: Number.MAX_SAFE_INTEGER,
  ratings: Number.MAX_SAFE_INTEGER,
  interactions: Number.MAX_SAFE_INTEGER,
  properties: Number.MAX_SAFE_INTEGER,
  recordBytes: LIMITS.recordBytesMax,
  trainingSeconds: Number.MAX_SAFE_INTEGER,
  requestsPerSecond: 0,
};
