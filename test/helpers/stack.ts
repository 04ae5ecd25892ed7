// Integration-test stack: a private redis-server from redis.conf on a free port in a temp dir,
// and the real recd server on a free port, talking HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../src/config/env.js';
import { startApp, type RunningApp } from '../../src/main.js';
import { connectRedis } from '../../src/store/redis.js';
import { startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { Api } from './api.js';

export const ROOT_EMAIL = 'root@test.local';
export const ROOT_PASSWORD = 'Root-password-1';
export const PASSWORD = 'Valid-password-1';

export interface Stack {
  api: Api;
  app: RunningApp;
  redisServer: EmbeddedRedis;
  redis: Redis; // for looking at what the server stored
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<{ server: EmbeddedRedis; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-test-'));
  return { server: await startRedisServer(join(dir, 'redis')), dir };
}

// A private redis-server and a client the way recd connects (for tests of one store), both gone
// when `t` ends.
export async function storeRedis(t: { teardown(fn: () => unknown): void }, name: string): Promise<Redis> {
  const { server, dir } = await startRedis();
  const redis = connectRedis(server.url, { commandTimeoutMs: 10_000, name });
  t.teardown(async () => {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return redis;
}

// logger: for tests that read what recd logs (default: pino at LOG_LEVEL, silent).
export async function startStack(env: Record<string, string> = {}, shared?: EmbeddedRedis, logger?: Logger): Promise<Stack> {
  const own = shared ? undefined : await startRedis();
  const redisServer = shared ?? own!.server;
  const fullEnv = {
    PORT: '0',
    REDIS_URL: redisServer.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    LOG_LEVEL: 'silent',
    ...env,
  };
  const app = await startApp(loadConfig(fullEnv), logger ?? pino({ level: fullEnv.LOG_LEVEL }));
  const redis = new Redis(redisServer.url);
  return {
    api: new Api(`http://127.0.0.1:${app.port}/v1`),
    app,
    redisServer,
    redis,
    env: fullEnv,
    async close() {
      await app.close();
      redis.disconnect();
      if (own) {
        await own.server.stop();
        rmSync(own.dir, { recursive: true, force: true });
      }
    },
  };
}

// Two recd processes sharing one private redis-server (what several deployed processes look like).
export async function startPair(env: Record<string, string> = {}): Promise<{ a: Stack; b: Stack; close(): Promise<void> }> {
  const { server, dir } = await startRedis();
  const a = await startStack(env, server);
  const b = await startStack(env, server);
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
