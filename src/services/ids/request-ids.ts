// Item, user and session identifiers as requests give them: checked against the database's ID
// types (carried by the token), canonical form for storage, JSON form for answers; and the
// frontend rule for users and sessions named in paths.
import { ApiError, forbidden, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import { idType, parseIdBytes, type IdValue } from './id-types.js';

export type IdKind = 'item' | 'user' | 'session';

export interface Parsed {
  key: string; // canonical id as stored
  value: IdValue; // canonical id as JSON shows it
}

const KINDS = {
  item: { at: 0, field: 'item_id', error: 'INCORRECT_ITEM_ID_TYPE' },
  user: { at: 1, field: 'user_id', error: 'INCORRECT_USER_ID_TYPE' },
  session: { at: 2, field: 'session_id', error: 'INCORRECT_SESSION_ID_TYPE' },
} as const;

// Where entities are written (properties, feedback), an identifier cannot be falsy (0 or empty).
export function parseId(auth: Claims, kind: IdKind, raw: unknown, writing: boolean): Parsed {
  const typeName = auth.dbt?.[KINDS[kind].at];
  const type = typeName === undefined ? undefined : idType(typeName);
  if (!type) throw new ApiError('ServerError', 'SERVER_ERROR', 'the token carries no identifier types for its database');
  const value = raw instanceof Uint8Array ? parseIdBytes(type, raw) : type.parse(raw);
  const { field, error } = KINDS[kind];
  if (value === undefined)
    throw wrongData(
      error,
      `${field} ${raw instanceof Uint8Array ? `(${raw.length} bytes)` : JSON.stringify(raw)} is not of type ${typeName}`,
      { field },
    );
  if (writing && (value === 0 || value === '')) throw wrongData(error, `${field} cannot be 0 or empty where data is written`, { field });
  // A decimal id given as text (uint types parse only canonical text to a number) is its own key.
  // One given as a number (a JSON body's) is written by toFixed: String(value) keeps each conversion
  // in V8's number-string cache, an old-generation table whose new entries every scavenge must
  // visit, and random ids of a large catalogue miss it on almost every request (at 100k items,
  // sessions' scavenges took 1.3 ms with String, 1.0 with toFixed: bench/http/reco-synthetic.ts).
  return { key: typeof value === 'string' ? value : typeof raw === 'string' ? raw : value.toFixed(0), value };
}

// For uint32/uint64 id types, the largest id: such an id's canonical form is then the decimal text of the
// number, which lets bulk readers skip parsing each value. undefined for other types.
export function numericIdMax(auth: Claims, kind: IdKind): number | undefined {
  const name = auth.dbt?.[KINDS[kind].at];
  return name === 'uint32' ? 0xffffffff : name === 'uint64' ? Number.MAX_SAFE_INTEGER : undefined;
}

// The JSON form of a stored (canonical) id.
export const shownId = (auth: Claims, kind: IdKind, key: string): IdValue => parseId(auth, kind, key, false).value;

// A user or session named in a path, a query or a body: `~me` stands for the token's own frontend id,
// and a frontend token may name only its own one (without one, none: docs/api-choices.md).
export function pathOwner(auth: Claims, kind: 'user' | 'session', raw: string, writing: boolean): Parsed {
  const own = kind === 'user' ? auth.fuid : auth.fsid;
  const error = kind === 'user' ? 'INCORRECT_FRONTEND_USER_ID' : 'INCORRECT_FRONTEND_SESSION_ID';
  if (raw === '~me') {
    if (own === undefined) throw forbidden(error, `~me names the token's own ${kind}, and this token carries no frontend_${kind}_id`);
    return parseId(auth, kind, own, writing);
  }
  const id = parseId(auth, kind, raw, writing);
  if (own !== undefined && id.key !== own) throw forbidden(error, `this token may act on ${kind} ${JSON.stringify(own)} only`);
  if (own === undefined && auth.role === 'frontend')
    throw forbidden(error, `a frontend token names only its own ${kind}, and this one carries no frontend_${kind}_id`);
  return id;
}
