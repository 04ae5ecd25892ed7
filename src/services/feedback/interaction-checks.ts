// Interaction rows as a request brings them: each checked (its fields, its owner and item), grouped
// into a batch with distinct owners and items, and the Idempotency-Key a write may carry.
import { wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { InteractionBatch, InteractionRow, Owner } from '../../store/interaction-rows.js';
import { pack } from '../../store/msgpack-values.js';
import { parseId, type Parsed } from '../ids/request-ids.js';
import { checkType } from './interaction-rules.js';
import { checkTimestamp, required } from './ratings.js';

const ROW_FIELDS = new Set(['item_id', 'interaction_type', 'timestamp', 'properties']);
// A recommendation_id longer than recd makes names no answer: not looked up.
const RECOMMENDATION_ID_MAX = 64;
export const OWNER_FIELD = { user: 'user_id', session: 'session_id' } as const;

// Every row checked and grouped into a batch with distinct owners and items.
export function check(auth: Claims, owner: Owner, rows: unknown[], ownerId: Parsed | undefined) {
  const unknown = new Unknown();
  const owners = new Map<string, number>();
  const items = new Map<string, number>();
  const batch: InteractionBatch = { owners: [], items: [], rows: [] };
  const types = new Set<string>();
  const ownerField = OWNER_FIELD[owner];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const at = `interactions[${r}]`;
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw wrongData('WRONG_DATA_TYPE', `${at} is not an object`, { field: at });
    const o = ownerId ?? parseId(auth, owner, required(row, ownerField, at), true);
    const i = parseId(auth, 'item', required(row, 'item_id', at), true);
    const checked = checkRow(row, at, unknown, ownerId === undefined ? ownerField : undefined);
    let op = owners.get(o.key);
    if (op === undefined) owners.set(o.key, (op = owners.size));
    let ip = items.get(i.key);
    if (ip === undefined) items.set(i.key, (ip = items.size));
    checked.owner = op;
    checked.item = ip;
    types.add(checked.type);
    batch.rows.push(checked);
  }
  batch.owners = [...owners.keys()];
  batch.items = [...items.keys()];
  return { batch, types, warnings: unknown.warnings() };
}

// Fields of interaction rows that are not used, named once per request.
export class Unknown {
  private names: Set<string> | undefined;

  add(name: string): void {
    (this.names ??= new Set()).add(name);
  }

  warnings(): string[] {
    return this.names ? [`fields ignored in interactions: ${[...this.names].join(', ')}`] : [];
  }
}

// One interaction's own fields (at: where it sits in the body, '' for the single-interaction
// endpoints, whose errors name their fields plainly); its owner and item are checked by the caller.
// ownerField: the row's owner field, when rows carry one.
export function checkRow(row: Record<string, unknown>, at: string, unknown: Unknown, ownerField: string | undefined): InteractionRow {
  const field = (name: string) => (at === '' ? name : `${at}.${name}`);
  const type = checkType(row.interaction_type, field('interaction_type'));
  const timestamp = checkTimestamp(row.timestamp, field('timestamp'));
  const props = row.properties;
  if (props !== undefined && props !== null && (typeof props !== 'object' || Array.isArray(props))) {
    throw wrongData('WRONG_DATA_TYPE', `${field('properties')} must be an object`, { field: field('properties') });
  }
  for (const k in row) if (!ROW_FIELDS.has(k) && k !== ownerField) unknown.add(k);
  let hasProps = false;
  if (props !== undefined && props !== null) for (const _ in props) hasProps = true;
  const rec = hasProps ? (props as Record<string, unknown>).recommendation_id : undefined;
  return {
    owner: 0,
    item: 0,
    type,
    timestamp,
    properties: hasProps ? pack(props) : undefined,
    rating: 0,
    replace: false,
    recommendation: typeof rec === 'string' && rec.length <= RECOMMENDATION_ID_MAX ? rec : undefined,
  };
}

// An Idempotency-Key: 1 to 255 visible ASCII characters (a UUID is a good one); empty: none.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!IDEMPOTENCY_KEY.test(raw)) {
    throw wrongData('WRONG_PARAMETER', 'the Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for instance)', {
      field: 'Idempotency-Key',
    });
  }
  return raw;
}
