// Property values a request asks for (items holding them, users sharing them), matched against an
// entity's stored values.
import { notFound } from '../../errors/api-error.js';
import type { PropertyDef } from '../../store/properties-store.js';

// Property values asked for, by storage sequence (a list value: any of its elements).
export interface Wanted {
  seq: number;
  keys: Set<string>;
}

export function wantedValues(values: Record<string, unknown>, defs: ReadonlyMap<string, PropertyDef>, missing: 'ITEM_PROPERTY_NOT_FOUND' | 'USER_PROPERTY_NOT_FOUND'): Wanted[] {
  return Object.entries(values).map(([name, v]) => {
    const def = defs.get(name.toLowerCase());
    if (!def) throw notFound(missing, 'property', name);
    return { seq: def.seq, keys: new Set((Array.isArray(v) ? v : [v]).map(String)) };
  });
}

// Whether an entity's value (or one element of its list) is among the wanted ones.
export function holds(values: ReadonlyMap<number, unknown>, w: Wanted): boolean {
  return [values.get(w.seq)].flat().some((x) => x !== undefined && x !== null && w.keys.has(String(x)));
}
