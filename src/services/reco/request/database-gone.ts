// A deleted database's recommendations answer as every other route answers its token: 404
// DATABASE_NOT_FOUND. Without this they failed for want of what the delete removed — the model
// (503 DATABASE_NOT_READY, which clients retry for good), a table, the item or the user (404 of
// those) — so the database is looked up only when a recommendation fails that way: answers cost
// nothing more, and a warm request still answers in the same tick, allocating nothing more.
import { ApiError, notFound } from '../../../errors/api-error.js';
import type { DatabasesStore } from '../../../store/databases-store.js';
import type { Maybe } from '../maybe.js';

export class DatabaseGone {
  constructor(private readonly databases: Pick<DatabasesStore, 'get'>) {}

  // The answer, with a failure a missing database explains turned into DATABASE_NOT_FOUND. Only a
  // pending answer is looked at: one at hand came from what this process holds of the database, which
  // it drops as soon as the database is deleted (here or, announced, in another process).
  check<T>(db: string, answer: Maybe<T>): Maybe<T> {
    return answer instanceof Promise ? answer.catch((err: unknown) => this.explained(db, err)) : answer;
  }

  private async explained(db: string, err: unknown): Promise<never> {
    if (mayBeGone(err) && (await this.databases.get(db)) === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    throw err;
  }
}

// What a deleted database's request fails with: something not found, or no model yet.
function mayBeGone(err: unknown): boolean {
  return err instanceof ApiError && (err.errorName === 'NotFoundError' || err.data.name === 'DATABASE_NOT_READY');
}
