// Request counters per organisation and one-second window, and login-attempt counters per login
// name and per client address, shared by every process.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';
import { defineScript, type Script } from './lua.js';

export type AttemptScope = 'account' | 'address';

// A counter's window starts with its first attempt and is never extended, so a throttled name or
// address is free again at most one window later, whatever is sent meanwhile.
const ATTEMPT_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;
// Only while the window lasts: a DECR after expiry would leave a counter without a TTL.
const UNDO_LUA = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end return 0`;

export class RateStore {
  private readonly attemptScript: Script;
  private readonly undoScript: Script;

  constructor(private readonly redis: Redis) {
    this.attemptScript = defineScript(redis, 'recdLoginAttempt', 1, ATTEMPT_LUA);
    this.undoScript = defineScript(redis, 'recdLoginAttemptUndo', 1, UNDO_LUA);
  }

  // Adds each organisation's count and returns the new totals, in the same order.
  async add(window: number, counts: [org: string, n: number][]): Promise<number[]> {
    const tx = this.redis.pipeline();
    for (const [org, n] of counts) tx.incrby(keys.rateWindow(org, window), n).pexpire(keys.rateWindow(org, window), 5000);
    const res = (await tx.exec()) ?? [];
    return counts.map((_, i) => Number(res[i * 2]?.[1] ?? 0));
  }

  // Counts one login attempt; the attempts of the window so far (this one included) and the time left.
  async attempt(scope: AttemptScope, id: string, windowMs: number): Promise<{ count: number; leftMs: number }> {
    const [count, leftMs] = (await this.attemptScript(keys.loginAttempts(scope, id), windowMs)) as [number, number];
    return { count, leftMs: Math.max(0, leftMs) };
  }

  // A successful login takes its attempt back, so that only failures use up the budget.
  async undoAttempt(scope: AttemptScope, id: string): Promise<void> {
    await this.undoScript(keys.loginAttempts(scope, id));
  }

  // Ends a login name's window (its right password was given).
  async clearAttempts(scope: AttemptScope, id: string): Promise<void> {
    await this.redis.del(keys.loginAttempts(scope, id));
  }
}
