// Rotation: items shown to the same user within rotation_hours are pushed down by rotation_rate (1: not
// shown again in that time), from the user's shown items that impressions keep (store/outcomes-store.ts).
// A listing's pages stay consistent: the items pushed down are those shown before its first page, whose
// time the cursor carries.
import type { OutcomesStore } from '../../store/outcomes-store.js';
import { decodeCursor } from '../ids/cursors.js';
import type { Rotation } from '../scenarios/scenario-walk.js';

export const ROTATION_HOURS_MAX = 720;
const ROTATION_HOURS_DEFAULT = 24;
export const ROTATED_CURSOR = 'o1';

// What a request's pages push down: the items (canonical ids), by how much, and since when they count.
export interface Rotated {
  items: Set<string>;
  rate: number;
  t0: number; // ms: the first page's time
}

export class RotationReads {
  // store undefined: impressions are off (RECD_IMPRESSIONS=0), nothing is known to have been shown.
  constructor(
    private readonly store: OutcomesStore | undefined,
    private readonly windowHours: number,
  ) {}

  // user: the request's user (canonical id), undefined for a session without user_id.
  async read(
    db: string,
    user: string | undefined,
    rotation: Rotation,
    cursor: string | undefined,
    warnings: string[],
  ): Promise<Rotated | undefined> {
    if (user === undefined) {
      warnings.push('rotation applies to a user: give user_id (the request names no user, so nothing was pushed down)');
      return undefined;
    }
    if (this.store === undefined) {
      warnings.push('rotation needs impressions (RECD_IMPRESSIONS=1): nothing was pushed down');
      return undefined;
    }
    let hours = rotation.hours ?? ROTATION_HOURS_DEFAULT;
    if (hours > this.windowHours) {
      warnings.push(
        `rotation_hours is at most the attribution window (${this.windowHours} hours, RECD_ATTRIBUTION_WINDOW_SECONDS): ${this.windowHours} used`,
      );
      hours = this.windowHours;
    }
    const t0 = cursor === undefined ? Date.now() : decodeCursor(ROTATED_CURSOR, cursor, 3, Number.MAX_SAFE_INTEGER)[2]!;
    const items = await this.store.shownBetween(db, `u:${user}`, t0 - hours * 3_600_000, t0);
    return { items: new Set(items), rate: rotation.rate, t0 };
  }
}
