// The statistics of outcome results (src/services/outcomes/outcome-stats.ts), against simulated A/B
// tests with a known true difference: a zero difference is "significant" in about 5 % of seeds (at most
// the 5 % the test allows, with room for chance), a large one in nearly all, and the intervals cover
// the true difference about 95 % of the time; the sample ratio check flags a skewed split only.
import t from 'tap';
import { difference, normalCdf, sampleRatio, usersNeeded, wilson } from '../../src/services/outcomes/outcome-stats.js';

// mulberry32: a seeded uniform generator, so every run draws the same tests.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}
const successes = (rand: () => number, n: number, p: number) => {
  let k = 0;
  for (let i = 0; i < n; i++) if (rand() < p) k++;
  return k;
};

t.test('Φ at known points', async (t) => {
  for (const [z, want] of [
    [0, 0.5],
    [1.959963984540054, 0.975],
    [-1.959963984540054, 0.025],
    [1, 0.8413447],
    [-3, 0.0013499],
  ] as const)
    t.ok(Math.abs(normalCdf(z) - want) < 1e-6, `Φ(${z}) = ${normalCdf(z)}`);
});

t.test('Wilson intervals: inside [0, 1], around the rate, sound at 0 and n; null without trials', async (t) => {
  t.strictSame(wilson(0, 0), { rate: null, interval: null });
  const none = wilson(0, 20);
  t.equal(none.rate, 0);
  t.equal(none.interval![0], 0);
  t.ok(none.interval![1] > 0.1 && none.interval![1] < 0.2, `0 of 20: upper ${none.interval![1]}`);
  const all = wilson(20, 20);
  t.ok(all.interval![0] > 0.8 && all.interval![1] === 1);
  const mid = wilson(30, 100);
  t.ok(Math.abs(mid.interval![0] - 0.2189) < 1e-3 && Math.abs(mid.interval![1] - 0.3958) < 1e-3, `30 of 100: ${mid.interval}`);
});

t.test('no true difference: p < 0.05 in at most about 5 % of seeds; the interval covers 0 in about 95 %', async (t) => {
  const runs = 400;
  let significant = 0;
  let covered = 0;
  for (let seed = 1; seed <= runs; seed++) {
    const rand = random(seed);
    const n = 2000;
    const d = difference(successes(rand, n, 0.1), n, successes(rand, n, 0.1), n);
    if (d.p_value! < 0.05) significant++;
    if (d.interval![0] <= 0 && d.interval![1] >= 0) covered++;
  }
  t.ok(significant / runs <= 0.08, `${significant} of ${runs} seeds "significant"`);
  t.ok(covered / runs >= 0.92, `${covered} of ${runs} intervals cover 0`);
});

t.test('a large true difference: p < 0.05 in nearly every seed, B ahead; the interval covers the truth', async (t) => {
  const runs = 200;
  let significant = 0;
  let covered = 0;
  for (let seed = 1; seed <= runs; seed++) {
    const rand = random(1000 + seed);
    const d = difference(successes(rand, 2000, 0.1), 2000, successes(rand, 2000, 0.14), 2000);
    if (d.p_value! < 0.05 && d.difference! > 0) significant++;
    if (d.interval![0] <= 0.04 && d.interval![1] >= 0.04) covered++;
  }
  t.ok(significant / runs >= 0.95, `${significant} of ${runs} seeds significant`);
  t.ok(covered / runs >= 0.9, `${covered} of ${runs} intervals cover 0.04`);
  t.strictSame(difference(5, 0, 5, 10), { difference: null, interval: null, p_value: null }, 'an empty arm: nothing to say');
});

t.test('sample ratio: a fair split passes, a skewed one is flagged', async (t) => {
  const rand = random(7);
  let flagged = 0;
  for (let k = 0; k < 200; k++) {
    const a = successes(rand, 5000, 0.3);
    if (sampleRatio(a, 5000 - a, 0.3)! < 0.001) flagged++;
  }
  t.ok(flagged <= 2, `${flagged} of 200 fair splits flagged`);
  t.ok(sampleRatio(2600, 2400, 0.5)! < 0.01, '52 % against 50 % of 5,000 users');
  t.ok(sampleRatio(2520, 2480, 0.5)! > 0.3, '50.4 % against 50 %: no flag');
  t.equal(sampleRatio(0, 0, 0.5), null);
});

t.test('users needed grows as the difference shrinks', async (t) => {
  const big = usersNeeded(0.1, 0.14)!;
  const small = usersNeeded(0.1, 0.11)!;
  t.ok(big > 500 && big < 2000, `${big} users for 10 % → 14 %`);
  t.ok(small > 10 * big, `${small} users for 10 % → 11 %`);
  t.equal(usersNeeded(0.1, 0.1), null);
});
