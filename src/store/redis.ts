// Redis connections and the mapping of Redis outages to the spec's ServerUnavailable.
import { Redis } from 'ioredis';
import { ApiError } from '../errors/api-error.js';

export type { Redis } from 'ioredis';

export interface RedisOptions {
  commandTimeoutMs: number;
  name?: string;
  autoPipelining?: boolean; // default true; off for subscribers
}

export function connectRedis(url: string, o: RedisOptions): Redis {
  return new Redis(url, {
    commandTimeout: o.commandTimeoutMs,
    // Fail fast while Redis is unreachable instead of queueing requests forever.
    maxRetriesPerRequest: 1,
    connectionName: o.name ?? 'recd',
    retryStrategy: (times) => Math.min(times * 100, 2000),
    // Commands issued in one turn of the event loop leave in one socket write: a write is a system
    // call, and one per command was the largest cost of Redis-backed requests under load.
    enableAutoPipelining: o.autoPipelining ?? true,
  });
}

const OUTAGE = /Command timed out|Connection is closed|ECONNREFUSED|ECONNRESET|MaxRetriesPerRequest|Stream isn't writeable|LOADING|MISCONF|READONLY/;

export function classifyStorageError(err: unknown): ApiError | undefined {
  if (!(err instanceof Error)) return undefined;
  if (/READONLY/.test(err.message)) {
    return new ApiError('ServerUnavailable', 'WRITING_ON_READONLY_MODE', 'storage is read-only at the moment; retry later', { error: 'read-only' });
  }
  if (OUTAGE.test(err.message) || err.name === 'MaxRetriesPerRequestError') {
    return new ApiError('ServerUnavailable', 'STORAGE_UNAVAILABLE', 'storage is unavailable; retry with exponential backoff', { error: 'storage unavailable' });
  }
  return undefined;
}

export async function waitForRedis(redis: Redis, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await redis.ping()) === 'PONG') return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`Redis did not answer within ${timeoutMs} ms: ${(err as Error).message}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
