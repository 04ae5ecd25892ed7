// Request counters per organisation and one-second window, shared by every process.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';

export class RateStore {
  constructor(private readonly redis: Redis) {}

  // Adds each organisation's count and returns the new totals, in the same order.
  async add(window: number, counts: [org: string, n: number][]): Promise<number[]> {
    const tx = this.redis.pipeline();
    for (const [org, n] of counts) tx.incrby(keys.rateWindow(org, window), n).pexpire(keys.rateWindow(org, window), 5000);
    const res = (await tx.exec()) ?? [];
    return counts.map((_, i) => Number(res[i * 2]?.[1] ?? 0));
  }
}
