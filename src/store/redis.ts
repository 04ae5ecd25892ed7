// Redis connections, the mapping of Redis outages to the spec's ServerUnavailable, and the deadline
// that keeps a request's wait for Redis within the configured timeout.
import { Cluster, Redis, type Command, type RedisOptions as ClientOptions } from 'ioredis';
import type { Logger } from 'pino';
import { parseRedisTarget } from '../config/redis-target.js';
import { ApiError } from '../errors/api-error.js';

export { Cluster, Redis } from 'ioredis';

// A connection to recd's Redis: one server (or a Sentinel-managed primary), or a Redis Cluster.
// Stores take either: every key of one organisation or database shares a hash tag (keys.ts), so the
// commands, transactions and scripts of one of them stay in one slot; what is node-local (blocking
// reads, CLIENT UNBLOCK) goes through dedicatedConnection / nodeOf.
export type Connection = Redis | Cluster;

export interface RedisOptions {
  commandTimeoutMs: number;
  name?: string;
  autoPipelining?: boolean; // default true; off for subscribers
  logger?: Logger; // where the connection's failures and recoveries are logged
}

// Queued commands fail at every second failed reconnection (maxRetriesPerRequest 1), so this delay
// sets how soon a request learns Redis is away: capped at 500 ms, a 503 comes within about a second
// (at 2 s it took 4 s), for two connection attempts a second while Redis is down.
const retryStrategy = (times: number) => Math.min(times * 100, 500);

// How often a cluster client re-reads the slot table. ioredis follows a MOVED only when every command
// of a batch got the same one; auto-pipelining batches a slot's commands with others' for the same
// node, and after a failover such a batch fails its moved commands (503) without updating the table,
// which ioredis otherwise never re-reads by itself: the slot's commands would keep going to the wrong
// node. One CLUSTER SLOTS every 2 s bounds that to 2 s after the switch.
const SLOTS_REFRESH_MS = 2000;

export function connectRedis(url: string, o: RedisOptions): Connection {
  const target = parseRedisTarget(url);
  const node = {
    commandTimeout: o.commandTimeoutMs,
    // Fail fast while Redis is unreachable instead of queueing requests forever.
    maxRetriesPerRequest: 1,
    connectionName: o.name ?? 'recd',
  } satisfies ClientOptions;
  // Commands issued in one turn of the event loop leave in one socket write: a write is a system
  // call, and one per command was the largest cost of Redis-backed requests under load. (A cluster
  // client batches per node.)
  const enableAutoPipelining = o.autoPipelining ?? true;
  let redis: Connection;
  if (target.kind === 'cluster') {
    // Reads stay on the primaries (scaleReads 'master', the default): a replica may not have a write
    // recd just made, and every read here follows a write of some process.
    redis = endRefreshesOnDisconnect(
      new Cluster(target.nodes, {
        redisOptions: { ...node, username: target.username, password: target.password, ...(target.tls ? { tls: {} } : {}) },
        clusterRetryStrategy: retryStrategy,
        slotsRefreshInterval: SLOTS_REFRESH_MS,
        enableAutoPipelining,
      }),
    );
  } else if (target.kind === 'sentinel') {
    // The client asks the Sentinels for the primary, and again after a failover (a primary turned
    // replica answers READONLY meanwhile: a 503, as while Redis is away).
    const { sentinels, name, db, username, password, tls } = target;
    redis = new Redis({
      ...node,
      sentinels,
      name,
      db,
      username,
      password,
      ...(tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
      retryStrategy,
      enableAutoPipelining,
    });
  } else {
    redis = new Redis(target.url, { ...node, retryStrategy, enableAutoPipelining });
  }
  watchConnection(redis, o.name ?? 'recd', o.logger);
  return redis;
}

// ioredis (6.0.0) re-arms its periodic slot refresh from each refresh's callback, and its disconnect
// only clears the timer: a disconnect while a refresh is under way leaves the closed client refreshing
// every slotsRefreshInterval for good, a timer that keeps the process alive after its stop. Once
// disconnected for good, a refresh ends the round instead (at most one more firing).
export function endRefreshesOnDisconnect(cluster: Cluster): Cluster {
  const disconnect = cluster.disconnect.bind(cluster);
  cluster.disconnect = (reconnect = false) => {
    if (!reconnect) Object.assign(cluster, { refreshSlotsCache: () => undefined });
    disconnect(reconnect);
  };
  return cluster;
}

// The primary serving `key` now, through the cluster client's own connection to it (commands sent
// there are not redirected: a slot that moved answers MOVED). On one server, that server.
export async function nodeOf(redis: Connection, key: string): Promise<Redis> {
  if (!(redis instanceof Cluster)) return redis;
  return primaryOf(redis, Number(await redis.cluster('KEYSLOT', key)));
}

function primaryOf(redis: Cluster, slot: number): Redis {
  const primary = redis.slots[slot]?.[0];
  const node = redis.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === primary);
  if (!node) throw new Error(`Cluster: no connection to the primary of slot ${slot} (${primary ?? 'unassigned'})`);
  return node;
}

// A connection of its own (a blocking read parks it), to the server holding `key`. On a cluster it is
// a plain connection to the slot's primary that does not reconnect by itself: once it fails (or meets
// MOVED after a failover or resharding), the caller opens a new one, to wherever the slot is then.
export async function dedicatedConnection(redis: Connection, key: string, options: Partial<ClientOptions>): Promise<Redis> {
  if (!(redis instanceof Cluster)) return redis.duplicate(options);
  return (await nodeOf(redis, key)).duplicate({ ...options, lazyConnect: false, retryStrategy: () => null });
}

// Reports each command of a connection when it settles (metrics): its latency, from when it was
// handed to the connection, and whether it failed. One clock read each way; nothing when unused.
export function timeCommands(redis: Connection, observe: (ms: number, failed: boolean) => void): void {
  const target = redis as unknown as { sendCommand: (command: Command, ...rest: unknown[]) => unknown };
  const send = target.sendCommand.bind(redis);
  target.sendCommand = (command: Command, ...rest: unknown[]) => {
    const started = performance.now();
    command.promise.then(
      () => observe(performance.now() - started, false),
      () => observe(performance.now() - started, true),
    );
    return send(command, ...rest);
  };
}

// Gives a connection the error handler ioredis wants (without one every failed reconnection attempt
// prints "[ioredis] Unhandled error event"), logging a failure once when the connection goes down and
// once when it is back, rather than at every attempt in between (one each 100 ms to 2 s).
export function watchConnection(redis: Connection, name: string, logger: Logger | undefined): void {
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
export function commandTimeoutOf(redis: Connection): number {
  return (redis instanceof Cluster ? redis.options.redisOptions?.commandTimeout : redis.options.commandTimeout) ?? Infinity;
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

// The cluster's own: a slot without a primary (CLUSTERDOWN), a failover under way (TRYAGAIN), a
// client that cannot reach the nodes to learn the slots, a slot moved to another node (MOVED, ASK: the
// command was not run; the client reaches that node once its slot table is re-read), a slot whose
// primary the client lost (primaryOf); a primary refusing writes while too few replicas are in reach
// (NOREPLICAS, min-replicas-to-write). And ioredis's own for the commands of a pipeline or transaction
// whose connection closed after answering part of it: they cannot be resent in order.
const OUTAGE =
  /Command timed out|Connection is closed|Command aborted due to connection close|ECONNREFUSED|ECONNRESET|MaxRetriesPerRequest|Stream isn't writeable|LOADING|MISCONF|READONLY|CLUSTERDOWN|TRYAGAIN|Failed to refresh slots cache|None of startup nodes is available|Cluster isn't ready|Too many Cluster redirections|^(MOVED|ASK) \d+ |no connection to the primary of slot|^NOREPLICAS /;

// Storage faults as the HTTP layer, the metrics and the logs name them.
export type StorageFault = 'unavailable' | 'read_only' | 'full' | 'evicting';
export const STORAGE_FAULTS: readonly StorageFault[] = ['unavailable', 'read_only', 'full', 'evicting'];

// Redis at its maxmemory under noeviction refuses writes with "OOM command not allowed…", also from
// inside a script (EVALSHA, FCALL) and, in a transaction, as EXECABORT whose queued command met it.
const OOM = /OOM command not allowed/;

// Which storage fault failed a command; undefined for anything else (a bug: 500).
export function storageFaultOf(err: unknown): StorageFault | undefined {
  if (!(err instanceof Error)) return undefined;
  if (OOM.test(err.message)) return 'full';
  const previous = (err as { previousErrors?: unknown[] }).previousErrors;
  if (/^EXECABORT/.test(err.message) && previous?.some((e) => e instanceof Error && OOM.test(e.message))) return 'full';
  if (/READONLY/.test(err.message)) return 'read_only';
  if (OUTAGE.test(err.message) || err.name === 'MaxRetriesPerRequestError') return 'unavailable';
  return undefined;
}

// The spec error a storage fault answers: 503 ServerUnavailable, which clients retry with backoff.
export function storageFaultError(fault: StorageFault): ApiError {
  switch (fault) {
    case 'read_only':
      return new ApiError('ServerUnavailable', 'WRITING_ON_READONLY_MODE', 'storage is read-only at the moment; retry later', {
        error: 'read-only',
      });
    case 'full':
      return new ApiError(
        'ServerUnavailable',
        'STORAGE_UNAVAILABLE',
        'storage is full (Redis reached its maxmemory) and refuses writes; retry later',
        { error: 'storage full' },
      );
    case 'evicting':
      return new ApiError(
        'ServerUnavailable',
        'STORAGE_UNAVAILABLE',
        'storage may evict data (Redis maxmemory-policy is not noeviction): writes are refused until it is; retry later',
        {
          error: 'storage evicting',
        },
      );
    default:
      return new ApiError('ServerUnavailable', 'STORAGE_UNAVAILABLE', 'storage is unavailable; retry with exponential backoff', {
        error: 'storage unavailable',
      });
  }
}

export function classifyStorageError(err: unknown): ApiError | undefined {
  const fault = storageFaultOf(err);
  return fault === undefined ? undefined : storageFaultError(fault);
}

// Why this connection cannot serve now (for a readiness probe); undefined when a PING answers within ms.
export async function unreadyReason(redis: Connection, ms: number): Promise<string | undefined> {
  if (redis.status !== 'ready') return `redis connection is ${redis.status}`;
  try {
    await withinDeadline(redis.ping(), ms);
    return undefined;
  } catch (err) {
    return `redis: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export async function waitForRedis(redis: Connection, timeoutMs: number): Promise<void> {
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
