// Per-organisation request budget over one-second windows, enforced across processes.
// The decision is synchronous (local counts plus the last known global total); counts reach Redis
// and totals come back every flush interval, for every organisation the process served in the last
// minute, so a burst spread over processes can overshoot by one interval's worth at most.
import { ApiError } from '../../errors/api-error.js';
import type { RateStore } from '../../store/rate-store.js';

export class RateLimiter {
  private window = currentWindow();
  private local = new Map<string, number>();
  private sending = new Map<string, number>(); // counts on their way to Redis, not yet in `global`
  private global = new Map<string, number>();
  private readonly seen = new Map<string, number>(); // organisation -> last window it was served
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: RateStore,
    private readonly perSecond: number,
    flushMs = 50,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => this.flush().catch(this.onError), flushMs);
    this.timer.unref();
  }

  admit(org: string): void {
    this.roll();
    const used = (this.global.get(org) ?? 0) + (this.sending.get(org) ?? 0) + (this.local.get(org) ?? 0);
    if (used >= this.perSecond) {
      const retryAfter = Math.max(0.001, ((this.window + 1) * 1000 - Date.now()) / 1000);
      throw new ApiError(
        'TooManyRequests',
        'RATE_LIMIT_OVERFLOW',
        `more than ${this.perSecond} requests per second for this organisation: retry after ${retryAfter.toFixed(3)} s`,
        { retry_after: retryAfter },
        { 'retry-after': String(Math.ceil(retryAfter)) },
      );
    }
    this.local.set(org, (this.local.get(org) ?? 0) + 1);
    this.seen.set(org, this.window);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private roll(): void {
    const w = currentWindow();
    if (w !== this.window) {
      this.window = w;
      this.local.clear();
      this.sending.clear();
      this.global.clear();
    }
  }

  private async flush(): Promise<void> {
    this.roll();
    const window = this.window;
    for (const [org, last] of this.seen) {
      if (window - last > 60) this.seen.delete(org);
      else if (!this.local.has(org)) this.local.set(org, 0);
    }
    if (this.local.size === 0 || this.sending.size > 0) return;
    const counts = [...this.local.entries()];
    this.sending = this.local;
    this.local = new Map();
    try {
      const totals = await this.store.add(window, counts);
      if (window === this.window) counts.forEach(([org], i) => this.global.set(org, totals[i]!));
    } finally {
      if (window === this.window) this.sending = new Map();
    }
  }
}

const currentWindow = () => Math.floor(Date.now() / 1000);
