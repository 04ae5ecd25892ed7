// Seeded session-to-items bodies, each a few ratings of random items: the soak's pool, and the
// benches' check before any load (under load, load.ts makes a new session per request).
import { mulberry32 } from '../../native-free-kernels/random.js';

export interface SessionPool {
  count: number; // bodies in the pool
  ratings: number; // ratings in each body
  items: readonly number[] | number; // the item ids drawn from: a list, or n for 1..n
  seed: number;
}

// `count` JSON bodies `{"ratings":[{"item_id":…,"rating":…},…]}`, each of `ratings` distinct items drawn
// uniformly from all of `items` and integer ratings drawn uniformly from 1–10. Seeded: the same pool
// every run, so runs and builds answer the same sessions.
export function sessionBodies(p: SessionPool): string[] {
  const n = typeof p.items === 'number' ? p.items : p.items.length;
  if (n < p.ratings) throw new Error(`a session of ${p.ratings} distinct items needs at least that many items, not ${n}`);
  const idAt = (k: number) => (typeof p.items === 'number' ? k + 1 : p.items[k]!);
  const rand = mulberry32(p.seed);
  const bodies: string[] = [];
  for (let b = 0; b < p.count; b++) {
    const picked = new Set<number>();
    while (picked.size < p.ratings) picked.add(idAt(Math.floor(rand() * n)));
    const ratings = [...picked].map((id) => ({ item_id: id, rating: 1 + Math.floor(rand() * 10) }));
    bodies.push(JSON.stringify({ ratings }));
  }
  return bodies;
}
