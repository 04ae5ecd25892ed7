// Identifiers as requests send them: the one schema of an item, user, session or key id given as text
// (a path segment, a body field), and of a name (property, task) in a path. What an id means is
// checked later, against the database's ID types.
import { Type, type TObject, type TString } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';

export const IdText = Type.String({ minLength: 1, maxLength: LIMITS.idMax });
export const PathName = Type.String({ minLength: 1, maxLength: LIMITS.nameMax });

// Path parameters that are all ids, e.g. idParams('user_id', 'item_id').
export function idParams<K extends string>(...names: K[]): TObject<Record<K, TString>> {
  return Type.Object(Object.fromEntries(names.map((n) => [n, IdText])) as Record<K, TString>);
}
