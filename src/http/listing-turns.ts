// Listings share a budget of rows within a database. A page of a listing may hold thousands of rows
// (recd's own limits: 16,384 ratings or interactions), and formatting one holds the event loop for
// milliseconds; two clients of one tenant paging 2,048 ratings as fast as they can kept several such
// answers in each process's queue, and every other tenant's request waited behind all of them
// (another tenant's p99 66 ms; bench/tenants/heavy-user.ts). Here one database's listings in flight
// hold at most ROWS_IN_FLIGHT rows in each process (a larger page runs alone), first come first
// served: small pages run side by side, large ones take turns, and another database's request waits
// for about one large page at most. The queue is bounded by the requests in flight (http/server.ts).
// One database in turns for all its listings was tried first: its own clients' small pages then
// queued behind each other (bench/tenants/heavy-user.ts).
export const ROWS_IN_FLIGHT = 2048;

interface Waiting {
  rows: number;
  go: () => void;
}

interface Database {
  rows: number; // held by the listings running
  waiting: Waiting[];
}

export class ListingTurns {
  private readonly dbs = new Map<string, Database>();

  // work() once `rows` fit in the database's budget after every listing that waited before it.
  async run<T>(db: string, rows: number, work: () => T | Promise<T>): Promise<T> {
    let d = this.dbs.get(db);
    if (!d) this.dbs.set(db, (d = { rows: 0, waiting: [] }));
    // A waiting listing's rows are counted by the one that lets it go.
    if (d.waiting.length > 0 || !fits(d, rows)) await new Promise<void>((go) => d.waiting.push({ rows, go }));
    else d.rows += rows;
    try {
      return await work();
    } finally {
      d.rows -= rows;
      while (d.waiting.length > 0 && fits(d, d.waiting[0]!.rows)) {
        const next = d.waiting.shift()!;
        d.rows += next.rows;
        next.go();
      }
      if (d.rows === 0 && d.waiting.length === 0) this.dbs.delete(db);
    }
  }

  // Databases with a listing running or waiting (tests).
  get busy(): number {
    return this.dbs.size;
  }
}

const fits = (d: Database, rows: number) => d.rows === 0 || d.rows + rows <= ROWS_IN_FLIGHT;
