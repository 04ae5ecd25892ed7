// A kernel and its twin (native-free-kernels/reference/) as one row of test/unit/kernel-twins.test.ts:
// `run` draws an input from the seeded generator, calls both on it and returns both outputs, which
// must agree entry by entry within `tolerance` (relative to the larger of 1 and the twin's entry; 0:
// bit for bit, NaN matching NaN).
import type { Test } from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';

export interface TwinPair {
  name: string;
  tolerance: number;
  run(rand: () => number): { fast: ArrayLike<number>; twin: ArrayLike<number> };
}

/** Each pair on `seeds` random inputs: one failing assertion per disagreeing input, naming its seed and entry. */
export function checkTwins(t: Test, pairs: readonly TwinPair[], seeds: number): void {
  for (const pair of pairs) {
    for (let seed = 1; seed <= seeds; seed++) {
      const { fast, twin } = pair.run(mulberry32(seed));
      let bad = fast.length === twin.length ? -1 : 0;
      for (let i = 0; i < twin.length && bad < 0; i++) {
        const a = fast[i]!,
          b = twin[i]!;
        const same = Number.isNaN(b) ? Number.isNaN(a) : Math.abs(a - b) <= pair.tolerance * Math.max(1, Math.abs(b));
        if (!same) bad = i;
      }
      t.ok(bad < 0, `${pair.name}, seed ${seed}${bad < 0 ? '' : `: entry ${bad} ${fast[bad]} vs twin ${twin[bad]}`}`);
    }
  }
}
