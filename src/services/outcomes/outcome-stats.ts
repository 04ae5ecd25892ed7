// The statistics of outcome results: 95 % Wilson intervals of rates, the difference of two rates with
// its interval and a two-sided p-value, and the sample ratio check of an A/B split.
const Z95 = 1.959963984540054;

// Φ, the standard normal distribution function (Abramowitz and Stegun 7.1.26: error below 1.5e-7).
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface Rate {
  rate: number | null; // null: nothing to divide by
  interval: [number, number] | null;
}

// k successes of n: the share and its 95 % Wilson score interval (sound at small n and at 0 or n).
export function wilson(k: number, n: number): Rate {
  if (n <= 0) return { rate: null, interval: null };
  const p = Math.min(1, k / n);
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { rate: p, interval: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}

export interface Difference {
  difference: number | null; // rate of B less rate of A
  interval: [number, number] | null; // 95 %, unpooled (Wald)
  p_value: number | null; // two-sided, pooled two-proportion z-test
}

export function difference(kA: number, nA: number, kB: number, nB: number): Difference {
  if (nA <= 0 || nB <= 0) return { difference: null, interval: null, p_value: null };
  const pA = Math.min(1, kA / nA);
  const pB = Math.min(1, kB / nB);
  const d = pB - pA;
  const se = Math.sqrt((pA * (1 - pA)) / nA + (pB * (1 - pB)) / nB);
  const pooled = Math.min(1, (kA + kB) / (nA + nB));
  const se0 = Math.sqrt(pooled * (1 - pooled) * (1 / nA + 1 / nB));
  const p = se0 === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(d) / se0));
  return { difference: d, interval: [d - Z95 * se, d + Z95 * se], p_value: Math.min(1, Math.max(0, p)) };
}

// Users per arm against the split asked for: the chi-square test's p-value (1 degree of freedom).
export function sampleRatio(nA: number, nB: number, probabilityA: number): number | null {
  const n = nA + nB;
  if (n === 0 || probabilityA <= 0 || probabilityA >= 1) return null;
  const eA = n * probabilityA;
  const eB = n - eA;
  const chi2 = (nA - eA) ** 2 / eA + (nB - eB) ** 2 / eB;
  return Math.min(1, 2 * (1 - normalCdf(Math.sqrt(chi2))));
}

// Users each arm needs, at the rates seen, for a difference of this size to show at the 5 % level with
// 80 % power (a plain verdict says how many more).
export function usersNeeded(pA: number, pB: number): number | null {
  const d = Math.abs(pB - pA);
  if (d === 0) return null;
  const zPower = 0.8416212335729143;
  return Math.ceil(((Z95 + zPower) ** 2 * (pA * (1 - pA) + pB * (1 - pB))) / (d * d));
}
