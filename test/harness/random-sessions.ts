// Seeded session-to-items bodies, each a few ratings of random items: the soak's pool, and the
// benches' check before any load (under load, load.ts makes a new session per request).
import { mulberry32 } from '../../native-free-kernels/random.js';

export interface SessionPool {
  count: number; // bodies in the pool
  ratings: number; // ratings in each body
  items: readonly number[] | number; // the item ids drawn from: a list, or n for 1..n
  seed: number;
}

// `count` JSON bodies, each a sessionBody of `ratings` items. Seeded: the same pool every run, so runs
// and builds answer the same sessions.
export function sessionBodies(p: SessionPool): string[] {
  checkSession(p.items, p.ratings);
  const rand = mulberry32(p.seed);
  const bodies: string[] = [];
  for (let b = 0; b < p.count; b++) bodies.push(sessionBody(p.items, p.ratings, rand));
  return bodies;
}

// A JSON body `{"ratings":[{"item_id":…,"rating":…},…]}` of `ratings` distinct items drawn uniformly
// from all of `items` (a list, or n for 1..n), each rated 1–10 uniformly, by `rand` (in [0, 1)).
export function sessionBody(items: readonly number[] | number, ratings: number, rand: () => number): string {
  const n = typeof items === 'number' ? items : items.length;
  const picked = new Set<number>();
  while (picked.size < ratings) {
    const k = Math.floor(rand() * n);
    picked.add(typeof items === 'number' ? k + 1 : items[k]!);
  }
  return JSON.stringify({ ratings: [...picked].map((id) => ({ item_id: id, rating: 1 + Math.floor(rand() * 10) })) });
}

// Throws unless `ratings` distinct items can be drawn from `items`.
export function checkSession(items: readonly number[] | number, ratings: number): void {
  const n = typeof items === 'number' ? items : items.length;
  if (!(Number.isInteger(ratings) && ratings >= 1 && ratings <= n))
    throw new Error(`a session of ${ratings} distinct items needs at least that many items, not ${n}`);
}
