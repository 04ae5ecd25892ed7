// Typed configuration from environment variables, checked once at boot.
import type { Config } from './config.js';
import { ConfigError, type Env, type Row } from './env-parsers.js';
import { ENGINE_ROWS } from './env-engine-rows.js';
import { SERVICE_ROWS } from './env-service-rows.js';

export type { Config, SearchCandidate } from './config.js';
export { SEARCH_CANDIDATES } from './config.js';
export { ConfigError } from './env-parsers.js';

// The README's configuration table is this list; keep them together.
export const CONFIG_TABLE = [...SERVICE_ROWS, ...ENGINE_ROWS] as const satisfies readonly Row<keyof Config>[];

export function loadConfig(env: Env = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const row of CONFIG_TABLE as readonly Row<keyof Config>[]) {
    const raw = env[row.env];
    out[row.key] = raw === undefined || raw === '' ? row.fallback : row.parse(raw, row.env);
  }
  const config = out as unknown as Config;
  if ((config.rootEmail === undefined) !== (config.rootPassword === undefined)) {
    throw new ConfigError('RECD_ROOT_EMAIL and RECD_ROOT_PASSWORD must be set together');
  }
  // One place names the Redis from here on: the supervisor hands redisUrl to its workers as REDIS_URL
  // (with REDIS_CLUSTER_NODES still in their environment: the same cluster, accepted).
  if (config.redisClusterNodes !== undefined) {
    const url = `redis+cluster://${config.redisClusterNodes}`;
    if (config.redisUrl !== undefined && config.redisUrl !== url) throw new ConfigError('set REDIS_URL or REDIS_CLUSTER_NODES, not both');
    config.redisUrl = url;
  }
  return config;
}
