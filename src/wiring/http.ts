// HTTP layer of the composition root: the route table, request counting and rate limiting, the
// dispatcher and the server.
import type { Logger } from 'pino';
import { jsonCodec } from '../codecs/json.js';
import { msgpackCodec } from '../codecs/msgpack.js';
import { pickleCodec } from '../codecs/pickle.js';
import { CodecRegistry } from '../codecs/registry.js';
import type { Config } from '../config/env.js';
import type { Claims } from '../contract/claims.js';
import type { Route } from '../contract/routes.js';
import { BearerAuth } from '../http/auth.js';
import { Cors } from '../http/cors.js';
import { Dispatcher } from '../http/dispatch.js';
import { dashboardPages } from '../http/dashboard.js';
import { apiPageRoutes } from '../http/api-page.js';
import { openApiRoutes } from '../http/openapi.js';
import { Router } from '../http/router.js';
import { HttpServer } from '../http/server.js';
import { allRoutes, type Services } from '../routes/index.js';
import type { TokenService } from '../services/accounts/tokens.js';
import { CallRecorder } from '../services/usage/call-recorder.js';
import { RateLimiter } from '../services/usage/rate-limiter.js';
import { listenMetrics, type MetricsListener } from '../metrics/listener.js';
import type { Metrics } from '../metrics/registry.js';
import { STORAGE_FAULTS, unreadyReason, type Connection } from '../store/redis.js';
import { fullProblem, policyProblem, type PolicyWatch } from '../store/redis-memory.js';
import { StorageFaults } from '../store/storage-faults.js';
import type { Stores } from './storage.js';
import type { RecoType } from '../contract/reco-types.js';

// Request counts go to Redis this often. The history is kept by the minute, so a second shows up
// well within it, bounds what a crash loses, and costs each process one round trip a second.
const CALL_COUNTS_FLUSH_MS = 1000;
// Rate-limit counts go to Redis and totals come back this often: a burst spread over processes
// overshoots the budget by one interval's worth at most (5 % of the one-second window), for 20
// round trips a second per process.
const RATE_LIMIT_FLUSH_MS = 50;
// GET /readyz waits this long for Redis's PING: an orchestrator's probe gets its 503 well within its
// own timeout when Redis is stalled, instead of after the command timeout (RECD_REDIS_TIMEOUT_MS).
export const READY_TIMEOUT_MS = 1000;

// The API description's version: the spec's API is served under /v1.
const API_VERSION = '1';

export interface Serving {
  port: number;
  metricsPort: number | undefined;
  dispatcher: Dispatcher;
  // Closes the server, then stops rate limiting and flushes the last request counts.
  close(): Promise<void>;
}

// Every route served, the API description's own last; also what scripts/client-schema.ts describes.
export function routeTable(services: Services): Route[] {
  const routes = [...allRoutes(services), ...apiPageRoutes()];
  return [...routes, ...openApiRoutes(routes, API_VERSION)];
}

export async function startHttp(
  config: Config,
  redis: Connection,
  policy: PolicyWatch,
  stores: Stores,
  services: Services,
  tokens: TokenService,
  logger: Logger,
  metrics: Metrics | undefined,
  worker: number | undefined,
): Promise<Serving> {
  const faults = new StorageFaults(logger, metrics?.storageFaults(STORAGE_FAULTS));
  // Flushes failed by a storage fault are logged with its burst, not one line each.
  const counter = new CallRecorder(
    stores.callCounts,
    CALL_COUNTS_FLUSH_MS,
    (err) => faults.background(err) || logger.warn({ err }, 'call counts not flushed'),
  );
  const limiter =
    config.rateLimitPerSecond > 0
      ? new RateLimiter(
          stores.rate,
          config.rateLimitPerSecond,
          RATE_LIMIT_FLUSH_MS,
          (err) => faults.background(err) || logger.warn({ err }, 'rate counters not flushed'),
        )
      : undefined;
  const router = new Router(routeTable(services));
  metrics?.routeGroups(new Set(router.routes.map((r) => r.path.split('/')[0]!)));
  const auth = new BearerAuth(tokens.verify, tokens.isRevoked);
  // Tokens verified with a secret since replaced (tokens.ts syncSecret) must not stay accepted.
  tokens.onSecretChange(() => auth.forget());
  const dispatcher = new Dispatcher({
    router,
    codecs: new CodecRegistry(jsonCodec, [pickleCodec, msgpackCodec]),
    auth,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    maxDecompressedBytes: config.maxDecompressedBytes,
    maxPublicBodyBytes: config.maxPublicBodyBytes,
    maxBrowserBodyBytes: config.maxBrowserBodyBytes,
    maxUrlBytes: config.maxUrlBytes,
    classify: faults.classify,
    refuseWrite: () => (policy.unsafe === undefined ? undefined : faults.refuse('evicting')),
    ready: async () => (await unreadyReason(redis, READY_TIMEOUT_MS)) ?? (await memoryUnready(policy)),
    page: dashboardPages(),
    admit: limiter && ((claims) => limiter.admit(claims.org)),
    ...(config.callCounts === 1 && {
      countRequest: (claims: Claims, group: string) => counter.request(claims, group),
      countReco: (claims: Claims, recoType: RecoType, scenario: string) => counter.reco(claims, recoType, scenario),
    }),
    ...(metrics && { observe: (group: string | undefined, status: number, ms: number) => metrics.request(group, status, ms) }),
  });
  const http = new HttpServer(dispatcher, {
    host: config.host,
    port: config.port,
    trustProxyHops: config.trustProxyHops,
    logger,
    cors: new Cors(config.corsOrigins ?? []),
    accessLog: config.accessLog === 1,
    exclusivePort: worker === undefined,
  });
  // The process says it listens (src/cli.ts): `recd listening`, or a worker's line to its supervisor.
  const port = await http.listen();
  let metricsListener: MetricsListener | undefined;
  if (metrics) {
    const metricsPort = config.metricsPort === 0 ? 0 : config.metricsPort! + (worker ?? 1) - 1;
    try {
      metricsListener = await listenMetrics(metrics, config.metricsHost, metricsPort, config.metricsToken);
    } catch (err) {
      await http.close();
      faults.stop();
      limiter?.close();
      await counter.close().catch(() => undefined);
      throw err;
    }
  }
  const close = async () => {
    await http.close();
    await metricsListener?.close();
    faults.stop();
    limiter?.close();
    await counter.close().catch((err) => logger.warn({ err }, 'call counts not flushed'));
  };
  return { port, metricsPort: metricsListener?.port, dispatcher, close };
}

// Why Redis's memory keeps this process from serving: a policy that may evict, or a Redis at its
// maxmemory (it refuses every write). Memory that cannot be read (INFO refused) is no reason.
async function memoryUnready(policy: PolicyWatch): Promise<string | undefined> {
  try {
    const nodes = await policy.read(READY_TIMEOUT_MS);
    return policyProblem(nodes) ?? fullProblem(nodes);
  } catch {
    return policy.unsafe;
  }
}
