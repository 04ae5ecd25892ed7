// Outcome results from the daily counters (store/outcomes-scripts.ts): GET analytics/recommendations/ by
// scenario, A/B arm, reco type or day, and GET ab-tests/<id>/results/. A request reads one counter hash
// per day of its window and one HyperLogLog count per group: what the window and the groups ask for,
// never the answers recorded.
import { notFound, wrongData } from '../../errors/api-error.js';
import type { OutcomesStore } from '../../store/outcomes-store.js';
import type { ScenariosStore } from '../../store/scenarios-store.js';
import { POSITIONS } from '../../store/outcomes-scripts.js';
import { groupParts } from './outcome-counts.js';
import { wilson } from './outcome-stats.js';

// Days the daily counters are kept after their day, and the longest window a request may ask for.
export const COUNTER_DAYS = 400;
const DAY_S = 86_400;
const DEFAULT_DAYS = 30;

export const GROUP_BY = ['scenario', 'ab_test', 'reco_type', 'day'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export interface Window {
  start?: number;
  end?: number;
}

// One group's counts, summed over its days and the groups of the counters it gathers.
export interface Tally {
  label: Record<string, string | null>;
  answers: number;
  items: number;
  shown: number[]; // items shown at positions 1..POSITIONS
  types: Map<string, { d: number; v: number; k: number[] }>;
  users: [number, string][]; // the HyperLogLogs of its viewers (day, name)
  group: string[]; // the counters' groups it gathers, with their days: "<day> <group>"
}

export class OutcomeResults {
  constructor(
    private readonly store: OutcomesStore,
    private readonly scenarios: Pick<ScenariosStore, 'abTest'>,
  ) {}

  // groupBy: one or more of GROUP_BY, each group labelled by all of them (e.g. day and scenario).
  async recommendations(db: string, w: Window, groupBy: GroupBy[]) {
    const { start, end, tallies } = await this.tallies(db, w, (group, day) => labelled(group, day, groupBy));
    const groups = await this.described(db, tallies);
    return { start_timestamp: start, end_timestamp: end, group_by: groupBy.join(','), groups, warnings: [] as string[] };
  }

  // Per arm of one A/B test (the arms its answers were recorded under), summed over the window.
  async abTestTallies(db: string, id: string, w: Window) {
    const test = await this.scenarios.abTest(db, id);
    if (!test) throw notFound('AB_TEST_NOT_FOUND', 'ab_test', id, `no A/B test ${JSON.stringify(id)}`);
    const { start, end, tallies } = await this.tallies(db, w, (group) =>
      armsOf(group)
        .filter((a) => a.test === id)
        .map((a) => ({ arm: a.arm })),
    );
    return { test, start, end, arms: await this.described(db, tallies) };
  }

  private async tallies(db: string, w: Window, labels: (group: string, day: number) => Record<string, string | null>[]) {
    const end = w.end ?? Date.now() / 1000;
    const start = w.start ?? end - DEFAULT_DAYS * DAY_S;
    if (!(start < end)) throw wrongData('WRONG_PARAMETER', 'start_timestamp must be before end_timestamp', { field: 'start_timestamp' });
    const first = Math.floor(start / DAY_S);
    const last = Math.ceil(end / DAY_S) - 1;
    if (last - first + 1 > COUNTER_DAYS)
      throw wrongData('WRONG_PARAMETER', `a window covers ${COUNTER_DAYS} days at most (the counters are kept that long)`, {
        field: 'start_timestamp',
      });
    const days = await this.store.days(db, first, last);
    const tallies = new Map<string, Tally>();
    for (const [day, fields] of days) {
      for (const [field, n] of fields) {
        const parts = field.split('\u001f');
        const group = parts.slice(0, 3).join('\u001f');
        for (const label of labels(group, day)) add(tallies, label, group, day, parts[3] ?? '', parts.slice(4).join('\u001f'), n);
      }
    }
    return { start, end, tallies: [...tallies.values()] };
  }

  // Each tally as it is answered: counts, distinct users, rates with their intervals.
  private async described(db: string, tallies: Tally[]) {
    const typed = tallies.map((t) => [...t.types.keys()].sort());
    const lists: [number, string][][] = [];
    tallies.forEach((t, k) => {
      lists.push(t.users);
      for (const type of typed[k]!)
        lists.push(t.group.map((g) => [Number(g.slice(0, g.indexOf(' '))), `acted:${g.slice(g.indexOf(' ') + 1)}\u001f${type}`]));
    });
    const counts = await this.store.distinct(db, lists);
    let at = 0;
    return tallies.map((t, k) => {
      const users = counts[at++]!;
      return {
        ...t.label,
        answers: t.answers,
        items_shown: t.items,
        users,
        positions: t.shown.map((shown, p) => ({ position: p + 1, items_shown: shown })),
        interactions: typed[k]!.map((type) => {
          const c = t.types.get(type)!;
          const credited = c.d + c.v;
          const acted = Math.min(counts[at++]!, users);
          const rate = wilson(credited, t.items);
          const userRate = wilson(acted, users);
          return {
            interaction_type: type,
            direct: c.d,
            view_through: c.v,
            credited,
            rate: rate.rate,
            rate_interval: rate.interval,
            users_acted: acted,
            user_rate: userRate.rate,
            user_rate_interval: userRate.interval,
            positions: c.k.map((n, p) => {
              const r = wilson(n, t.shown[p]!);
              return { position: p + 1, credited: n, rate: r.rate, rate_interval: r.interval };
            }),
          };
        }),
      };
    });
  }
}

function add(
  tallies: Map<string, Tally>,
  label: Record<string, string | null>,
  group: string,
  day: number,
  counter: string,
  type: string,
  n: number,
) {
  const key = JSON.stringify(label);
  let t = tallies.get(key);
  if (t === undefined) {
    t = { label, answers: 0, items: 0, shown: new Array(POSITIONS).fill(0), types: new Map(), users: [], group: [] };
    tallies.set(key, t);
  }
  const member = `${day} ${group}`;
  if (!t.group.includes(member)) {
    t.group.push(member);
    t.users.push([day, `users:${group}`]);
  }
  const kind = counter[0];
  if (counter === 'a') t.answers += n;
  else if (counter === 'i') t.items += n;
  else if (kind === 'p') t.shown[Number(counter.slice(1)) - 1]! += n;
  else {
    let c = t.types.get(type);
    if (c === undefined) t.types.set(type, (c = { d: 0, v: 0, k: new Array(POSITIONS).fill(0) }));
    if (counter === 'd') c.d += n;
    else if (counter === 'v') c.v += n;
    else if (kind === 'k') c.k[Number(counter.slice(1)) - 1]! += n;
  }
}

function armsOf(group: string): { test: string; arm: string }[] {
  const { arms } = groupParts(group);
  if (arms === '') return [];
  return arms.split(',').map((a) => {
    const colon = a.lastIndexOf(':');
    return { test: a.slice(0, colon), arm: a.slice(colon + 1) };
  });
}

// The group's labels under every grouping asked for: their combinations (an answer under two A/B
// tests counts in both).
function labelled(group: string, day: number, by: GroupBy[]): Record<string, string | null>[] {
  let out: Record<string, string | null>[] = [{}];
  for (const b of by) out = out.flatMap((l) => labelsOf(group, day, b).map((m) => ({ ...l, ...m })));
  return out;
}

function labelsOf(group: string, day: number, by: GroupBy): Record<string, string | null>[] {
  const parts = groupParts(group);
  switch (by) {
    case 'scenario':
      return [{ scenario: parts.scenario === '' ? null : parts.scenario }];
    case 'reco_type':
      return [{ reco_type: parts.recoType }];
    case 'day':
      return [{ day: new Date(day * DAY_S * 1000).toISOString().slice(0, 10) }];
    case 'ab_test':
      return armsOf(group).map((a) => ({ ab_test: a.test, arm: a.arm }));
  }
}
