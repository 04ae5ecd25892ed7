// RECD_* variables no setting reads: most are typos of one that does (RECD_WORKES), which would
// otherwise be silently ignored. Warned about, not refused: an operator's environment may hold
// variables of another recd version.
import { CONFIG_TABLE } from './env.js';

export interface UnknownSetting {
  variable: string;
  closest: string;
}

// `alsoRead`: RECD_ variables read outside the settings table (the supervisor's worker number).
export function unknownSettings(env: Record<string, string | undefined>, alsoRead: string[]): UnknownSetting[] {
  const known = [...CONFIG_TABLE.map((row) => row.env), ...alsoRead];
  return Object.keys(env)
    .filter((name) => name.startsWith('RECD_') && !known.includes(name))
    .sort()
    .map((variable) => ({ variable, closest: closestOf(variable, known) }));
}

function closestOf(name: string, known: string[]): string {
  let best = known[0]!;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

// Levenshtein distance, one row at a time.
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
