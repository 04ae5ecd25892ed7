// GET call-counts/historical/…: an organisation's counted requests (usage/call-recorder.ts) over a
// time window, as points at one-minute resolution, aggregated into MAX_POINTS equal buckets when
// there are more.
import { wrongData } from '../../errors/api-error.js';
import type { AccountsStore } from '../../store/accounts-store.js';
import { CALL_COUNT_DAYS, type CallCountsStore } from '../../store/call-counts-store.js';
import type { DatabasesStore } from '../../store/databases-store.js';
import { TOTAL } from './call-recorder.js';
import { decodeCursor, encodeCursor } from '../ids/cursors.js';
import type { RecoType } from '../../contract/reco-types.js';

export const LABELS = ['ACCOUNTS', 'ENDPOINTS', 'DBS', 'SCENARIOS', 'RECO_TYPES', 'CHAT', 'LLM'] as const;
export type Label = (typeof LABELS)[number];
const MAX_POINTS = 100;
// Without start_timestamp, the window is the last day (docs/api-choices.md).
const DEFAULT_SPAN = 86_400;
const CURSOR = 'cc1';

export interface CountWindow {
  start_timestamp?: number;
  end_timestamp?: number;
}

export class CallHistoryService {
  constructor(
    private readonly store: CallCountsStore,
    private readonly accounts: AccountsStore,
    private readonly databases: DatabasesStore,
  ) {}

  async total(org: string, q: CountWindow) {
    const [from, to] = span(q);
    const [counts] = await this.store.read(org, TOTAL, [''], from, to);
    const line = timeline([counts!], from, to);
    return { timestamps: line.timestamps, counts: line.counts[0]!, warnings: [] as string[] };
  }

  async byLabel(org: string, label: Label, q: CountWindow & { amt: number; cursor?: string }) {
    const [from, to] = span(q);
    const all = await this.store.seriesKeys(org, label);
    const at = q.cursor ? decodeCursor(CURSOR, q.cursor, 1)[0]! : 0;
    const keys = all.slice(at, at + q.amt);
    const line = timeline(await this.store.read(org, label, keys, from, to), from, to);
    const series = await Promise.all(
      keys.map(async (key, k) => ({ key, ...(await this.describe(org, label, key)), counts: line.counts[k]! })),
    );
    const next = at + keys.length;
    return {
      timestamps: line.timestamps,
      series,
      has_next: next < all.length,
      next_cursor: next < all.length ? encodeCursor(CURSOR, [next]) : '',
      warnings: [] as string[],
    };
  }

  async scenario(org: string, recoType: RecoType, name: string, q: CountWindow) {
    const [from, to] = span(q);
    const [counts] = await this.store.read(org, 'SCENARIOS', [`${recoType}/${name}`], from, to);
    const line = timeline([counts!], from, to);
    return { timestamps: line.timestamps, counts: line.counts[0]!, warnings: [] as string[] };
  }

  private async describe(org: string, label: Label, key: string): Promise<{ description: string; extra_data: Record<string, string> }> {
    if (label === 'DBS') return { description: (await this.databases.get(key))?.name ?? key, extra_data: { db_id: key } };
    if (label === 'ACCOUNTS') {
      const acc = await this.accounts.get(org, key);
      return { description: acc ? ('email' in acc ? acc.email : acc.name) : key, extra_data: {} };
    }
    return { description: key, extra_data: {} };
  }
}

// [from, to) in epoch seconds, within what is kept.
function span(q: CountWindow): [number, number] {
  const now = Date.now() / 1000;
  const to = q.end_timestamp ?? now;
  const from = Math.max(q.start_timestamp ?? to - DEFAULT_SPAN, now - CALL_COUNT_DAYS * 86_400);
  if (q.start_timestamp !== undefined && q.end_timestamp !== undefined && q.start_timestamp >= q.end_timestamp) {
    throw wrongData('WRONG_PARAMETER', 'start_timestamp must be before end_timestamp', { field: 'start_timestamp' });
  }
  return [from, Math.max(from, to)];
}

// The minutes any series counted, each series' counts at them; beyond MAX_POINTS minutes, MAX_POINTS
// equal buckets over the window (timestamps: bucket starts).
function timeline(series: Map<number, number>[], from: number, to: number): { timestamps: number[]; counts: number[][] } {
  const minutes = [...new Set(series.flatMap((s) => [...s.keys()]))].sort((a, b) => a - b);
  if (minutes.length <= MAX_POINTS) return { timestamps: minutes, counts: series.map((s) => minutes.map((m) => s.get(m) ?? 0)) };
  const width = (to - from) / MAX_POINTS;
  const timestamps = Array.from({ length: MAX_POINTS }, (_, i) => from + i * width);
  const counts = series.map((s) => {
    const out = new Array<number>(MAX_POINTS).fill(0);
    for (const [m, n] of s) out[Math.min(MAX_POINTS - 1, Math.floor((m - from) / width))]! += n;
    return out;
  });
  return { timestamps, counts };
}
