// Typed configuration from environment variables, checked once at boot.
import { parseNodes, parseRedisTarget } from './redis-target.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// The models a training's parameter search may choose to serve users' lists (engine/training/search.ts).
// blend: the best of EASE and item-KNN with the best ALS's scores added.
export const SEARCH_CANDIDATES = ['als', 'ease', 'item-knn', 'popularity', 'blend'] as const;
export type SearchCandidate = (typeof SEARCH_CANDIDATES)[number];

export interface Config {
  port: number;
  host: string;
  workers: number;
  shutdownSeconds: number;
  redisUrl: string | undefined;
  redisClusterNodes: string | undefined; // folded into redisUrl by loadConfig
  dataDir: string;
  rootEmail: string | undefined;
  rootPassword: string | undefined;
  jwtSecret: string | undefined;
  jwtTtlSeconds: number;
  refreshTtlSeconds: number;
  resetCodeTtlSeconds: number;
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  maxPublicBodyBytes: number;
  maxBrowserBodyBytes: number;
  maxUrlBytes: number;
  redisCommandTimeoutMs: number;
  redisStartTimeoutMs: number;
  idempotencyTtlSeconds: number;
  rateLimitPerSecond: number;
  quotaItems: number;
  quotaUsers: number;
  quotaRatings: number;
  quotaInteractions: number;
  quotaProperties: number;
  quotaTrainingSeconds: number;
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  loginWindowSeconds: number;
  trustProxyHops: number;
  corsOrigins: readonly string[] | undefined;
  accessLog: number;
  callCounts: number;
  metricsPort: number | undefined;
  metricsHost: string;
  metricsToken: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  trainingThreads: number;
  trainingNice: number;
  trainingRuns: number;
  trainingQuietSeconds: number;
  trainingQuietMaxSeconds: number;
  trainingPollMs: number;
  trainingRetrySeconds: number;
  trainingMaxRetries: number;
  trainingLockTtlMs: number;
  trainingSeed: number;
  retrainIntervalSeconds: number;
  alsFactors: number;
  alsIterations: number;
  alsRegularization: number;
  alsAlpha: number;
  alsUnobserved: number;
  alsRegExponent: number;
  alsCgSteps: number;
  searchSeconds: number;
  searchTrials: number;
  searchIterations: number;
  searchMaxRatings: number;
  easeMaxItems: number;
  searchCandidates: readonly SearchCandidate[];
  searchIntervalDays: number;
  listLength: number;
  userListsSeconds: number;
  userListCache: number;
  itemIndexMinItems: number;
  popularityHalfLifeDays: number;
  scoringThreads: number;
  scoringInlineWork: number;
  turnBudgetUs: number;
}

type Env = Record<string, string | undefined>;

interface Row<K extends keyof Config> {
  key: K;
  env: string;
  parse: (raw: string, env: string) => Config[K];
  fallback: Config[K];
  doc: string;
}

function int(min: number, max: number) {
  return (raw: string, env: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${env} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
}
function float(min: number, max: number) {
  return (raw: string, env: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
      throw new ConfigError(`${env} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return n;
  };
}
const text = (raw: string, env: string): string => {
  if (raw.trim() === '') throw new ConfigError(`${env} must not be empty`);
  return raw;
};
function oneOf(values: string[]) {
  return (raw: string, env: string): string => {
    if (!values.includes(raw)) throw new ConfigError(`${env} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return raw;
  };
}
function someOf<T extends string>(values: readonly T[]) {
  return (raw: string, env: string): T[] => {
    const picked = raw.split(',').map((x) => x.trim());
    const wrong = picked.filter((x) => !(values as readonly string[]).includes(x));
    if (picked.length === 0 || wrong.length > 0)
      throw new ConfigError(`${env} must be a comma-separated list of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return [...new Set(picked)] as T[];
  };
}
const url = (raw: string, env: string): string => {
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
const redisUrl = checkedBy(parseRedisTarget);
const clusterNodes = checkedBy(parseNodes);

// Exact origins (scheme://host[:port], as browsers send them in Origin) or `*`.
const origins = (raw: string, env: string): string[] => {
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

const MiB = 1024 * 1024;
const DAY = 86400;

// The README's configuration table is this list; keep them together.
export const CONFIG_TABLE = [
  { key: 'port', env: 'PORT', parse: int(0, 65535), fallback: 8080, doc: 'HTTP port (0 picks a free one)' },
  { key: 'host', env: 'HOST', parse: text, fallback: '127.0.0.1', doc: 'interface to listen on' },
  {
    key: 'workers',
    env: 'RECD_WORKERS',
    parse: int(0, 256),
    fallback: 0,
    doc: 'serving processes sharing the port and Redis (`recd serve --workers N` sets it too; 0: one per core; 1: one process, no supervisor)',
  },
  {
    key: 'shutdownSeconds',
    env: 'RECD_SHUTDOWN_SECONDS',
    parse: int(1, 3600),
    fallback: 30,
    doc: 'how long a stop (SIGTERM, SIGINT) may take: requests in flight finish, a training run is recorded interrupted and queued again; what still waits on Redis after this is abandoned and recd exits with code 1 (a supervisor allows its workers 5 s more)',
  },
  {
    key: 'redisUrl',
    env: 'REDIS_URL',
    parse: redisUrl,
    fallback: undefined,
    doc: 'Redis to use (redis+cluster://host:port[,host:port…] for a Redis Cluster, redis+sentinel://host:port[,host:port…]/<primary name> for a primary its Sentinels watch); unset starts the embedded redis-server with ./redis.conf',
  },
  {
    key: 'redisClusterNodes',
    env: 'REDIS_CLUSTER_NODES',
    parse: clusterNodes,
    fallback: undefined,
    doc: 'host:port[,host:port…] of Redis Cluster nodes, instead of REDIS_URL (the same as REDIS_URL=redis+cluster://…)',
  },
  { key: 'dataDir', env: 'RECD_DATA_DIR', parse: text, fallback: './data', doc: 'where the embedded Redis keeps its files (under redis/)' },
  { key: 'rootEmail', env: 'RECD_ROOT_EMAIL', parse: text, fallback: undefined, doc: 'root account created at start-up when absent' },
  {
    key: 'rootPassword',
    env: 'RECD_ROOT_PASSWORD',
    parse: text,
    fallback: undefined,
    doc: 'its password (spec rules for individual passwords)',
  },
  {
    key: 'jwtSecret',
    env: 'RECD_JWT_SECRET',
    parse: text,
    fallback: undefined,
    doc: 'HS256 secret; unset: generated once and kept in Redis',
  },
  { key: 'jwtTtlSeconds', env: 'RECD_JWT_TTL_SECONDS', parse: int(1, 30 * DAY), fallback: 3600, doc: 'access token lifetime' },
  {
    key: 'refreshTtlSeconds',
    env: 'RECD_REFRESH_TTL_SECONDS',
    parse: int(1, 365 * DAY),
    fallback: 60 * DAY,
    doc: 'refresh token lifetime',
  },
  {
    key: 'resetCodeTtlSeconds',
    env: 'RECD_RESET_CODE_TTL_SECONDS',
    parse: int(1, 30 * DAY),
    fallback: DAY,
    doc: 'password reset / set-password code lifetime',
  },
  {
    key: 'maxBodyBytes',
    env: 'RECD_MAX_BODY_BYTES',
    parse: int(1024, 2048 * MiB),
    fallback: 64 * MiB,
    doc: 'largest request body accepted, as sent',
  },
  {
    key: 'maxDecompressedBytes',
    env: 'RECD_MAX_DECOMPRESSED_BYTES',
    parse: int(1024, 4096 * MiB),
    fallback: 512 * MiB,
    doc: 'largest request body after decompression',
  },
  {
    key: 'maxPublicBodyBytes',
    env: 'RECD_MAX_PUBLIC_BODY_BYTES',
    parse: int(1024, 64 * MiB),
    fallback: 64 * 1024,
    doc: 'largest request body of the endpoints that need no token (logins, password reset), as sent and after decompression',
  },
  {
    key: 'maxBrowserBodyBytes',
    env: 'RECD_MAX_BROWSER_BODY_BYTES',
    parse: int(1024, 2048 * MiB),
    fallback: MiB,
    doc: 'largest request body of frontend and demo_viewer tokens (tokens that live in browsers), as sent and after decompression',
  },
  {
    key: 'maxUrlBytes',
    env: 'RECD_MAX_URL_BYTES',
    parse: int(1024, 100_000),
    fallback: 16 * 1024,
    doc: 'longest path and query string; longer ones get 414 (uWebSockets.js refuses request heads over about 125 KiB itself)',
  },
  {
    key: 'redisCommandTimeoutMs',
    env: 'RECD_REDIS_TIMEOUT_MS',
    parse: int(100, 600000),
    fallback: 10000,
    doc: 'a Redis command slower than this fails the request with 503',
  },
  {
    key: 'redisStartTimeoutMs',
    env: 'RECD_REDIS_START_TIMEOUT_MS',
    parse: int(100, 3_600_000),
    fallback: 10_000,
    doc: 'how long start-up waits for Redis to answer (one of your own may still be loading its data)',
  },
  {
    key: 'idempotencyTtlSeconds',
    env: 'RECD_IDEMPOTENCY_TTL_SECONDS',
    parse: int(1, 30 * DAY),
    fallback: 3600,
    doc: "how long an interaction write's `Idempotency-Key` is remembered: a retry with the same key within this time is not applied again",
  },
  {
    key: 'callCounts',
    env: 'RECD_CALL_COUNTS',
    parse: int(0, 1),
    fallback: 1,
    doc: 'count requests for call-counts/historical/ (0: off, for measuring what counting costs)',
  },
  {
    key: 'metricsPort',
    env: 'RECD_METRICS_PORT',
    parse: int(0, 65535),
    fallback: undefined,
    doc: 'port of a separate listener serving `GET /metrics` (Prometheus text); unset: no metrics at all. With `--workers N`, worker n listens on this port + n − 1 (0: each picks a free one)',
  },
  { key: 'metricsHost', env: 'RECD_METRICS_HOST', parse: text, fallback: '127.0.0.1', doc: 'interface of the metrics listener' },
  {
    key: 'metricsToken',
    env: 'RECD_METRICS_TOKEN',
    parse: text,
    fallback: undefined,
    doc: 'when set, `GET /metrics` needs `Authorization: Bearer <this>` (401 otherwise)',
  },
  {
    key: 'rateLimitPerSecond',
    env: 'RECD_RATE_LIMIT_PER_SECOND',
    parse: int(0, 1e9),
    fallback: 0,
    doc: 'requests per second per organisation, across all processes (0: no limit)',
  },
  {
    key: 'quotaItems',
    env: 'RECD_QUOTA_ITEMS',
    parse: int(1, 4_000_000_000),
    fallback: 10_000_000,
    doc: 'items one database may know (with properties, or named by feedback); a write that would add more gets 403 `QUOTA_EXCEEDED`',
  },
  {
    key: 'quotaUsers',
    env: 'RECD_QUOTA_USERS',
    parse: int(1, 4_000_000_000),
    fallback: 50_000_000,
    doc: 'users one database may know (with properties, or named by feedback)',
  },
  {
    key: 'quotaRatings',
    env: 'RECD_QUOTA_RATINGS',
    parse: int(1, 1e12),
    fallback: 200_000_000,
    doc: 'ratings (user and item pairs, explicit or inferred from interactions) one database may hold',
  },
  {
    key: 'quotaInteractions',
    env: 'RECD_QUOTA_INTERACTIONS',
    parse: int(1, 1e12),
    fallback: 200_000_000,
    doc: 'interactions (of users and of sessions) one database may hold',
  },
  {
    key: 'quotaProperties',
    env: 'RECD_QUOTA_PROPERTIES',
    parse: int(1, 100_000),
    fallback: 1_000,
    doc: 'item property definitions one database may have, and as many user property definitions',
  },
  {
    key: 'quotaTrainingSeconds',
    env: 'RECD_QUOTA_TRAINING_SECONDS',
    parse: int(1, 7 * DAY),
    fallback: 3_600,
    doc: 'longest training run of one database: a run still going then is stopped and recorded FAILED, so one database cannot hold the training for the others',
  },
  {
    key: 'loginFailuresPerAccount',
    env: 'RECD_LOGIN_FAILURES_PER_ACCOUNT',
    parse: int(0, 1e6),
    fallback: 10,
    doc: 'failed logins per login name (e-mail or service name) in one window, across all processes; further attempts, right password or not, get 429 until the window ends (0: no limit)',
  },
  {
    key: 'loginFailuresPerAddress',
    env: 'RECD_LOGIN_FAILURES_PER_ADDRESS',
    parse: int(0, 1e6),
    fallback: 100,
    doc: 'failed logins per client address in one window, whatever the names tried (0: no limit)',
  },
  {
    key: 'loginWindowSeconds',
    env: 'RECD_LOGIN_WINDOW_SECONDS',
    parse: int(1, DAY),
    fallback: 900,
    doc: 'length of a login-throttling window, counted from its first failure: the longest a throttled name or address waits',
  },
  {
    key: 'trustProxyHops',
    env: 'RECD_TRUST_PROXY_HOPS',
    parse: int(0, 16),
    fallback: 0,
    doc: 'reverse proxies in front of recd whose X-Forwarded-For entries are believed for the client address (0: the socket address; the header is ignored)',
  },
  {
    key: 'corsOrigins',
    env: 'RECD_CORS_ORIGINS',
    parse: origins,
    fallback: undefined,
    doc: 'origins whose browser pages may call the API (CORS), comma-separated exact origins such as `https://shop.example.com`, or `*` for any; unset: no CORS headers (browsers refuse cross-origin calls)',
  },
  {
    key: 'accessLog',
    env: 'RECD_ACCESS_LOG',
    parse: int(0, 1),
    fallback: 0,
    doc: 'one log line per request (method, path, status, ms, request id, bytes sent) at level info (0: off)',
  },
  {
    key: 'smtpUrl',
    env: 'RECD_SMTP_URL',
    parse: url,
    fallback: undefined,
    doc: 'SMTP server for outgoing mail; unset: mail goes to the Redis outbox and the log',
  },
  { key: 'mailFrom', env: 'RECD_MAIL_FROM', parse: text, fallback: 'recd <noreply@localhost>', doc: 'From: of outgoing mail' },
  {
    key: 'trainingThreads',
    env: 'RECD_TRAINING_THREADS',
    parse: int(0, 256),
    fallback: 0,
    doc: 'worker threads of the training pool (0: one per core)',
  },
  {
    key: 'trainingNice',
    env: 'RECD_TRAINING_NICE',
    parse: int(0, 19),
    fallback: 19,
    doc: "CPU priority (nice value) of the training pool's threads on Linux, so training takes the cores only when requests leave them (0: the same as request handling)",
  },
  {
    key: 'trainingRuns',
    env: 'RECD_TRAINING_RUNS',
    parse: int(1, 64),
    fallback: 4,
    doc: "training runs of different databases one process makes side by side, sharing the training threads in turns, so a small database's model does not wait for a large one's run (each run holds its data in memory)",
  },
  {
    key: 'trainingQuietSeconds',
    env: 'RECD_TRAINING_QUIET_SECONDS',
    parse: int(0, 3600),
    fallback: 5,
    doc: 'a retrain queued automatically (rating thresholds, the weekly retrain) waits until the database has had no feedback written for this long, so an upload is trained on once it is whole (0: no wait; a retrain asked for with POST tasks/ml_model_retrain/ never waits)',
  },
  {
    key: 'trainingQuietMaxSeconds',
    env: 'RECD_TRAINING_QUIET_MAX_SECONDS',
    parse: int(1, DAY),
    fallback: 300,
    doc: 'the longest an automatic retrain waits for writes to settle, from when it was queued',
  },
  {
    key: 'trainingPollMs',
    env: 'RECD_TRAINING_POLL_MS',
    parse: int(50, 3_600_000),
    fallback: 1000,
    doc: 'how often each process looks for due training tasks',
  },
  {
    key: 'trainingRetrySeconds',
    env: 'RECD_TRAINING_RETRY_SECONDS',
    parse: int(1, DAY),
    fallback: 60,
    doc: 'delay before retrying a failed task, doubled after each further failure',
  },
  {
    key: 'trainingMaxRetries',
    env: 'RECD_TRAINING_MAX_RETRIES',
    parse: int(0, 100),
    fallback: 5,
    doc: 'retries of a failed task; after the last one fails, failures are not retried until a run succeeds',
  },
  {
    key: 'trainingLockTtlMs',
    env: 'RECD_TRAINING_LOCK_TTL_MS',
    parse: int(1000, 3_600_000),
    fallback: 30_000,
    doc: "a database's trainer lock, renewed every third of it: a trainer that dies blocks the database's training this long at most",
  },
  {
    key: 'trainingSeed',
    env: 'RECD_TRAINING_SEED',
    parse: int(0, 2 ** 32 - 1),
    fallback: 42,
    doc: "seed of the initial factors and of the item index's centroids (same data, same seed: same model)",
  },
  {
    key: 'retrainIntervalSeconds',
    env: 'RECD_RETRAIN_INTERVAL_SECONDS',
    parse: int(1, 365 * DAY),
    fallback: 7 * DAY,
    doc: 'feedback no model has seen for this long triggers a retrain',
  },
  {
    key: 'alsFactors',
    env: 'RECD_ALS_FACTORS',
    parse: int(1, 1024),
    fallback: 32,
    doc: "ALS factors of a database's first search trial, and of every training when searches are off (RECD_SEARCH_SECONDS=0)",
  },
  { key: 'alsIterations', env: 'RECD_ALS_ITERATIONS', parse: int(1, 1000), fallback: 15, doc: "ALS iterations of a training's fit" },
  {
    key: 'alsRegularization',
    env: 'RECD_ALS_REGULARIZATION',
    parse: float(0, 1e9),
    fallback: 20,
    doc: 'ALS L2 regularization (same role as factors)',
  },
  {
    key: 'alsAlpha',
    env: 'RECD_ALS_ALPHA',
    parse: float(0, 1e6),
    fallback: 0.25,
    doc: 'ALS confidence per rating point (confidence unobserved + alpha · rating)',
  },
  {
    key: 'alsUnobserved',
    env: 'RECD_ALS_UNOBSERVED',
    parse: float(1e-6, 1e6),
    fallback: 1,
    doc: 'ALS weight of every unobserved (user, item) pair (observed ones weigh it + alpha · rating)',
  },
  {
    key: 'alsRegExponent',
    env: 'RECD_ALS_REG_EXPONENT',
    parse: float(0, 2),
    fallback: 0,
    doc: "ALS frequency-scaled regularization: a row's λ is regularization · (its ratings + unobserved · rows of the other side)^this (0: plain λ)",
  },
  { key: 'alsCgSteps', env: 'RECD_ALS_CG_STEPS', parse: int(1, 100), fallback: 3, doc: 'conjugate-gradient steps per row and half-step' },
  {
    key: 'searchSeconds',
    env: 'RECD_SEARCH_SECONDS',
    parse: int(0, 86_400),
    fallback: 45,
    doc: "the longest a training's parameter search takes (trials on a validation split; smaller data get less: 12 s and 15 s a million ratings the trials train on; 0: no search, the ALS settings above are used)",
  },
  {
    key: 'searchTrials',
    env: 'RECD_SEARCH_TRIALS',
    parse: int(1, 1000),
    fallback: 24,
    doc: 'trials of a parameter search at most (the first is the current parameters)',
  },
  {
    key: 'searchIterations',
    env: 'RECD_SEARCH_ITERATIONS',
    parse: int(1, 1000),
    fallback: 10,
    doc: 'ALS iterations of each search trial (the chosen parameters are then fitted with RECD_ALS_ITERATIONS)',
  },
  {
    key: 'searchMaxRatings',
    env: 'RECD_SEARCH_MAX_RATINGS',
    parse: int(1000, 2 ** 31),
    fallback: 2_000_000,
    doc: 'search trials train on a seeded sample of users holding at most this many ratings',
  },
  {
    key: 'easeMaxItems',
    env: 'RECD_EASE_MAX_ITEMS',
    parse: int(0, 20_000),
    fallback: 4000,
    doc: 'EASE, a candidate of the search, covers at most this many of the most rated items (fewer when its share of the search time affords fewer; 0: no EASE)',
  },
  {
    key: 'searchCandidates',
    env: 'RECD_SEARCH_CANDIDATES',
    parse: someOf(SEARCH_CANDIDATES),
    fallback: SEARCH_CANDIDATES,
    doc: "models the search may choose to serve users' lists, comma-separated: `als`, `ease`, `item-knn`, `popularity`, `blend` (the best of EASE and item-KNN with ALS's scores added; ALS is fitted for the factors in any case)",
  },
  {
    key: 'searchIntervalDays',
    env: 'RECD_SEARCH_INTERVAL_DAYS',
    parse: int(0, 3650),
    fallback: 7,
    doc: 'a database is searched again when its last search is this old or its ratings have doubled since; retrains in between keep the chosen parameters',
  },
  {
    key: 'listLength',
    env: 'RECD_LIST_LENGTH',
    parse: int(0, 4096),
    fallback: 128,
    doc: "items in each item's and user's list precomputed at training (0: none): recommendations are served from them while they last",
  },
  {
    key: 'userListsSeconds',
    env: 'RECD_USER_LISTS_SECONDS',
    parse: int(0, 86_400),
    fallback: 600,
    doc: "a training's time for users' lists, most recently active users first (the others' lists are made on their first request; a retrain requested meanwhile ends them early), and ml_new_items' time for the new items' lists",
  },
  {
    key: 'userListCache',
    env: 'RECD_USER_LIST_CACHE',
    parse: int(0, 2 ** 31),
    fallback: 250_000,
    doc: "users' lists made on their first request (the training had no time for them) each serving process holds, the least recently used evicted (0: none held, made on every request): 250,000 lists of 128 items take about 256 MB (about 1 KB each with their keys)",
  },
  {
    key: 'itemIndexMinItems',
    env: 'RECD_ITEM_INDEX_MIN_ITEMS',
    parse: int(1, 2 ** 31),
    fallback: 100_000,
    doc: 'models of catalogues of at least this many items carry an item index: item-to-items scores the nearest lists of items instead of every item',
  },
  {
    key: 'popularityHalfLifeDays',
    env: 'RECD_POPULARITY_HALF_LIFE_DAYS',
    parse: int(1, 3650),
    fallback: 30,
    doc: "half-life of each item's time-decayed rating count in a model (its popularity)",
  },
  {
    key: 'scoringThreads',
    env: 'RECD_SCORING_THREADS',
    parse: int(0, 256),
    fallback: 0,
    doc: 'worker threads of the scoring pool, for rankings too large for the event loop (0: one per core)',
  },
  {
    key: 'scoringInlineWork',
    env: 'RECD_SCORING_INLINE_WORK',
    parse: int(0, 2 ** 31),
    fallback: 1_000_000,
    doc: 'rankings of up to this many multiply-adds (items × factors) run on the event loop (about 0.3 ms with the SIMD kernels), larger ones in the scoring pool',
  },
  {
    key: 'turnBudgetUs',
    env: 'RECD_TURN_BUDGET_US',
    parse: int(0, 1_000_000),
    fallback: 300,
    doc: "microseconds of one event-loop turn that anonymous sessions' recommendation requests may take; past them the rest wait for the next turns, first come first served, so timers and other requests are served in between; a request that waited 8 ms runs on the next turn whatever the budget (0: one session a turn)",
  },
  {
    key: 'logLevel',
    env: 'LOG_LEVEL',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    fallback: 'info',
    doc: 'pino log level',
  },
] as const satisfies readonly Row<keyof Config>[];

export function loadConfig(env: Env = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const row of CONFIG_TABLE as readonly Row<keyof Config>[]) {
    const raw = env[row.env];
    out[row.key] = raw === undefined || raw === '' ? row.fallback : row.parse(raw, row.env);
  }
  const config = out as unknown as Config;
  if ((config.rootEmail === undefined) !== (config.rootPassword === undefined)) {
    throw new ConfigError('RECD_ROOT_EMAIL and RECD_ROOT_PASSWORD must be set together');
  }
  // One place names the Redis from here on: the supervisor hands redisUrl to its workers as REDIS_URL
  // (with REDIS_CLUSTER_NODES still in their environment: the same cluster, accepted).
  if (config.redisClusterNodes !== undefined) {
    const url = `redis+cluster://${config.redisClusterNodes}`;
    if (config.redisUrl !== undefined && config.redisUrl !== url) throw new ConfigError('set REDIS_URL or REDIS_CLUSTER_NODES, not both');
    config.redisUrl = url;
  }
  return config;
}
