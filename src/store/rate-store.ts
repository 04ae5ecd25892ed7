// Request counters per organisation and one-second window, and login-attempt counters per login
// name and per client address, shared by every process.
import type { Connection } from './redis.js';
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

  constructor(private readonly redis: Connection) {
    this.attemptScript = defineScript(redis, 'recdLoginAttempt', 1, ATTEMPT_LUA);
    this.undoScript = defineScript(redis, 'recdLoginAttemptUndo', 1, UNDO_LUA);
  }

  // Adds each organisation's count and returns the new totals, in the same order.
  // Commands of their own, not one pipeline: the organisations' counters are in different slots of a
  // cluster, which a pipeline may not span. Auto-pipelining still sends them in one write per server.
  async add(window: number, counts: [org: string, n: number][]): Promise<number[]> {
    return Promise.all(
      counts.map(async ([org, n]) => {
        const key = keys.rateWindow(org, window);
        const [total] = await Promise.all([this.redis.incrby(key, n), this.redis.pexpire(key, 5000)]);
        return total;
      }),
    );
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
