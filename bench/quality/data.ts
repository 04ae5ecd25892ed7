// Loaders for the staged MovieLens files (read in place, never copied) and a seeded RNG.
import { readFileSync } from 'node:fs';
import { csrFromTriples, type Csr } from '../../native-free-kernels/csr.js';

export const DATASETS = process.env['RECD_DATASETS'] ?? '/work/shared/datasets';

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
  const lines = readFileSync(`${DATASETS}/ml-100k/${name}`, 'utf8').split('\n');
  const u: number[] = [], i: number[] = [], r: number[] = [];
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
  return readFileSync(`${DATASETS}/${path}`, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.length > 0);
}

/** ml-latest-small ratings.csv with users and movies remapped to dense ids (ascending original id). */
export function loadMlLatestSmall(): Ratings {
  const uo: number[] = [], io: number[] = [], r: number[] = [];
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
  const trainE: number[] = [], testE: number[] = [];
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
