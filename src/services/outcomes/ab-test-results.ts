// GET ab-tests/<id>/results/: each arm's counts and rates, B against A per interaction type (the
// difference of the users' rates, its interval and p-value), the sample ratio check of the split, and a
// plain verdict.
import { difference, sampleRatio, usersNeeded } from './outcome-stats.js';
import type { OutcomeResults, Window } from './results.js';

// A split whose users per arm are this unlikely under probability_a is flagged.
const SRM_P = 0.001;
const SIGNIFICANT_P = 0.05;

// A tally labelled by its arm (results.ts abTestTallies).
type Arm = Awaited<ReturnType<OutcomeResults['abTestTallies']>>['arms'][number] & { arm?: string | null };

export async function abTestResults(results: OutcomeResults, db: string, id: string, w: Window) {
  const { test, start, end, arms } = await results.abTestTallies(db, id, w);
  const arm = (name: 'A' | 'B'): Arm =>
    (arms as Arm[]).find((a) => a.arm === name) ?? { arm: name, answers: 0, items_shown: 0, users: 0, positions: [], interactions: [] };
  const a = arm('A');
  const b = arm('B');
  const types = [...new Set([...a.interactions, ...b.interactions].map((i) => i.interaction_type))].sort();
  const comparisons = types.map((type) => {
    const ia = a.interactions.find((i) => i.interaction_type === type);
    const ib = b.interactions.find((i) => i.interaction_type === type);
    const d = difference(ia?.users_acted ?? 0, a.users, ib?.users_acted ?? 0, b.users);
    return { interaction_type: type, ...d, verdict: verdict(d, a.users, b.users, ia?.user_rate ?? 0, ib?.user_rate ?? 0) };
  });
  const srm = sampleRatio(a.users, b.users, test.probability_a);
  return {
    ab_test_id: id,
    name: test.name,
    probability_a: test.probability_a,
    start_timestamp: start,
    end_timestamp: end,
    arms: [a, b],
    comparisons,
    sample_ratio: {
      users_a: a.users,
      users_b: b.users,
      expected_share_a: test.probability_a,
      observed_share_a: a.users + b.users === 0 ? null : a.users / (a.users + b.users),
      p_value: srm,
      mismatch: srm !== null && srm < SRM_P,
    },
    warnings: [] as string[],
  };
}

// "B ahead by 1.2 points, p = 0.030", or how many more users each arm needs at the rates seen.
function verdict(d: ReturnType<typeof difference>, usersA: number, usersB: number, rateA: number, rateB: number): string {
  if (d.difference === null || d.p_value === null) return 'not enough data yet: no users in one of the arms';
  const points = Math.abs(d.difference * 100).toFixed(1);
  const p = d.p_value < 0.001 ? 'p < 0.001' : `p = ${d.p_value.toFixed(3)}`;
  if (d.p_value < SIGNIFICANT_P) return `${d.difference > 0 ? 'B' : 'A'} ahead by ${points} points, ${p}`;
  const needed = usersNeeded(rateA, rateB);
  const more = needed === null ? null : Math.max(0, needed - Math.min(usersA, usersB));
  return more === null || more === 0
    ? `no difference shown (${p})`
    : `not enough data yet: ${more} more users per arm (at the rates seen), ${p}`;
}
