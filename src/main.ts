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
import { CatalogueViews } from './services/catalogue-view.js';
import { EntityService } from './services/entities.js';
import { LoginService } from './services/login.js';
import { PropertyService } from './services/properties.js';
import { RateLimiter } from './services/rate-limiter.js';
import { outboxMailer, smtpMailer, type Mailer } from './services/mailer.js';
import { randomSecret } from './services/secrets.js';
import { TokenService } from './services/tokens.js';
import { AccountsStore } from './store/accounts-store.js';
import { DatabasesStore } from './store/databases-store.js';
import { keys } from './store/keys.js';
import { EntitiesStore } from './store/entities-store.js';
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
  const subscriber = connectRedis(redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs, name: 'recd-sub' });
  const closeRedis = async () => {
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
    const databases = new DatabaseService(new DatabasesStore(redis), tasksStore);
    const login = new LoginService(accounts, databases, tokens);
    const propertiesStore = new PropertiesStore(redis);
    const properties = new PropertyService(propertiesStore, databases);
    const entitiesStore = new EntitiesStore(redis);
    const entities = new EntityService(entitiesStore, propertiesStore, tasksStore, new CatalogueViews(entitiesStore), logger);

    const generatedRoot = await bootstrapRoot(config, accounts, embedded !== undefined, logger);
    const auth = new BearerAuth(tokens.verify, tokens.isRevoked);
    await watchRevocations(subscriber, tokens);

    const limiter = config.rateLimitPerSecond > 0 ? new RateLimiter(new RateStore(redis), config.rateLimitPerSecond, 50, (err) => logger.warn({ err }, 'rate counters not flushed')) : undefined;
    const router = new Router(allRoutes({ accounts, databases, login, properties, entities }));
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

async function watchRevocations(subscriber: Redis, tokens: TokenService): Promise<void> {
  subscriber.on('message', (_channel: string, subject: string) => tokens.markRevoked(subject));
  await subscriber.subscribe(keys.revokedChannel());
  await tokens.loadRevoked();
}
