// Call counts per organisation, label and series, in one-minute buckets kept per UTC day
// (keys.callCounts), and the series keys each label has had.
import type { Connection } from './redis.js';
import { keys } from './keys.js';

export const MINUTE = 60;
const DAY = 86_400;
// How long counts are kept (docs/api-choices.md, "Call counts").
export const CALL_COUNT_DAYS = 35;

export interface Increment {
  org: string;
  label: string;
  key: string;
  n: number;
}

export class CallCountsStore {
  constructor(private readonly redis: Connection) {}

  // Adds counts to the minute holding `at` (epoch seconds), in one round trip: commands of their own
  // rather than a pipeline, which may not span the organisations' slots of a cluster; auto-pipelining
  // sends them in one write per server.
  async add(at: number, rows: Increment[]): Promise<void> {
    const minute = Math.floor(at / MINUTE) * MINUTE,
      day = Math.floor(at / DAY);
    await Promise.all(
      rows.flatMap((r) => {
        const k = keys.callCounts(r.org, r.label, r.key, day);
        return [
          this.redis.hincrby(k, String(minute), r.n),
          this.redis.expire(k, CALL_COUNT_DAYS * DAY),
          this.redis.sadd(keys.callCountKeys(r.org, r.label), r.key),
        ];
      }),
    );
  }

  async seriesKeys(org: string, label: string): Promise<string[]> {
    return (await this.redis.smembers(keys.callCountKeys(org, label))).sort();
  }

  // Minute → count of each series in [from, to) (epoch seconds), in the order of `series`.
  async read(org: string, label: string, series: string[], from: number, to: number): Promise<Map<number, number>[]> {
    const days: number[] = [];
    for (let d = Math.floor(from / DAY); d <= Math.floor((to - 1) / DAY); d++) days.push(d);
    const tx = this.redis.pipeline();
    for (const key of series) for (const d of days) tx.hgetall(keys.callCounts(org, label, key, d));
    const res = (await tx.exec()) ?? [];
    return series.map((_, s) => {
      const out = new Map<number, number>();
      days.forEach((_, k) => {
        const [err, fields] = res[s * days.length + k] ?? [];
        if (err) throw err;
        for (const [minute, n] of Object.entries((fields ?? {}) as Record<string, string>)) {
          const t = Number(minute);
          if (t >= from && t < to) out.set(t, (out.get(t) ?? 0) + Number(n));
        }
      });
      return out;
    });
  }
}
