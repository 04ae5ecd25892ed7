// Explicit ratings: bulk and per-user writes, listings, deletions. Ratings may name users and items
// that have no properties yet: they get dense indices and become known; each write tells the
// training (retrain-on-feedback.ts).
import { LIMITS } from '../../config/limits.js';
import { notFound, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import { isColumnar, type Column, type Rows, type ColumnarBody } from '../../contract/columnar.js';
import type { RatingBatch, StoredRating } from '../../store/rating-records.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import { RatingBatchBuilder } from './rating-batch.js';
import type { Ingested } from '../usage/ingested.js';
import type { TrainingScheduler } from '../../engine/training/scheduler.js';
import { retrainOnFeedback } from '../../engine/training/retrain-on-feedback.js';
import type { FeedbackChanges } from './feedback-changes.js';
import { decodeCursor, encodeCursor } from '../ids/cursors.js';
import { numericIdMax, parseId, pathOwner, shownId, type Parsed } from '../ids/request-ids.js';

const ROW_FIELDS = new Set(['user_id', 'item_id', 'rating', 'timestamp']);

export class RatingService {
  constructor(
    private readonly store: RatingsStore,
    private readonly training: TrainingScheduler,
    private readonly changes: FeedbackChanges,
    private readonly ingested: Ingested,
  ) {}

  // rows: {user_id, item_id, rating, timestamp?}; with `user` given (per-user upload) rows carry no user_id.
  // A columnar body (numpy structured array) is read column by column.
  async put(auth: Claims, db: string, rows: Rows, user?: string) {
    const warnings: string[] = [];
    const batch = isColumnar(rows) ? this.columnarBatch(auth, rows, user, warnings) : this.batch(auth, rows, user, warnings);
    await this.write(db, batch);
    this.ingested.ratings += batch.size;
    return { warnings };
  }

  async putOne(auth: Claims, db: string, rawUser: string, rawItem: string, rating: unknown, timestamp: unknown) {
    const user = pathOwner(auth, 'user', rawUser, true);
    const item = parseId(auth, 'item', rawItem, true);
    const b = new RatingBatchBuilder(1);
    b.add(b.user(user.key), b.item(item.key), checkRating(rating, 'rating'), checkTimestamp(timestamp, 'timestamp'));
    await this.write(db, b.build());
  }

  // Newest first (equal timestamps: the later-known item first); page counts from 1. Reads the page,
  // whatever the user holds.
  async ofUser(auth: Claims, db: string, rawUser: string, amt: number, page: number) {
    const user = pathOwner(auth, 'user', rawUser, false);
    const from = (page - 1) * amt;
    const got = await this.store.ofUser(db, user.key, from, amt);
    if (!got) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return {
      user_ratings: got.ratings.map((r) => ({ item_id: shownId(auth, 'item', r.item), rating: r.rating, timestamp: r.timestamp })),
      has_next: from + amt < got.total,
      warnings: [] as string[],
    };
  }

  // Every rating of the database: users in index order, each user's ratings in item index order.
  async page(auth: Claims, db: string, amt: number, cursor: string | undefined) {
    const [user, item] = cursor ? decodeCursor(CURSOR, cursor, 2) : [0, 0];
    const from = { user: user!, item: item! };
    const p = await this.store.page(db, from, amt);
    if (!p) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return {
      ratings: p.ratings.map((r) => shown(auth, r)),
      has_next: p.next !== undefined,
      next_cursor: p.next ? encodeCursor(CURSOR, [p.next.user, p.next.item]) : '',
      warnings: [] as string[],
    };
  }

  async remove(auth: Claims, db: string, rawUser: string, rawItem?: string): Promise<void> {
    const user = pathOwner(auth, 'user', rawUser, false);
    const item = rawItem === undefined ? undefined : parseId(auth, 'item', rawItem, false);
    const removed = await this.store.remove(db, user.key, item?.key);
    this.changes.wrote(db, [user.key]);
    if (removed === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
  }

  private async write(db: string, batch: RatingBatch): Promise<void> {
    const change = await this.store.put(db, batch);
    this.changes.wrote(db, batch.users);
    if (!change) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    await retrainOnFeedback(this.training, db, change);
  }

  // Checks every row, then groups them by user.
  private batch(auth: Claims, rows: readonly unknown[], user: string | undefined, warnings: string[]): RatingBatch {
    const owner = user === undefined ? undefined : pathOwner(auth, 'user', user, true);
    const b = new RatingBatchBuilder(rows.length);
    const ownerAt = owner && b.user(owner.key);
    let unknown: Set<string> | undefined;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as Record<string, unknown>;
      const at = `ratings[${r}]`;
      if (typeof row !== 'object' || row === null || Array.isArray(row))
        throw wrongData('WRONG_DATA_TYPE', `${at} is not an object`, { field: at });
      const u = ownerAt ?? b.user(parseId(auth, 'user', required(row, 'user_id', at), true).key);
      const i = b.item(parseId(auth, 'item', required(row, 'item_id', at), true).key);
      const rating = checkRating(required(row, 'rating', at), `${at}.rating`);
      const timestamp = checkTimestamp(row.timestamp, `${at}.timestamp`);
      for (const k in row) if (!ROW_FIELDS.has(k) || (owner && k === 'user_id' && row[k] !== undefined)) (unknown ??= new Set()).add(k);
      b.add(u, i, rating, timestamp);
    }
    if (unknown) warnings.push(`fields ignored in ratings: ${[...unknown].join(', ')}`);
    return b.build();
  }

  // The same checks column by column: ids parsed once per distinct value, numbers read from typed arrays.
  private columnarBatch(auth: Claims, rows: ColumnarBody, user: string | undefined, warnings: string[]): RatingBatch {
    const owner = user === undefined ? undefined : pathOwner(auth, 'user', user, true);
    const b = new RatingBatchBuilder(rows.length);
    const column = (name: string) => {
      const c = rows.column(name);
      if (!c) throw wrongData('WRONG_DATA_TYPE', `ratings have no ${name} field`, { field: `ratings.${name}` });
      return c;
    };
    const users = owner ? undefined : idColumn(auth, 'user', column('user_id'), b);
    const ownerAt = owner && b.user(owner.key);
    const items = idColumn(auth, 'item', column('item_id'), b);
    const ratingCol = column('rating');
    const ratings = ratingCol.numbers;
    const tsCol = rows.column('timestamp');
    const stamps = tsCol?.numbers;
    const unknown = rows.names.filter((k) => !ROW_FIELDS.has(k) || (owner && k === 'user_id'));
    if (unknown.length > 0) warnings.push(`fields ignored in ratings: ${unknown.join(', ')}`);
    const now = Date.now() / 1000;
    // Row names for messages are built only for a bad row.
    for (let r = 0; r < rows.length; r++) {
      const u = ownerAt ?? users!(r);
      const i = items(r);
      let rating = ratings ? ratings[r]! : ratingCol.get(r);
      if (typeof rating !== 'number' || !(rating >= LIMITS.ratingMin && rating <= LIMITS.ratingMax))
        rating = checkRating(ratingCol.get(r), `ratings[${r}].rating`);
      let timestamp = stamps ? stamps[r]! : tsCol ? tsCol.get(r) : now;
      if (typeof timestamp !== 'number' || !(timestamp >= LIMITS.timestampMin && timestamp <= LIMITS.timestampMax)) {
        timestamp = checkTimestamp(tsCol!.get(r), `ratings[${r}].timestamp`);
      }
      b.add(u, i as number, rating as number, timestamp as number);
    }
    return b.build();
  }
}

// Positions of a column's ids among the batch's users or items: each distinct value is parsed once.
function idColumn(auth: Claims, kind: 'user' | 'item', col: Column, b: RatingBatchBuilder): (r: number) => number {
  const seen = new Map<unknown, number>();
  const field = `${kind}_id`;
  const position = (v: unknown, r: number) => {
    if (v === undefined || v === null) required({}, field, `ratings[${r}]`);
    const id: Parsed = parseId(auth, kind, v, true);
    return kind === 'user' ? b.user(id.key) : b.item(id.key);
  };
  const nums = col.numbers;
  const max = numericIdMax(auth, kind);
  if (nums && max !== undefined) {
    // uint ids from a numeric column: a valid value is its own canonical id (the decimal text of the
    // number), distinct per value, so it goes to storage as the number.
    const add = kind === 'user' ? (v: number) => b.newUser(v) : (v: number) => b.newItem(v);
    // Exports list a user's ratings together: a run of the same id skips the lookup.
    let last = NaN;
    let lastAt = 0;
    return (r) => {
      const v = nums[r]!;
      if (v === last) return lastAt;
      let p = seen.get(v);
      if (p === undefined) {
        if (!(Number.isInteger(v) && v >= 1 && v <= max)) return position(v, r); // throws the usual error
        seen.set(v, (p = add(v)));
      }
      last = v;
      lastAt = p;
      return p;
    };
  }
  if (nums) {
    return (r) => {
      const v = nums[r]!;
      let p = seen.get(v);
      if (p === undefined) seen.set(v, (p = position(v, r)));
      return p;
    };
  }
  return (r) => {
    const v = col.get(r);
    if (typeof v !== 'string' && typeof v !== 'number') return position(v, r);
    let p = seen.get(v);
    if (p === undefined) seen.set(v, (p = position(v, r)));
    return p;
  };
}

// A row's field that must be there (`at` names the row in messages).
export function required(row: Record<string, unknown>, field: string, at: string): unknown {
  const v = row[field];
  if (v === undefined || v === null)
    throw wrongData('WRONG_DATA_TYPE', at ? `${at} has no ${field}` : `${field} is missing`, { field: at ? `${at}.${field}` : field });
  return v;
}

function checkRating(v: unknown, field: string): number {
  if (typeof v === 'number' && v >= LIMITS.ratingMin && v <= LIMITS.ratingMax) return v;
  throw wrongData(
    'WRONG_DATA_TYPE',
    `${field} must be a number from ${LIMITS.ratingMin} to ${LIMITS.ratingMax}, got ${JSON.stringify(v)}`,
    { field },
  );
}

// Absent: now.
export function checkTimestamp(v: unknown, field: string): number {
  if (v === undefined || v === null) return Date.now() / 1000;
  if (typeof v === 'number' && v >= LIMITS.timestampMin && v <= LIMITS.timestampMax) return v;
  throw wrongData(
    'WRONG_DATA_TYPE',
    `${field} must be a number of seconds from ${LIMITS.timestampMin} to ${LIMITS.timestampMax}, got ${JSON.stringify(v)}`,
    { field },
  );
}

const shown = (auth: Claims, r: StoredRating) => ({
  user_id: shownId(auth, 'user', r.user),
  item_id: shownId(auth, 'item', r.item),
  rating: r.rating,
  timestamp: r.timestamp,
});

// The next (user index, item index).
const CURSOR = 'r1';
