// ALS's part of the parameter search (search.ts): the points of its space, the objective's
// parameters each stands for, random points, and moves of one coordinate from the best point so far.
import { mulberry32 } from '../../../native-free-kernels/random.js';
import type { AlsParams } from './tasks.js';

export const FACTORS = [16, 32, 64, 128];
// Quantiles of the rating values tried as the confidence shift (0: none); the last entry (1) gives
// the largest value, which scales the floor.
export const SHIFT_QUANTILES = [0.1, 0.2, 0.3, 0.4, 1];
const FLOOR_SHARE = 0.1; // of (largest value − shift)
// A trial gains when its validation score beats the best so far by this share of it: smaller steps
// are within the noise of a split, and searches end after a few trials in a row without one.
export const MIN_GAIN = 0.002;

// A point of the search space; AlsSpace.weights() turns it into the objective's parameters.
export interface Point {
  factors: number;
  lambda: number; // λ of a typical user row in the kernels' form (objective ÷ unobserved weight)
  alpha: number; // confidence per unit of value, same form
  shift: number; // index into SHIFT_QUANTILES + 1; 0: no shift
  frequencyScaled: boolean; // ν = 1
  unobserved: number; // with frequency scaling: α0, which sets how a row's λ grows with its count
}

export interface SpaceData {
  factorsAllowed: number[];
  shifts: number[]; // the rating values at SHIFT_QUANTILES
  meanRow: number; // ratings of a rated user, on average
  items: number;
  iterations: number; // of each trial's fit
}

export class AlsSpace {
  private readonly next: () => number;
  // Moves of one coordinate, cycled; λ and alpha move by `step`, which shrinks after a whole cycle
  // without a gain (gained() resets the count).
  private step = 2;
  private cursor = 0;
  private sinceGain = 0;
  private readonly moves: ((p: Point) => Point | undefined)[];

  constructor(
    private readonly base: AlsParams,
    private readonly d: SpaceData,
  ) {
    this.next = mulberry32(base.seed ^ 0x5eed);
    const allowed = d.factorsAllowed;
    this.moves = [
      (p) => ({ ...p, lambda: p.lambda * this.step }),
      (p) => ({ ...p, lambda: p.lambda / this.step }),
      (p) => ({ ...p, alpha: p.alpha * this.step }),
      (p) => ({ ...p, alpha: p.alpha / this.step }),
      (p) => (p.shift < SHIFT_QUANTILES.length - 1 ? { ...p, shift: p.shift + 1 } : undefined),
      (p) => (p.shift > 0 ? { ...p, shift: p.shift - 1 } : undefined),
      (p) => allowed.filter((f) => f > p.factors).map((f) => ({ ...p, factors: f }))[0],
      (p) =>
        allowed
          .filter((f) => f < p.factors)
          .map((f) => ({ ...p, factors: f }))
          .pop(),
      (p) => ({ ...p, frequencyScaled: !p.frequencyScaled }),
      (p) => (p.frequencyScaled ? { ...p, unobserved: Math.min(1, p.unobserved * this.step) } : undefined),
      (p) => (p.frequencyScaled ? { ...p, unobserved: p.unobserved / this.step } : undefined),
    ];
  }

  weights(pt: Point): AlsParams {
    const { shifts, meanRow, items } = this.d;
    const largest = shifts[shifts.length - 1]!;
    const shift = pt.shift === 0 ? 0 : shifts[pt.shift - 1]!;
    const floor = pt.shift === 0 ? 0 : FLOOR_SHARE * Math.max(largest - shift, 1e-6);
    const common = { ...this.base, factors: pt.factors, iterations: this.d.iterations, ratingShift: shift, ratingFloor: floor };
    if (!pt.frequencyScaled) return { ...common, regularization: pt.lambda, alpha: pt.alpha, unobserved: 1, regExponent: 0 };
    const a0 = pt.unobserved;
    // λ·(meanRow + α0·items)/α0 = pt.lambda: the typical user row gets the point's λ.
    return { ...common, regularization: (pt.lambda * a0) / (meanRow + a0 * items), alpha: pt.alpha * a0, unobserved: a0, regExponent: 1 };
  }

  randomPoint(): Point {
    const next = this.next;
    const logUniform = (lo: number, hi: number) => Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo)));
    const allowed = this.d.factorsAllowed;
    return {
      factors: allowed[Math.floor(next() * allowed.length)]!,
      lambda: logUniform(0.5, 500),
      alpha: logUniform(0.01, 10),
      shift: Math.floor(next() * SHIFT_QUANTILES.length), // 0 .. 4: none or one of the first four quantiles
      frequencyScaled: next() < 0.3,
      unobserved: logUniform(0.01, 1),
    };
  }

  // The point of given parameters (trial 0's), for moves away from it.
  pointOf(p: AlsParams): Point {
    const { shifts, meanRow, items, factorsAllowed: allowed } = this.d;
    const nearestShift = (value: number) =>
      value === 0 ? 0 : 1 + shifts.slice(0, -1).reduce((b, v, k, all) => (Math.abs(v - value) < Math.abs(all[b]! - value) ? k : b), 0);
    return {
      factors: allowed.includes(p.factors)
        ? p.factors
        : allowed.reduce((b, f) => (Math.abs(f - p.factors) < Math.abs(b - p.factors) ? f : b)),
      lambda: p.regExponent === 0 ? p.regularization / p.unobserved : (p.regularization / p.unobserved) * (meanRow + p.unobserved * items),
      alpha: p.alpha / p.unobserved,
      shift: nearestShift(p.ratingShift),
      frequencyScaled: p.regExponent !== 0,
      unobserved: p.regExponent === 0 ? 0.1 : p.unobserved,
    };
  }

  // The next move from p that applies (a random point when none does).
  moved(p: Point): Point {
    for (let tries = 0; tries < this.moves.length; tries++) {
      if (this.sinceGain >= this.moves.length) [this.step, this.sinceGain] = [Math.sqrt(this.step), 0];
      const q = this.moves[this.cursor++ % this.moves.length]!(p);
      this.sinceGain++;
      if (q) return q;
    }
    return this.randomPoint();
  }

  gained(): void {
    this.sinceGain = 0;
  }
}
