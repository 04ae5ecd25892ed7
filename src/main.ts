// Composition root: Redis, stores, services, routes, HTTP server; and their orderly shutdown.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { jsonCodec } from './codecs/json.js';
import { CodecRegistry } from './codecs/registry.js';
import type { Config } from './config/env.js';
import { BearerAuth } from './http/auth.js';
import { Dispatcher } from './http/dispatch.js';
import { Router } from './http/router.js';
import { HttpServer } from './http/server.js';
import { allRoutes } from './routes/index.js';
import { AccountService } from './services/accounts.js';
import { DatabaseService } from './services/databases.js';
import { Catalogues } from './services/catalogue.js';
import { EntityService } from './services/entities.js';
import { RatingService } from './services/ratings.js';
import { InteractionRuleService } from './services/interaction-rules.js';
import { InteractionLanes } from './services/interaction-lanes.js';
import { InteractionService } from './services/interactions.js';
import { LoginService } from './services/login.js';
import { PropertyService } from './services/properties.js';
import { RateLimiter } from './services/rate-limiter.js';
import { outboxMailer, smtpMailer, type Mailer } from './services/mailer.js';
import { randomSecret } from './services/secrets.js';
import { TokenService } from './services/tokens.js';
import { AccountsStore } from './store/accounts-store.js';
import { DatabasesStore } from './store/databases-store.js';
import { keys } from './store/keys.js';
import { ChangeTail } from './store/change-tail.js';
import { EntitiesStore } from './store/entities-store.js';
import { RatingsStore } from './store/ratings-store.js';
import { SettingsStore } from './store/settings-store.js';
import { InteractionsStore } from './store/interactions-store.js';
import { OutboxStore } from './store/outbox-store.js';
import { PropertiesStore } from './store/properties-store.js';
import { classifyStorageError, connectRedis, waitForRedis, type Redis } from './store/redis.js';
import { startRedisServer, type EmbeddedRedis } from './store/redis-server.js';
import { RateStore } from './store/rate-store.js';
import { TasksStore } from './store/tasks-store.js';
import { TokensStore } from './store/tokens-store.js';

export interface RunningApp {
  port: number;
  redisUrl: string;
  // A root password generated at this start (embedded default, first start only).
  generatedRoot?: { email: string; password: string };
  close(): Promise<void>;
}

export const GENERATED_ROOT_EMAIL = 'root@localhost';

export async function startApp(config: Config, logger: Logger = pino({ level: config.logLevel })): Promise<RunningApp> {
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (redisUrl === undefined) {
    embedded = await startRedisServer(join(config.dataDir, 'redis'));
    redisUrl = embedded.url;
    logger.info({ port: embedded.port, dir: join(config.dataDir, 'redis') }, 'embedded redis-server started');
  }
  const redis = connectRedis(redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs });
  const subscriber = connectRedis(redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs, name: 'recd-sub', autoPipelining: false });
  let stopCatalogues = async () => undefined as void;
  let drainWrites = async () => undefined as void;
  const closeRedis = async () => {
    await drainWrites(); // queued interaction writes reach Redis before it goes
    await stopCatalogues();
    redis.disconnect();
    subscriber.disconnect();
    await embedded?.stop();
  };
  try {
    await waitForRedis(redis, 10_000);
    const tokensStore = new TokensStore(redis);
    const secret = config.jwtSecret ?? (await tokensStore.jwtSecret(() => randomBytes(48).toString('base64url')));
    const tokens = new TokenService(secret, tokensStore, config.jwtTtlSeconds, config.refreshTtlSeconds);
    const mailer: Mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(new OutboxStore(redis), logger);
    const accounts = new AccountService(new AccountsStore(redis), tokens, mailer, config.resetCodeTtlSeconds);
    const tasksStore = new TasksStore(redis);
    const propertiesStore = new PropertiesStore(redis);
    const entitiesStore = new EntitiesStore(redis);
    const catalogues = new Catalogues(new ChangeTail(redis, logger), entitiesStore, propertiesStore, logger);
    stopCatalogues = () => catalogues.stop();
    const databases = new DatabaseService(new DatabasesStore(redis), catalogues, tasksStore);
    const properties = new PropertyService(propertiesStore, databases, catalogues);
    const entities = new EntityService(entitiesStore, tasksStore, catalogues, logger);
    const ratingsStore = new RatingsStore(redis);
    const interactionsStore = new InteractionsStore(redis);
    const lanes = new InteractionLanes(interactionsStore, tasksStore, logger);
    drainWrites = () => lanes.drained();
    const ratings = new RatingService(ratingsStore, tasksStore);
    const interactionRules = new InteractionRuleService(new SettingsStore(redis), catalogues);
    const interactions = new InteractionService(interactionsStore, ratingsStore, interactionRules, lanes, tasksStore, logger);
    const login = new LoginService(accounts, databases, tokens, (db, session, user) => interactions.link(db, session, user, Date.now() / 1000));

    const generatedRoot = await bootstrapRoot(config, accounts, embedded !== undefined, logger);
    const auth = new BearerAuth(tokens.verify, tokens.isRevoked);
    await watchBroadcasts(subscriber, tokens, catalogues);

    const limiter = config.rateLimitPerSecond > 0 ? new RateLimiter(new RateStore(redis), config.rateLimitPerSecond, 50, (err) => logger.warn({ err }, 'rate counters not flushed')) : undefined;
    const router = new Router(allRoutes({ accounts, databases, login, properties, entities, ratings, interactions, interactionRules }));
    const dispatcher = new Dispatcher({
      router,
      codecs: new CodecRegistry(jsonCodec),
      auth,
      logger,
      maxDecompressedBytes: config.maxDecompressedBytes,
      classify: classifyStorageError,
      admit: limiter && ((claims) => limiter.admit(claims.org)),
    });
    const http = new HttpServer(dispatcher, { host: config.host, port: config.port, maxBodyBytes: config.maxBodyBytes, logger });
    const port = await http.listen();
    logger.info({ host: config.host, port }, 'recd listening');
    return {
      port,
      redisUrl,
      generatedRoot,
      async close() {
        await http.close();
        limiter?.close();
        mailer.close();
        await closeRedis();
        logger.info('recd stopped');
      },
    };
  } catch (err) {
    await closeRedis();
    throw err;
  }
}

async function bootstrapRoot(config: Config, accounts: AccountService, embedded: boolean, logger: Logger) {
  if (config.rootEmail !== undefined && config.rootPassword !== undefined) {
    if (await accounts.createRoot(config.rootEmail, config.rootPassword)) logger.info({ email: config.rootEmail }, 'root account created');
    return undefined;
  }
  if (!embedded || (await accounts.anyRoot())) return undefined;
  // A strong random password that also meets the spec's character-class rules.
  const password = `${randomSecret(18)}aA1!`;
  await accounts.createRoot(GENERATED_ROOT_EMAIL, password);
  return { email: GENERATED_ROOT_EMAIL, password };
}

// Revocations and deleted databases, from any process. A message published while the subscriber was
// reconnecting is lost, so a reconnect reloads the revocations and forgets every held catalogue.
async function watchBroadcasts(subscriber: Redis, tokens: TokenService, catalogues: Catalogues): Promise<void> {
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === keys.revokedChannel()) tokens.markRevoked(message);
    else if (channel === keys.droppedDatabasesChannel()) catalogues.drop(message);
  });
  await subscriber.subscribe(keys.revokedChannel(), keys.droppedDatabasesChannel());
  await tokens.loadRevoked();
  subscriber.on('ready', () => {
    catalogues.dropAll();
    tokens.loadRevoked().catch(() => undefined);
  });
}
