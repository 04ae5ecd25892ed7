// The configuration's shape: what every setting of the environment table (env.ts) sets.

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
  impressions: number;
  impressionsDays: number;
  impressionsMax: number;
  attributionWindowSeconds: number;
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
