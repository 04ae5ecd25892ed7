// Storage layer of the composition root: Redis (embedded or the configured one), its connections,
// and the stores over them.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Quotas } from '../config/quotas.js';
import { AccountsStore } from '../store/accounts-store.js';
import { CallCountsStore } from '../store/call-counts-store.js';
import { CountsStore } from '../store/counts-store.js';
import { DatabasesStore } from '../store/databases-store.js';
import { EntitiesStore } from '../store/entities-store.js';
import { InteractionsStore } from '../store/interactions-store.js';
import { ModelsStore } from '../store/models-store.js';
import { OutcomesStore } from '../store/outcomes-store.js';
import { OutboxStore } from '../store/outbox-store.js';
import { PropertiesStore } from '../store/properties-store.js';
import { RateStore } from '../store/rate-store.js';
import { RatingsStore } from '../store/ratings-store.js';
import { RatingsLog } from '../store/ratings-log.js';
import { connectRedis, waitForRedis, type Connection } from '../store/redis.js';
import { checkPolicyAtStart } from '../store/redis-memory.js';
import { startRedisServer, type EmbeddedRedis } from '../store/redis-server.js';
import { ScenariosStore } from '../store/scenarios-store.js';
import { SettingsStore } from '../store/settings-store.js';
import { TablesStore } from '../store/tables-store.js';
import { TasksStore } from '../store/tasks-store.js';
import { TokensStore } from '../store/tokens-store.js';
import { TrainingStore } from '../store/training-store.js';

export interface Storage {
  redisUrl: string;
  redis: Connection;
  subscriber: Connection; // pub/sub only (a subscribed connection takes no other commands)
  embedded: boolean; // a redis-server of our own, started under the data directory
  // Disconnects both connections, then stops the embedded redis-server.
  close(): Promise<void>;
}

// Starts the embedded redis-server when no REDIS_URL is set, connects, waits until Redis answers,
// and refuses a Redis whose maxmemory-policy may evict data; a failure on the way leaves nothing running.
export async function connectStorage(config: Config, logger: Logger): Promise<Storage> {
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (redisUrl === undefined) {
    const dir = join(config.dataDir, 'redis');
    embedded = await startRedisServer(dir);
    redisUrl = embedded.url;
    logger.info({ port: embedded.port, dir, redisPid: embedded.pid }, 'embedded redis-server started');
  }
  const redis = connectRedis(redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs, logger });
  const subscriber = connectRedis(redisUrl, {
    commandTimeoutMs: config.redisCommandTimeoutMs,
    name: 'recd-sub',
    autoPipelining: false,
    logger,
  });
  const close = async () => {
    redis.disconnect();
    subscriber.disconnect();
    await embedded?.stop();
  };
  try {
    await waitForRedis(redis, config.redisStartTimeoutMs);
    await checkPolicyAtStart(redis, config.redisCommandTimeoutMs, logger);
  } catch (err) {
    await close();
    throw err;
  }
  return { redisUrl, redis, subscriber, embedded: embedded !== undefined, close };
}

export type Stores = ReturnType<typeof buildStores>;

// Every store over the one command connection (constructing one sends nothing to Redis); the write
// stores refuse what would pass a database's quotas.
export function buildStores(redis: Connection, quotas: Quotas) {
  return {
    accounts: new AccountsStore(redis),
    callCounts: new CallCountsStore(redis),
    counts: new CountsStore(redis),
    databases: new DatabasesStore(redis),
    entities: new EntitiesStore(redis, quotas),
    interactions: new InteractionsStore(redis, quotas),
    models: new ModelsStore(redis),
    outbox: new OutboxStore(redis),
    outcomes: new OutcomesStore(redis),
    properties: new PropertiesStore(redis, quotas),
    rate: new RateStore(redis),
    ratings: new RatingsStore(redis, quotas),
    ratingsLog: new RatingsLog(redis),
    scenarios: new ScenariosStore(redis),
    settings: new SettingsStore(redis),
    tables: new TablesStore(redis),
    tasks: new TasksStore(redis),
    tokens: new TokensStore(redis),
    training: new TrainingStore(redis),
  };
}
