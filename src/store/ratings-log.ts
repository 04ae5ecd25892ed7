// Which users' feedback changed after a point of the ratings log (ratings-store.ts writes it, a
// training reads it): a served model's data end at such a point, and its lists hold only for the
// users the log names after it.
import type { Redis } from 'ioredis';
import type { StreamEntry } from './change-tail.js';
import { keys } from './keys.js';

// Entries per read: one bulk write's entry holds up to a million 24-byte records, so pages stay small.
const PAGE = 16;

export class RatingsLog {
  constructor(private readonly redis: Redis) {}

  stream(db: string): string {
    return keys.ratingsLog(db);
  }

  // The user rows named after `after`, and the last entry read (tail the stream from there).
  async usersSince(db: string, after: string): Promise<{ users: number[]; last: string }> {
    const users: number[] = [];
    let last = after;
    for (;;) {
      const page = await this.redis.xrange(keys.ratingsLog(db), `(${last}`, '+', 'COUNT', PAGE);
      for (const [id, fields] of page) {
        for (let k = 0; k + 1 < fields.length; k += 2) if (fields[k] === 'u') users.push(...usersIn(fields[k + 1]!));
        last = id;
      }
      if (page.length < PAGE) return { users, last };
    }
  }
}

export const entryUsers = (e: StreamEntry): number[] => usersIn(e.fields.get('u') ?? '');

const usersIn = (u: string): number[] => (u === '' ? [] : u.split(',').map(Number));
