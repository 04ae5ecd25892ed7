// The ratings log (ratings-store.ts and interactions-scripts.ts append to it): what a training run
// replays after the last snapshot, and which users' feedback changed after a point of it (a served
// model's data end at such a point, and its lists hold only for the users the log names after it).
import type { Connection } from './redis.js';
import type { StreamEntry } from './change-tail.js';
import { keys } from './keys.js';

// One entry: `op` put|infer|delete|delete-user, `u`/`i` the dense indices it names
// (comma-separated), `r` packed 24-byte records for put and infer.
export interface LogEntry {
  op: string;
  u: string;
  i: string;
  r: Uint8Array | undefined;
}

// Entries per read: one bulk write's entry holds up to a million 24-byte records (a 65,536-rating
// upload's entry is ~2 MB), so a page of 2,000 could be a reply of gigabytes, parsed in one piece
// and outlasting the command timeout (a training of 20M uploaded ratings failed so): pages of a
// few dozen MB at most.
const PAGE = 16;

export class RatingsLog {
  constructor(private readonly redis: Connection) {}

  stream(db: string): string {
    return keys.ratingsLog(db);
  }

  // Entries after `after`, and the last entry id read.
  async entriesSince(db: string, after: string): Promise<{ entries: LogEntry[]; last: string }> {
    const entries: LogEntry[] = [];
    const last = await this.read(db, after, PAGE, (e) =>
      entries.push({ op: e.op?.toString() ?? '', u: e.u?.toString() ?? '', i: e.i?.toString() ?? '', r: e.r }),
    );
    return { entries, last };
  }

  // The user rows named after `after`, and the last entry read (tail the stream from there).
  async usersSince(db: string, after: string): Promise<{ users: number[]; last: string }> {
    const users: number[] = [];
    const last = await this.read(db, after, PAGE, (e) => users.push(...usersIn(e.u?.toString() ?? '')));
    return { users, last };
  }

  // Calls `each` with the fields of every entry after `after`, `page` entries a read; returns the last id.
  private async read(db: string, after: string, page: number, each: (fields: Record<string, Buffer>) => void): Promise<string> {
    let last = after;
    for (;;) {
      const entries = await this.redis.xrangeBuffer(keys.ratingsLog(db), `(${last}`, '+', 'COUNT', page);
      for (const [id, list] of entries) {
        const fields: Record<string, Buffer> = {};
        for (let k = 0; k + 1 < list.length; k += 2) fields[list[k]!.toString()] = list[k + 1]!;
        each(fields);
        last = id.toString();
      }
      if (entries.length < page) return last;
    }
  }
}

export const entryUsers = (e: StreamEntry): number[] => usersIn(e.fields.get('u') ?? '');

const usersIn = (u: string): number[] => (u === '' ? [] : u.split(',').map(Number));
