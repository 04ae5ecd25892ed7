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
  return (await redisMemory(redis)).used;
}

// INFO memory's bytes: what Redis holds (used_memory), the data set's part of it, and the process's RSS.
export async function redisMemory(redis: Redis): Promise<{ used: number; dataset: number; rss: number }> {
  const info = await redis.info('memory');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
  return { used: field('used_memory'), dataset: field('used_memory_dataset'), rss: field('used_memory_rss') };
}

// Redis's CPU seconds so far, user and system (INFO cpu).
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const cpu = await redis.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(cpu)?.[1] ?? 0) + Number(/used_cpu_sys:([\d.]+)/.exec(cpu)?.[1] ?? 0);
}
