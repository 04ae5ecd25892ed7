// Answers and credited interactions this process recorded, by database and group, for the Prometheus
// counters (wiring/metrics.ts). Series past SERIES_MAX (ever new scenarios or interaction types) are
// counted under scenario "(other)".
export const SERIES_MAX = 1000;

export type Labels = Record<string, string>;

export class OutcomeCounts {
  readonly answers = new Series();
  readonly credited = new Series();
}

class Series {
  private readonly held = new Map<string, { labels: Labels; n: number }>();

  add(labels: Labels, n = 1): void {
    let key = Object.values(labels).join('\u0000');
    let s = this.held.get(key);
    if (s === undefined && this.held.size >= SERIES_MAX) {
      labels = { ...labels, scenario: '(other)' };
      key = Object.values(labels).join('\u0000');
      s = this.held.get(key);
    }
    if (s === undefined) this.held.set(key, (s = { labels, n: 0 }));
    s.n += n;
  }

  *entries(): Iterable<[Labels, number]> {
    for (const s of this.held.values()) yield [s.labels, s.n];
  }
}

// A group as the scripts count it (store/outcomes-scripts.ts): reco type, scenario, A/B arms.
export const groupOf = (recoType: string, scenario: string, arms: string): string => `${recoType}\u001f${scenario}\u001f${arms}`;

export function groupParts(group: string): { recoType: string; scenario: string; arms: string } {
  const [recoType = '', scenario = '', arms = ''] = group.split('\u001f');
  return { recoType, scenario, arms };
}
