// Counts every authenticated request in memory (one map increment on the request path) and flushes
// the counts to Redis every second, expanded into the labels they count for: the organisation's
// total, ENDPOINTS (the route's group), DBS, ACCOUNTS, and for recommendation requests RECO_TYPES
// and SCENARIOS.
import type { CallCountsStore, Increment } from '../store/call-counts-store.js';

export const TOTAL = 'TOTAL'; // the organisation's series of every request (key '')
const SEP = '\n';

export class CallCounter {
  private requests = new Map<string, number>(); // org, group, db, account
  private recos = new Map<string, number>(); // org, reco type, scenario
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: CallCountsStore,
    flushMs = 1000,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => this.flush().catch(this.onError), flushMs);
    this.timer.unref();
  }

  request(org: string, group: string, db: string | undefined, account: string): void {
    const k = org + SEP + group + SEP + (db ?? '') + SEP + account;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  // scenario: '' when the request names none.
  reco(org: string, recoType: string, scenario: string): void {
    const k = org + SEP + recoType + SEP + scenario;
    this.recos.set(k, (this.recos.get(k) ?? 0) + 1);
  }

  // Sends what was counted since the last flush (also on shutdown: nothing counted is lost).
  async flush(): Promise<void> {
    const requests = this.requests, recos = this.recos;
    if (requests.size === 0 && recos.size === 0) return;
    this.requests = new Map();
    this.recos = new Map();
    const sums = new Map<string, Increment>();
    const add = (org: string, label: string, key: string, n: number) => {
      const id = org + SEP + label + SEP + key;
      const row = sums.get(id);
      if (row) row.n += n;
      else sums.set(id, { org, label, key, n });
    };
    for (const [k, n] of requests) {
      const [org, group, db, account] = k.split(SEP) as [string, string, string, string];
      add(org, TOTAL, '', n);
      add(org, 'ENDPOINTS', group, n);
      add(org, 'ACCOUNTS', account, n);
      if (db !== '') add(org, 'DBS', db, n);
    }
    for (const [k, n] of recos) {
      const [org, recoType, scenario] = k.split(SEP) as [string, string, string];
      add(org, 'RECO_TYPES', recoType, n);
      if (scenario !== '') add(org, 'SCENARIOS', `${recoType}/${scenario}`, n);
    }
    await this.store.add(Date.now() / 1000, [...sums.values()]);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
