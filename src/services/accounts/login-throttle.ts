// Login throttling: failed logins are counted per login name and per client address in Redis (so
// every process shares the counts), each in a window that starts with its first failure and is never
// extended. Past a budget, attempts are refused with 429 until the window ends, whether or not the
// password is right: an attacker cannot test passwords faster, and cannot lock a name out longer
// than one window.
import { ApiError } from '../../errors/api-error.js';
import type { AttemptScope, RateStore } from '../../store/rate-store.js';

export interface LoginLimits {
  perAccount: number; // 0: no limit
  perAddress: number; // 0: no limit
  windowSeconds: number;
}

export class LoginThrottle {
  constructor(
    private readonly store: RateStore,
    private readonly limits: LoginLimits,
  ) {}

  // Runs a credential check under both budgets. The attempt is counted before the (slow) check, so
  // that parallel guesses cannot all slip through; an attempt that does not end in a wrong password
  // is taken back, and a right password also ends the name's window.
  async guard<T>(account: string, address: string, check: () => Promise<T>): Promise<T> {
    const budgets: [AttemptScope, string, number][] = [
      ['address', address, this.limits.perAddress],
      ['account', account, this.limits.perAccount],
    ];
    const counted: typeof budgets = [];
    for (const budget of budgets.filter(([, , limit]) => limit > 0)) {
      const [scope, id, limit] = budget;
      const { count, leftMs } = await this.store.attempt(scope, id, this.limits.windowSeconds * 1000);
      counted.push(budget);
      // A refused attempt is no failure: it is taken back, so only real failures fill a window.
      if (count > limit) {
        await this.forget(counted, false);
        throw tooMany(scope, limit, this.limits.windowSeconds, leftMs, 'failed logins');
      }
    }
    let out: T;
    try {
      out = await check();
    } catch (err) {
      if (!(err instanceof ApiError && err.data.name === 'INCORRECT_PASSWORD')) await this.forget(counted, false);
      throw err;
    }
    await this.forget(counted, true);
    return out;
  }

  // Counts one request that costs whatever its outcome (a password-reset mail), under the same
  // budgets as failed logins but counters of its own (`kind` prefixes both ids), so mails neither use
  // up nor reset login budgets. Past a budget: 429, the request not made.
  async spend(kind: string, account: string, address: string): Promise<void> {
    const budgets: [AttemptScope, string, number][] = [
      ['address', `${kind}:${address}`, this.limits.perAddress],
      ['account', `${kind}:${account}`, this.limits.perAccount],
    ];
    for (const [scope, id, limit] of budgets) {
      if (limit === 0) continue;
      const { count, leftMs } = await this.store.attempt(scope, id, this.limits.windowSeconds * 1000);
      if (count > limit) {
        await this.store.undoAttempt(scope, id);
        throw tooMany(scope, limit, this.limits.windowSeconds, leftMs, `${kind} requests`);
      }
    }
  }

  private async forget(counted: [AttemptScope, string, number][], succeeded: boolean): Promise<void> {
    await Promise.all(
      counted.map(([scope, id]) =>
        succeeded && scope === 'account' ? this.store.clearAttempts(scope, id) : this.store.undoAttempt(scope, id),
      ),
    );
  }
}

// The login name a budget counts: e-mails and service names live in different namespaces.
export const accountKey = (kind: 'individual' | 'service', name: string) =>
  kind === 'individual' ? `e:${name.toLowerCase()}` : `s:${name}`;

function tooMany(scope: AttemptScope, limit: number, windowSeconds: number, leftMs: number, counted: string): ApiError {
  const retryAfter = Math.max(0.001, leftMs / 1000);
  const what = scope === 'account' ? 'for this login name' : 'from this address';
  return new ApiError(
    'TooManyRequests',
    'RATE_LIMIT_OVERFLOW',
    `more than ${limit} ${counted} ${what} within ${windowSeconds} s: retry after ${retryAfter.toFixed(3)} s`,
    { retry_after: retryAfter },
    { 'retry-after': String(Math.ceil(retryAfter)) },
  );
}
