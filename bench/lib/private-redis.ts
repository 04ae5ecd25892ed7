// A private redis-server for one measurement (withPrivateRedis) and what Redis reports of it: script time, memory.
//
// The server runs from the project's redis.conf and is stopped and its directory removed after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../src/store/redis-server.js';

export async function withPrivateRedis<T>(name: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `recd-${name}-`));
  const server = await startRedisServer(dir);
  const redis = new Redis({ port: server.port });
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// µs spent in scripts (EVALSHA) since the start or the last CONFIG RESETSTAT.
export async function scriptMicros(redis: Redis): Promise<number> {
  return Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);
}

// Bytes Redis holds (INFO memory used_memory).
export async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
}
