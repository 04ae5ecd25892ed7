// Rows bulk writes stored, by kind: plain counts that only grow, read by the metrics when scraped.
export interface Ingested {
  ratings: number;
  interactions: number; // users' and sessions' interactions-bulk/ writes, once applied
  items: number;
  users: number;
}

export const noneIngested = (): Ingested => ({ ratings: 0, interactions: 0, items: 0, users: 0 });
