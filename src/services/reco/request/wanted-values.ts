// Property values a request asks for (items holding them, users sharing them), matched against an
// entity's stored values.
import { notFound, wrongData } from '../../../errors/api-error.js';
import type { PropertyDef } from '../../../store/properties-store.js';
import { valueType } from '../../catalogue/value-types.js';

// Property values asked for, by storage sequence (a list value: any of its elements).
export interface Wanted {
  seq: number;
  keys: Set<string>;
}

// field: the body field holding `values`, named in errors. Each value (or each element of a list) must
// be one the property could hold, as a write of it would be checked.
export function wantedValues(
  values: Record<string, unknown>,
  defs: ReadonlyMap<string, PropertyDef>,
  missing: 'ITEM_PROPERTY_NOT_FOUND' | 'USER_PROPERTY_NOT_FOUND',
  field: string,
): Wanted[] {
  return Object.entries(values).map(([name, v]) => {
    const def = defs.get(name.toLowerCase());
    if (!def) throw notFound(missing, 'property', name);
    const type = valueType(def.value_type)!;
    const list = Array.isArray(v) ? v : [v];
    for (const x of list) {
      const why = type.problem(x);
      if (why !== undefined)
        throw wrongData('WRONG_DATA_TYPE', `${field}.${name}: ${why}`, { field: `${field}.${name}`, property: def.property_name });
    }
    return { seq: def.seq, keys: new Set(list.map(String)) };
  });
}

// Whether an entity's value (or one element of its list) is among the wanted ones.
export function holds(values: ReadonlyMap<number, unknown>, w: Wanted): boolean {
  return [values.get(w.seq)].flat().some((x) => x !== undefined && x !== null && w.keys.has(String(x)));
}
