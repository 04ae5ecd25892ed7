// Redis connections, the mapping of Redis outages to the spec's ServerUnavailable, and the deadline
// that keeps a request's wait for Redis within the configured timeout.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ApiError } from '../errors/api-error.js';

export type { Redis } from 'ioredis';

export interface RedisOptions {
  commandTimeoutMs: number;
  name?: string;
  autoPipelining?: boolean; // default true; off for subscribers
  logger?: Logger; // where the connection's failures and recoveries are logged
}

export function connectRedis(url: string, o: RedisOptions): Redis {
  const redis = new Redis(url, {
    commandTimeout: o.commandTimeoutMs,
    // Fail fast while Redis is unreachable instead of queueing requests forever.
    maxRetriesPerRequest: 1,
    connectionName: o.name ?? 'recd',
    // Queued commands fail at every second failed reconnection (maxRetriesPerRequest 1), so this delay
    // sets how soon a request learns Redis is away: capped at 500 ms, a 503 comes within about a second
    // (at 2 s it took 4 s), for two connection attempts a second while Redis is down.
    retryStrategy: (times) => Math.min(times * 100, 500),
    // Commands issued in one turn of the event loop leave in one socket write: a write is a system
    // call, and one per command was the largest cost of Redis-backed requests under load.
    enableAutoPipelining: o.autoPipelining ?? true,
  });
  watchConnection(redis, o.name ?? 'recd', o.logger);
  return redis;
}

// Reports each command of a connection when it settles (metrics): its latency, from when it was
// handed to the connection, and whether it failed. One clock read each way; nothing when unused.
export function timeCommands(redis: Redis, observe: (ms: number, failed: boolean) => void): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: Parameters<Redis['sendCommand']>[0], ...rest: unknown[]) => {
    const started = performance.now();
    command.promise.then(
      () => observe(performance.now() - started, false),
      () => observe(performance.now() - started, true),
    );
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
}

// Gives a connection the error handler ioredis wants (without one every failed reconnection attempt
// prints "[ioredis] Unhandled error event"), logging a failure once when the connection goes down and
// once when it is back, rather than at every attempt in between (one each 100 ms to 2 s).
export function watchConnection(redis: Redis, name: string, logger: Logger | undefined): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger?.warn({ connection: name, error: err.message }, 'Redis connection failed; reconnecting');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info({ connection: name }, 'Redis connection restored');
  });
}

// The command timeout a connection was made with (ms); Infinity without one.
export function commandTimeoutOf(redis: Redis): number {
  return redis.options.commandTimeout ?? Infinity;
}

// A request that waited for Redis longer than the command timeout, over all its commands and its
// turn in a write lane: each command's own timeout alone let a request wait for several.
export class StorageDeadline extends Error {
  override name = 'StorageDeadline';
  constructor(ms: number) {
    super(`Command timed out: Redis did not answer within ${ms} ms`);
  }
}

// `work`, or StorageDeadline once it has not settled within ms (`gaveUp` is called then). The work
// itself goes on: a command already sent may still be applied when Redis answers.
export function withinDeadline<T>(work: Promise<T>, ms: number, gaveUp?: () => void): Promise<T> {
  if (ms === Infinity) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      gaveUp?.();
      reject(new StorageDeadline(ms));
    }, ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

// A command (or a request's whole wait) that ran out of time: Redis may be stalled.
export function isTimeout(err: unknown): boolean {
  return err instanceof Error && /^Command timed out/.test(err.message);
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

// Why this connection cannot serve now (for a readiness probe); undefined when a PING answers within ms.
export async function unreadyReason(redis: Redis, ms: number): Promise<string | undefined> {
  if (redis.status !== 'ready') return `redis connection is ${redis.status}`;
  try {
    await withinDeadline(redis.ping(), ms);
    return undefined;
  } catch (err) {
    return `redis: ${err instanceof Error ? err.message : String(err)}`;
  }
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
