// Composition root: Redis, stores, engine, services, routes, HTTP server, each wired by a function
// of src/wiring/; and their orderly shutdown.
import { pino, type Logger } from 'pino';
import type { Config } from './config/env.js';
import type { Dispatcher } from './http/dispatch.js';
import type { AccountService } from './services/accounts/accounts.js';
import { randomSecret } from './services/accounts/secrets.js';
import { PolicyWatch } from './store/redis-memory.js';
import { buildEngine } from './wiring/engine.js';
import { startHttp } from './wiring/http.js';
import { startMetrics } from './wiring/metrics.js';
import { buildAccess, buildServices, startCatalogues, watchBroadcasts } from './wiring/services.js';
import { buildStores, connectStorage } from './wiring/storage.js';
import { quotasOf } from './config/quotas.js';

export interface RunningApp {
  port: number;
  metricsPort: number | undefined; // the metrics listener's, when RECD_METRICS_PORT is set
  redisUrl: string;
  // A root account generated at this start: on a Redis without one and no RECD_ROOT_* set.
  generatedRoot?: GeneratedRoot;
  // The request pipeline without sockets (in-process benches of its own cost).
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

export interface GeneratedRoot {
  email: string;
  password: string;
}

export const GENERATED_ROOT_EMAIL = 'root@localhost';
// The generated root password's random part: 144 bits, 24 base64url characters.
const GENERATED_ROOT_PASSWORD_BYTES = 18;

// worker: this process's number under a supervisor (its metrics port and label).
export async function startApp(config: Config, logger: Logger = pino({ level: config.logLevel }), worker?: number): Promise<RunningApp> {
  const storage = await connectStorage(config, logger);
  // What has started, stopped last-started first: queued interaction writes drain, training stops,
  // the catalogues stop, then Redis disconnects and the embedded redis-server stops. A start that
  // fails half-way stops what it had started.
  const stops: (() => Promise<void>)[] = [storage.close];
  const stopAll = async () => {
    for (const stop of [...stops].reverse()) await stop();
  };
  try {
    const stores = buildStores(storage.redis, quotasOf(config));
    const access = await buildAccess(config, stores, logger);
    const catalogues = startCatalogues(storage.redis, stores, logger);
    stops.push(() => catalogues.stop());
    const engine = buildEngine(config, stores, async (db) => (await catalogues.get(db).view('item')).features(), logger);
    stops.push(engine.stop);
    const { services, drainWrites, ingested, outcomeCounts } = buildServices(config, stores, catalogues, engine, access, logger);
    stops.push(drainWrites);

    await watchBroadcasts(storage.subscriber, access.tokens, catalogues, engine.registry, services.tables);
    // A secret stored meanwhile by another process (Redis lost its data) is taken before serving.
    await access.tokens.syncSecret();
    access.tokens.startSync();
    stops.push(async () => access.tokens.stopSync());
    const policy = new PolicyWatch(storage.redis, logger);
    policy.start();
    stops.push(async () => policy.stop());
    const metrics = startMetrics(config, engine, storage.redis, ingested, services.recommend.fresh.counts, outcomeCounts, worker); // before the scheduler starts: it counts runs
    engine.scheduler.start();

    // A worker leaves the root account to its supervisor.
    if (worker === undefined) await configuredRoot(config, access.accounts, logger);
    const http = await startHttp(config, storage.redis, policy, stores, services, access.tokens, logger, metrics, worker);
    let generatedRoot: GeneratedRoot | undefined;
    try {
      if (worker === undefined) generatedRoot = await generateRoot(config, access.accounts);
    } catch (err) {
      await http.close();
      throw err;
    }
    return {
      port: http.port,
      metricsPort: http.metricsPort,
      redisUrl: storage.redisUrl,
      generatedRoot,
      dispatcher: http.dispatcher,
      async close() {
        await http.close();
        access.mailer.close();
        await stopAll();
        logger.info('recd stopped');
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

export interface SharedStart {
  redisUrl: string;
  // A generated root account (when RECD_ROOT_* names none and none exists), for once the workers listen.
  generateRoot(): Promise<GeneratedRoot | undefined>;
  // Disconnects, then stops the embedded redis-server (when it started one).
  close(): Promise<void>;
}

// The part of a start that several serving processes share, done once by their supervisor
// (src/supervisor.ts): Redis (the embedded redis-server when REDIS_URL is unset) and the root
// account. Its workers then run startApp on that Redis, without RECD_ROOT_*.
export async function startShared(config: Config, logger: Logger): Promise<SharedStart> {
  const storage = await connectStorage(config, logger);
  try {
    const access = await buildAccess(config, buildStores(storage.redis, quotasOf(config)), logger);
    access.mailer.close();
    await configuredRoot(config, access.accounts, logger);
    return { redisUrl: storage.redisUrl, generateRoot: () => generateRoot(config, access.accounts), close: storage.close };
  } catch (err) {
    await storage.close();
    throw err;
  }
}

// The accounts of the configured Redis (or the embedded one) without serving: `recd create-root`.
export async function withAccounts<T>(config: Config, logger: Logger, use: (accounts: AccountService) => Promise<T>): Promise<T> {
  const storage = await connectStorage(config, logger);
  try {
    const access = await buildAccess(config, buildStores(storage.redis, quotasOf(config)), logger);
    access.mailer.close();
    return await use(access.accounts);
  } finally {
    await storage.close();
  }
}

// RECD_ROOT_* when set; else, on a Redis with no root account yet (whichever Redis: compose's too),
// a generated one, returned to be shown once.
// The root account RECD_ROOT_* names, before serving: its password is the operator's, so a start that
// fails later loses nothing, and requests find the account from the first one served.
async function configuredRoot(config: Config, accounts: AccountService, logger: Logger): Promise<void> {
  if (config.rootEmail === undefined || config.rootPassword === undefined) return;
  if (await accounts.createRoot(config.rootEmail, config.rootPassword)) logger.info({ email: config.rootEmail }, 'root account created');
}

// A generated root account when RECD_ROOT_* names none and there is none yet, once the port is this
// process's: a generated password shown by a start that then failed to listen would be lost, its
// account kept. It is printed before "recd listening", so nothing waiting for that line misses it.
async function generateRoot(config: Config, accounts: AccountService): Promise<GeneratedRoot | undefined> {
  if (config.rootEmail !== undefined && config.rootPassword !== undefined) return undefined;
  if (await accounts.anyRoot()) return undefined;
  // A strong random password that also meets the spec's character-class rules.
  const password = `${randomSecret(GENERATED_ROOT_PASSWORD_BYTES)}aA1!`;
  // Of processes starting together on one Redis, the one whose account is stored shows it.
  if (!(await accounts.createRoot(GENERATED_ROOT_EMAIL, password))) return undefined;
  return { email: GENERATED_ROOT_EMAIL, password };
}
