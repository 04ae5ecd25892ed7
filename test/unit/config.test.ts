// Configuration from the environment: defaults, and boot errors naming the bad key.
import t from 'tap';
import { loadConfig } from '../../src/config/env.js';

t.test('defaults', async (t) => {
  const c = loadConfig({});
  t.equal(c.port, 8080);
  t.equal(c.host, '127.0.0.1');
  t.equal(c.redisUrl, undefined);
  t.equal(c.jwtTtlSeconds, 3600);
  t.equal(c.refreshTtlSeconds, 60 * 86400);
  t.equal(c.workers, 0, 'one worker per core');
  t.equal(loadConfig({ RECD_WORKERS: '3' }).workers, 3);
});

t.test('tuning values that were constants of the composition root keep their values', async (t) => {
  const c = loadConfig({});
  t.equal(c.redisStartTimeoutMs, 10_000);
  t.equal(c.trainingMaxRetries, 5);
  t.equal(c.trainingLockTtlMs, 30_000);
  t.equal(c.trainingSeed, 42);
  t.equal(c.popularityHalfLifeDays, 30);
  t.equal(c.scoringThreads, 0, 'one per core');
  const set = loadConfig({
    RECD_REDIS_START_TIMEOUT_MS: '60000',
    RECD_TRAINING_MAX_RETRIES: '0',
    RECD_TRAINING_LOCK_TTL_MS: '90000',
    RECD_TRAINING_SEED: '4294967295',
    RECD_POPULARITY_HALF_LIFE_DAYS: '7',
    RECD_SCORING_THREADS: '2',
  });
  t.same(
    [
      set.redisStartTimeoutMs,
      set.trainingMaxRetries,
      set.trainingLockTtlMs,
      set.trainingSeed,
      set.popularityHalfLifeDays,
      set.scoringThreads,
    ],
    [60_000, 0, 90_000, 2 ** 32 - 1, 7, 2],
  );
});

t.test('bad values name the variable', async (t) => {
  for (const [key, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['REDIS_URL', 'not a url'],
    ['RECD_MAX_BODY_BYTES', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['RECD_REDIS_START_TIMEOUT_MS', '0'],
    ['RECD_TRAINING_MAX_RETRIES', '-1'],
    ['RECD_TRAINING_MAX_RETRIES', 'five'],
    ['RECD_TRAINING_LOCK_TTL_MS', '10'],
    ['RECD_TRAINING_SEED', '4294967296'],
    ['RECD_TRAINING_SEED', '4.2'],
    ['RECD_POPULARITY_HALF_LIFE_DAYS', '0'],
    ['RECD_SCORING_THREADS', '1000'],
    ['RECD_WORKERS', '-1'],
    ['RECD_WORKERS', 'all'],
    ['RECD_CORS_ORIGINS', 'app.example.com'],
    ['RECD_CORS_ORIGINS', 'https://app.example.com/'],
    ['RECD_CORS_ORIGINS', 'https://app.example.com/path'],
    ['RECD_CORS_ORIGINS', 'https://a.example,*.example.com'],
    ['RECD_ACCESS_LOG', 'yes'],
  ]) {
    t.throws(() => loadConfig({ [key!]: value }), new RegExp(key!), `${key}=${value}`);
  }
  t.throws(
    () => loadConfig({ RECD_ROOT_EMAIL: 'a@b.c' }),
    { name: 'ConfigError', message: /RECD_ROOT_PASSWORD/ },
    'root e-mail without password',
  );
});

t.test('CORS origins and the access log', async (t) => {
  const dflt = loadConfig({});
  t.equal(dflt.corsOrigins, undefined);
  t.equal(dflt.accessLog, 0);
  const set = loadConfig({
    RECD_CORS_ORIGINS: ' https://app.example.com , http://localhost:3000,https://app.example.com',
    RECD_ACCESS_LOG: '1',
  });
  t.same(set.corsOrigins, ['https://app.example.com', 'http://localhost:3000']);
  t.equal(set.accessLog, 1);
  t.same(loadConfig({ RECD_CORS_ORIGINS: '*' }).corsOrigins, ['*']);
});
