// The environment table's rows and the parsers of their values; a bad value is a ConfigError naming
// the variable.
import type { Config } from './config.js';
import { parseNodes, parseRedisTarget } from './redis-target.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export interface Row<K extends keyof Config> {
  key: K;
  env: string;
  parse: (raw: string, env: string) => Config[K];
  fallback: Config[K];
  doc: string;
}

export function int(min: number, max: number) {
  return (raw: string, env: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${env} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
}
export function float(min: number, max: number) {
  return (raw: string, env: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
      throw new ConfigError(`${env} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return n;
  };
}
export const text = (raw: string, env: string): string => {
  if (raw.trim() === '') throw new ConfigError(`${env} must not be empty`);
  return raw;
};
export function oneOf(values: string[]) {
  return (raw: string, env: string): string => {
    if (!values.includes(raw)) throw new ConfigError(`${env} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return raw;
  };
}

export function someOf<T extends string>(values: readonly T[]) {
  return (raw: string, env: string): T[] => {
    const picked = raw.split(',').map((x) => x.trim());
    const wrong = picked.filter((x) => !(values as readonly string[]).includes(x));
    if (picked.length === 0 || wrong.length > 0)
      throw new ConfigError(`${env} must be a comma-separated list of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return [...new Set(picked)] as T[];
  };
}
export const url = (raw: string, env: string): string => {
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${env} must be a URL, got ${JSON.stringify(raw)}`);
  }
  return raw;
};

// The text as given, once `check` (which throws on a bad one) accepts it.
const checkedBy =
  (check: (raw: string) => unknown) =>
  (raw: string, env: string): string => {
    try {
      check(raw);
    } catch (err) {
      throw new ConfigError(`${env}: ${(err as Error).message}`);
    }
    return raw;
  };
export const redisUrl = checkedBy(parseRedisTarget);
export const clusterNodes = checkedBy(parseNodes);

// Exact origins (scheme://host[:port], as browsers send them in Origin) or `*`.
export const origins = (raw: string, env: string): string[] => {
  const picked = [
    ...new Set(
      raw
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
    ),
  ];
  for (const o of picked) {
    if (o === '*') continue;
    let ok = false;
    try {
      ok = new URL(o).origin === o;
    } catch {
      ok = false;
    }
    if (!ok)
      throw new ConfigError(
        `${env} must be a comma-separated list of origins such as https://app.example.com (no path, no trailing slash) or *, got ${JSON.stringify(o)}`,
      );
  }
  return picked;
};

export const MiB = 1024 * 1024;
export const DAY = 86400;
