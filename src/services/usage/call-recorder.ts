// Counts every authenticated request in memory (one map increment on the request path) and flushes
// the counts to Redis every second, expanded into the labels they count for: the organisation's
// total, ENDPOINTS (the route's group), DBS, ACCOUNTS, and for recommendation requests RECO_TYPES
// and SCENARIOS.
import type { CallCountsStore, Increment } from '../../store/call-counts-store.js';
import type { RecoType } from '../../contract/reco-types.js';

export const TOTAL = 'TOTAL'; // the organisation's series of every request (key '')
const SEP = '\n';

// Who called: a verified token's claims. The same object comes back for every request of a cached
// token, so counts are kept per object (an identity lookup) and per route group (a constant string),
// and no key is built per request: building and hashing one cost about 6 % of a cheap request.
export interface Caller {
  org: string;
  db?: string;
  sub: string; // the account
}

export class CallRecorder {
  private requests = new Map<Caller, Map<string, number>>();
  private recos = new Map<Caller, Map<string, number>>(); // reco type + SEP + scenario
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: CallCountsStore,
    flushMs = 1000,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => this.flush().catch(this.onError), flushMs);
    this.timer.unref();
  }

  request(caller: Caller, group: string): void {
    bump(this.requests, caller, group);
  }

  // scenario: '' when the request names none.
  reco(caller: Caller, recoType: RecoType, scenario: string): void {
    bump(this.recos, caller, scenario === '' ? recoType : recoType + SEP + scenario);
  }

  // Sends what was counted since the last flush (also on shutdown: nothing counted is lost).
  async flush(): Promise<void> {
    const requests = this.requests,
      recos = this.recos;
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
    for (const [caller, groups] of requests) {
      for (const [group, n] of groups) {
        add(caller.org, TOTAL, '', n);
        add(caller.org, 'ENDPOINTS', group, n);
        add(caller.org, 'ACCOUNTS', caller.sub, n);
        if (caller.db !== undefined) add(caller.org, 'DBS', caller.db, n);
      }
    }
    for (const [caller, kinds] of recos) {
      for (const [kind, n] of kinds) {
        const [recoType, scenario] = kind.split(SEP) as [string, string | undefined];
        add(caller.org, 'RECO_TYPES', recoType, n);
        if (scenario !== undefined) add(caller.org, 'SCENARIOS', `${recoType}/${scenario}`, n);
      }
    }
    await this.store.add(Date.now() / 1000, [...sums.values()]);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

function bump(counts: Map<Caller, Map<string, number>>, caller: Caller, key: string): void {
  let byKey = counts.get(caller);
  if (byKey === undefined) counts.set(caller, (byKey = new Map()));
  byKey.set(key, (byKey.get(key) ?? 0) + 1);
}
