// Loaders for the MovieLens files (read in place, never copied) and a seeded RNG.
//
// Where the data is: $RECD_DATASETS, else bench/data/ of this repository (git-ignored: the MovieLens
// terms forbid redistribution, so the files must never be committed). Either directory holds
// ml-100k/ (u.data, u1.base … u5.test) and ml-latest-small/ (ratings.csv, movies.csv) as GroupLens
// publishes them. To use a copy kept elsewhere: RECD_DATASETS=/path/to/datasets node dist/bench/…
// (or a symlink bench/data -> that copy).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { csrFromTriples, type Csr } from '../../native-free-kernels/csr.js';

// Resolved from the compiled file (dist/bench/quality/) so the default does not depend on the cwd.
const DEFAULT_DIR = fileURLToPath(new URL('../../../bench/data', import.meta.url));
export const DATASETS = process.env.RECD_DATASETS || DEFAULT_DIR;

// A missing file says which directory was searched and how to point elsewhere, not just ENOENT.
function readData(path: string): string {
  try {
    return readFileSync(`${DATASETS}/${path}`, 'utf8');
  } catch (err) {
    throw new Error(
      `${DATASETS}/${path}: ${(err as Error).message}; set RECD_DATASETS to a directory holding the MovieLens copies (see bench/quality/data.ts)`,
    );
  }
}

import { mulberry32 as rng } from '../../native-free-kernels/random.js';

/** mulberry32: small, fast, seeded; returns uniform [0, 1). */
export { rng };

/** Ratings as parallel arrays with dense 0-based ids. */
export interface Ratings {
  users: number;
  items: number;
  u: Uint32Array;
  i: Uint32Array;
  r: Float32Array;
}

export function toCsr(d: Ratings): Csr {
  return csrFromTriples(d.users, d.items, d.u, d.i, d.r);
}

/** ml-100k split file (user \t item \t rating \t ts, 1-based ids); users/items fixed to 943/1682. */
export function loadMl100kFile(name: string): Ratings {
  const lines = readData(`ml-100k/${name}`).split('\n');
  const u: number[] = [],
    i: number[] = [],
    r: number[] = [];
  for (const line of lines) {
    if (line.length === 0) continue;
    const p = line.split('\t');
    u.push(Number(p[0]) - 1);
    i.push(Number(p[1]) - 1);
    r.push(Number(p[2]));
  }
  return { users: 943, items: 1682, u: Uint32Array.from(u), i: Uint32Array.from(i), r: Float32Array.from(r) };
}

/** The data lines of a CSV file under DATASETS (its header and empty lines left out). */
export function csvLines(path: string): string[] {
  return readData(path)
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.length > 0);
}

/** ml-latest-small ratings.csv with users and movies remapped to dense ids (ascending original id). */
export function loadMlLatestSmall(): Ratings {
  const uo: number[] = [],
    io: number[] = [],
    r: number[] = [];
  for (const line of csvLines('ml-latest-small/ratings.csv')) {
    const p = line.split(',');
    uo.push(Number(p[0]));
    io.push(Number(p[1]));
    r.push(Number(p[2]));
  }
  const dense = (ids: number[]): [Uint32Array, number] => {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const map = new Map<number, number>();
    sorted.forEach((v, k) => map.set(v, k));
    return [Uint32Array.from(ids, (v) => map.get(v)!), sorted.length];
  };
  const [u, users] = dense(uo);
  const [i, items] = dense(io);
  return { users, items, u, i, r: Float32Array.from(r) };
}

/** Per-user random split: floor(testFraction·n) of each user's ratings go to test (seeded shuffle). */
export function perUserSplit(d: Ratings, testFraction: number, seed: number): { train: Ratings; test: Ratings } {
  const next = rng(seed);
  const byUser: number[][] = Array.from({ length: d.users }, () => []);
  for (let e = 0; e < d.u.length; e++) byUser[d.u[e]!]!.push(e);
  const trainE: number[] = [],
    testE: number[] = [];
  for (const list of byUser) {
    for (let k = list.length - 1; k > 0; k--) {
      const j = Math.floor(next() * (k + 1));
      const t = list[k]!;
      list[k] = list[j]!;
      list[j] = t;
    }
    const nTest = Math.floor(testFraction * list.length);
    for (let k = 0; k < list.length; k++) (k < nTest ? testE : trainE).push(list[k]!);
  }
  const pick = (es: number[]): Ratings => ({
    users: d.users,
    items: d.items,
    u: Uint32Array.from(es, (e) => d.u[e]!),
    i: Uint32Array.from(es, (e) => d.i[e]!),
    r: Float32Array.from(es, (e) => d.r[e]!),
  });
  return { train: pick(trainE), test: pick(testE) };
}
