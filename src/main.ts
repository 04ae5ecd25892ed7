// Composition root: Redis, stores, services, routes, HTTP server; and their orderly shutdown.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { jsonCodec } from './codecs/json.js';
import { msgpackCodec } from './codecs/msgpack.js';
import { pickleCodec } from './codecs/pickle.js';
import { CodecRegistry } from './codecs/registry.js';
import type { Config } from './config/env.js';
import { ModelRegistry } from './engine/model/registry.js';
import { TrainingScheduler } from './engine/training/scheduler.js';
import { TrainingPool } from './engine/training/pool.js';
import { ScoringPool } from './engine/scoring/pool.js';
import { BearerAuth } from './http/auth.js';
import { Dispatcher } from './http/dispatch.js';
import { Router } from './http/router.js';
import { HttpServer } from './http/server.js';
import type { Claims } from './contract/claims.js';
import { allRoutes } from './routes/index.js';
import { AccountService } from './services/accounts/accounts.js';
import { DatabaseService } from './services/databases/databases.js';
import { Catalogues } from './services/catalogue/catalogues.js';
import { EntityService } from './services/catalogue/entities.js';
import { RatingService } from './services/feedback/ratings.js';
import { InteractionRuleService } from './services/feedback/interaction-rules.js';
import { InteractionLanes } from './services/feedback/interaction-lanes.js';
import { InteractionService } from './services/feedback/interactions.js';
import { LoginService } from './services/accounts/login.js';
import { ModelService } from './services/databases/model-tasks.js';
import { RecommendService } from './services/reco/recommend.js';
import { ProfileCache } from './services/feedback/profile-cache.js';
import { TableService } from './services/reco/precomputed-tables.js';
import { PropertyService } from './services/catalogue/properties.js';
import { RateLimiter } from './services/usage/rate-limiter.js';
import { CallCounter } from './services/usage/call-recorder.js';
import { CallCountsService } from './services/usage/call-history.js';
import { ScenarioService } from './services/scenarios/scenarios.js';
import { RecoPlanner } from './services/reco/planner.js';
import { outboxMailer, smtpMailer, type Mailer } from './services/accounts/mailer.js';
import { randomSecret } from './services/accounts/secrets.js';
import { TokenService } from './services/accounts/tokens.js';
import { AccountsStore } from './store/accounts-store.js';
import { DatabasesStore } from './store/databases-store.js';
import { keys } from './store/keys.js';
import { ChangeTail } from './store/change-tail.js';
import { EntitiesStore } from './store/entities-store.js';
import { RatingsStore } from './store/ratings-store.js';
import { SettingsStore } from './store/settings-store.js';
import { InteractionsStore } from './store/interactions-store.js';
import { ModelsStore } from './store/models-store.js';
import { TrainingStore } from './store/training-store.js';
import { TablesStore } from './store/tables-store.js';
import { OutboxStore } from './store/outbox-store.js';
import { PropertiesStore } from './store/properties-store.js';
import { classifyStorageError, connectRedis, waitForRedis, type Redis } from './store/redis.js';
import { startRedisServer, type EmbeddedRedis } from './store/redis-server.js';
import { CallCountsStore } from './store/call-counts-store.js';
import { ScenariosStore } from './store/scenarios-store.js';
import { RateStore } from './store/rate-store.js';
import { TasksStore } from './store/tasks-store.js';
import { TokensStore } from './store/tokens-store.js';

export interface RunningApp {
  port: number;
  redisUrl: string;
  // A root password generated at this start (embedded default, first start only).
  generatedRoot?: { email: string; password: string };
  // The request pipeline without sockets (in-process benches of its own cost).
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

export const GENERATED_ROOT_EMAIL = 'root@localhost';
// The generated root password's random part: 144 bits, 24 base64url characters.
const GENERATED_ROOT_PASSWORD_BYTES = 18;
// A generated HS256 secret (no RECD_JWT_SECRET): 384 random bits, above the 256 of the hash that
// RFC 7518 §3.2 asks of an HMAC key at least; kept in Redis as base64url text.
const JWT_SECRET_BYTES = 48;
// Request counts go to Redis this often. The history is kept by the minute, so a second shows up
// well within it, bounds what a crash loses, and costs each process one round trip a second.
const CALL_COUNTS_FLUSH_MS = 1000;
// Rate-limit counts go to Redis and totals come back this often: a burst spread over processes
// overshoots the budget by one interval's worth at most (5 % of the one-second window), for 20
// round trips a second per process.
const RATE_LIMIT_FLUSH_MS = 50;
const DAY_SECONDS = 86400;

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
  let stopTraining = async () => undefined as void;
  const closeRedis = async () => {
    await drainWrites(); // queued interaction writes reach Redis before it goes
    await stopTraining();
    await stopCatalogues();
    redis.disconnect();
    subscriber.disconnect();
    await embedded?.stop();
  };
  try {
    await waitForRedis(redis, config.redisStartTimeoutMs);
    const tokensStore = new TokensStore(redis);
    const secret = config.jwtSecret ?? (await tokensStore.jwtSecret(() => randomBytes(JWT_SECRET_BYTES).toString('base64url')));
    const tokens = new TokenService(secret, tokensStore, config.jwtTtlSeconds, config.refreshTtlSeconds);
    const mailer: Mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(new OutboxStore(redis), logger);
    const accountsStore = new AccountsStore(redis);
    const accounts = new AccountService(accountsStore, tokens, mailer, config.resetCodeTtlSeconds);
    const tasksStore = new TasksStore(redis);
    const propertiesStore = new PropertiesStore(redis);
    const entitiesStore = new EntitiesStore(redis);
    const catalogues = new Catalogues(new ChangeTail(redis, logger), entitiesStore, propertiesStore, logger);
    stopCatalogues = () => catalogues.stop();
    const databasesStore = new DatabasesStore(redis);
    const databases = new DatabaseService(databasesStore, catalogues, tasksStore);
    const modelsStore = new ModelsStore(redis);
    const tablesStore = new TablesStore(redis);
    const registry = new ModelRegistry(modelsStore, (db, kind, from, to) => entitiesStore.idsAt(db, kind, from, to), logger);
    const pool = new TrainingPool(config.trainingThreads || availableParallelism());
    const scoring = new ScoringPool(config.scoringThreads || availableParallelism());
    const scheduler = new TrainingScheduler(
      {
        training: new TrainingStore(redis),
        models: modelsStore,
        tasks: tasksStore,
        databases: databasesStore,
        tables: tablesStore,
        registry,
        pool,
        itemFeatures: async (db) => (await catalogues.get(db).view('item')).features(),
        logger,
      },
      {
        pollMs: config.trainingPollMs,
        retrySeconds: config.trainingRetrySeconds,
        maxRetries: config.trainingMaxRetries,
        retrainIntervalSeconds: config.retrainIntervalSeconds,
        lockTtlMs: config.trainingLockTtlMs,
        params: {
          factors: config.alsFactors,
          iterations: config.alsIterations,
          regularization: config.alsRegularization,
          alpha: config.alsAlpha,
          cgSteps: config.alsCgSteps,
          neighbours: config.neighbours,
          indexMinItems: config.itemIndexMinItems,
          popularityHalfLifeSeconds: config.popularityHalfLifeDays * DAY_SECONDS,
          seed: config.trainingSeed,
        },
      },
    );
    stopTraining = async () => {
      await scheduler.stop();
      await pool.close();
      await scoring.close();
    };
    const scenarios = new ScenarioService(new ScenariosStore(redis), catalogues);
    const properties = new PropertyService(propertiesStore, databases, catalogues, (db, name) => scenarios.usesItemProperty(db, name));
    const entities = new EntityService(entitiesStore, scheduler, catalogues, logger);
    const ratingsStore = new RatingsStore(redis);
    const interactionsStore = new InteractionsStore(redis);
    const profiles = new ProfileCache(config.profileCacheMs);
    const lanes = new InteractionLanes(interactionsStore, scheduler, profiles, logger);
    drainWrites = () => lanes.drained();
    const ratings = new RatingService(ratingsStore, scheduler, profiles);
    const interactionRules = new InteractionRuleService(new SettingsStore(redis), catalogues);
    const interactions = new InteractionService(interactionsStore, ratingsStore, interactionRules, lanes, tasksStore, scheduler, logger);
    const login = new LoginService(accounts, databases, tokens, (db, session, user) => interactions.link(db, session, user, Date.now() / 1000));

    const generatedRoot = await bootstrapRoot(config, accounts, embedded !== undefined, logger);
    const auth = new BearerAuth(tokens.verify, tokens.isRevoked);
    const tables = new TableService(tablesStore, scheduler, registry, entitiesStore);
    await watchBroadcasts(subscriber, tokens, catalogues, registry, tables);
    scheduler.start();

    const callCountsStore = new CallCountsStore(redis);
    const counter = new CallCounter(callCountsStore, CALL_COUNTS_FLUSH_MS, (err) => logger.warn({ err }, 'call counts not flushed'));
    const limiter = config.rateLimitPerSecond > 0 ? new RateLimiter(new RateStore(redis), config.rateLimitPerSecond, RATE_LIMIT_FLUSH_MS, (err) => logger.warn({ err }, 'rate counters not flushed')) : undefined;
    const router = new Router(allRoutes({ accounts, databases, login, properties, entities, ratings, interactions, interactionRules, models: new ModelService(scheduler, modelsStore, registry),
      recommend: new RecommendService(
        registry,
        catalogues,
        entitiesStore,
        ratingsStore,
        interactionRules,
        profiles,
        scoring,
        new RecoPlanner(scenarios, catalogues, ratingsStore, interactionsStore),
        tables,
        config.scoringInlineWork,
      ),
      tables,
      callCounts: new CallCountsService(callCountsStore, accountsStore, databasesStore),
      scenarios,
    }));
    const dispatcher = new Dispatcher({
      router,
      codecs: new CodecRegistry(jsonCodec, [pickleCodec, msgpackCodec]),
      auth,
      logger,
      maxDecompressedBytes: config.maxDecompressedBytes,
      classify: classifyStorageError,
      admit: limiter && ((claims) => limiter.admit(claims.org)),
      ...(config.callCounts === 1 && {
        countRequest: (claims: Claims, group: string) => counter.request(claims, group),
        countReco: (claims: Claims, recoType: string, scenario: string) => counter.reco(claims, recoType, scenario),
      }),
    });
    const http = new HttpServer(dispatcher, { host: config.host, port: config.port, maxBodyBytes: config.maxBodyBytes, logger });
    const port = await http.listen();
    logger.info({ host: config.host, port }, 'recd listening');
    return {
      port,
      redisUrl,
      generatedRoot,
      dispatcher,
      async close() {
        await http.close();
        limiter?.close();
        await counter.close().catch((err) => logger.warn({ err }, 'call counts not flushed'));
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
  const password = `${randomSecret(GENERATED_ROOT_PASSWORD_BYTES)}aA1!`;
  await accounts.createRoot(GENERATED_ROOT_EMAIL, password);
  return { email: GENERATED_ROOT_EMAIL, password };
}

// Revocations and deleted databases, from any process. A message published while the subscriber was
// reconnecting is lost, so a reconnect reloads the revocations and forgets every held catalogue.
async function watchBroadcasts(subscriber: Redis, tokens: TokenService, catalogues: Catalogues, models: ModelRegistry, tables: TableService): Promise<void> {
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === keys.revokedChannel()) tokens.markRevoked(message);
    else if (channel === keys.droppedDatabasesChannel()) {
      catalogues.drop(message);
      models.drop(message);
    } else if (channel === keys.modelsChannel()) {
      const [db, id] = message.split(' ');
      if (db && id) models.announced(db, id);
    } else if (channel === keys.tablesChannel()) {
      const [db, name] = message.split(' ');
      if (db && name) tables.changed(db, name);
    }
  });
  await subscriber.subscribe(keys.revokedChannel(), keys.droppedDatabasesChannel(), keys.modelsChannel(), keys.tablesChannel());
  await tokens.loadRevoked();
  subscriber.on('ready', () => {
    catalogues.dropAll();
    models.dropAll();
    tokens.loadRevoked().catch(() => undefined);
  });
}
