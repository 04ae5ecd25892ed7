// Items and users one at a time: identifiers checked against the database's ID types, property
// values against their definitions, then written atomically through the entities store.
import type { Logger } from 'pino';
import { ApiError, notFound, wrongData } from '../errors/api-error.js';
import type { Claims } from '../http/types.js';
import type { EntitiesStore, EntityKind, WriteMode } from '../store/entities-store.js';
import type { PropertiesStore, PropertyDef } from '../store/properties-store.js';
import { pack, unpack } from '../store/records.js';
import { idType, type IdValue } from './id-types.js';
import { valueType } from './value-types.js';

export type { EntityKind };

const NAMES = {
  item: { idField: 'item_id', idError: 'INCORRECT_ITEM_ID_TYPE', notFound: 'ITEM_NOT_FOUND', created: 'item_created', modified: 'item_modified' },
  user: { idField: 'user_id', idError: 'INCORRECT_USER_ID_TYPE', notFound: 'USER_NOT_FOUND', created: 'user_created', modified: 'user_modified' },
} as const;

interface Parsed {
  key: string; // canonical id as stored
  value: IdValue; // canonical id as JSON shows it
}

export class EntityService {
  constructor(
    private readonly store: EntitiesStore,
    private readonly properties: PropertiesStore,
    private readonly logger: Logger,
  ) {}

  async get(auth: Claims, db: string, kind: EntityKind, rawId: string) {
    const id = parseId(auth, kind, rawId, false);
    const [defs, record] = await Promise.all([this.definitions(db, kind), this.store.read(db, kind, id.key)]);
    if (!record) throw notFound(NAMES[kind].notFound, kind, id.value);
    const out: Record<string, unknown> = { [NAMES[kind].idField]: id.value };
    // Values of properties deleted since are not shown.
    for (const [field, bytes] of record.values) {
      const def = defs.get(field);
      if (def) out[def.property_name] = unpack(bytes);
    }
    return { [kind]: out, warnings: [] as string[] };
  }

  // PUT: replaces every value. wait=false answers 202 once the values are checked, and writes after.
  async put(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, wait: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const { fields, warnings } = await this.check(db, kind, id, values, 'replace');
    if (!wait) {
      this.store.write(db, kind, id.key, 'replace', fields).catch((err) => this.logger.error({ err, db, kind, id: id.key }, 'background write failed'));
      return { accepted: true, warnings };
    }
    await this.written(db, kind, id, 'replace', fields);
    return { accepted: false, warnings };
  }

  // PATCH: changes the listed values only; null removes a value.
  async patch(auth: Claims, db: string, kind: EntityKind, rawId: string, values: Record<string, unknown>, createIfMissing: boolean) {
    const id = parseId(auth, kind, rawId, true);
    const { fields, warnings } = await this.check(db, kind, id, values, 'merge');
    const r = await this.written(db, kind, id, createIfMissing ? 'merge' : 'merge-existing', fields);
    return { [NAMES[kind].created]: r.created, [NAMES[kind].modified]: r.modified, warnings };
  }

  // Removes the property values; the entity stays known (its ratings and interactions are kept).
  async remove(auth: Claims, db: string, kind: EntityKind, rawId: string): Promise<void> {
    const id = parseId(auth, kind, rawId, false);
    await this.definitions(db, kind); // DATABASE_NOT_FOUND for a deleted database
    await this.store.remove(db, kind, id.key);
  }

  private async written(db: string, kind: EntityKind, id: Parsed, mode: WriteMode, fields: Map<string, Buffer | null>) {
    const r = await this.store.write(db, kind, id.key, mode, fields);
    if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
    if (r.kind === 'missing') throw notFound(NAMES[kind].notFound, kind, id.value);
    return r;
  }

  private async definitions(db: string, kind: EntityKind): Promise<Map<string, PropertyDef>> {
    const defs = await this.properties.list(db, kind);
    if (defs === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return new Map(defs.map((d) => [d.property_name.toLowerCase(), d]));
  }

  // Every value checked against its property before anything is written; unknown fields are named in a warning.
  private async check(db: string, kind: EntityKind, id: Parsed, values: Record<string, unknown>, mode: 'replace' | 'merge') {
    const defs = await this.definitions(db, kind);
    const fields = new Map<string, Buffer | null>();
    const ignored: string[] = [];
    for (const [name, value] of Object.entries(values)) {
      if (name === NAMES[kind].idField) {
        if (String(value) !== id.key) throw wrongData('WRONG_PARAMETER', `${name} in the body differs from the one in the path`, { field: name });
        continue;
      }
      const def = defs.get(name.toLowerCase());
      if (!def) {
        ignored.push(name);
        continue;
      }
      const key = name.toLowerCase();
      if (value === null) {
        if (mode === 'merge') fields.set(key, null);
        continue;
      }
      fields.set(key, pack(checkValue(def, value, kind, id)));
    }
    const warnings = ignored.length > 0 ? [`not defined as ${kind} properties, ignored: ${ignored.join(', ')}`] : [];
    return { fields, warnings };
  }
}

function checkValue(def: PropertyDef, value: unknown, kind: EntityKind, id: Parsed): unknown {
  const type = valueType(def.value_type)!;
  const fail = (why: string) =>
    wrongData('WRONG_DATA_TYPE', `property ${def.property_name} of ${kind} ${JSON.stringify(id.value)}: ${why}`, { property: def.property_name, [NAMES[kind].idField]: id.value });
  if (def.repeated) {
    if (!Array.isArray(value)) throw fail(`a repeated property takes a list of ${def.value_type} values`);
    return value.map((v) => {
      const r = type.check(v);
      if (!r.ok) throw fail(r.why);
      return r.value;
    });
  }
  if (Array.isArray(value)) throw fail(`takes one ${def.value_type} value, not a list`);
  const r = type.check(value);
  if (!r.ok) throw fail(r.why);
  return r.value;
}

function idTypeName(auth: Claims | undefined, kind: EntityKind): string | undefined {
  return auth?.dbt?.[kind === 'item' ? 0 : 1];
}

// Where properties are written, an identifier cannot be falsy (0 or empty).
function parseId(auth: Claims, kind: EntityKind, raw: string, writing: boolean): Parsed {
  const typeName = idTypeName(auth, kind);
  const type = typeName === undefined ? undefined : idType(typeName);
  if (!type) throw new ApiError('ServerError', 'SERVER_ERROR', 'the token carries no identifier types for its database');
  const value = type.parse(raw);
  if (value === undefined) throw wrongData(NAMES[kind].idError, `${NAMES[kind].idField} ${JSON.stringify(raw)} is not of type ${typeName}`, { field: NAMES[kind].idField });
  if (writing && (value === 0 || value === '')) {
    throw wrongData(NAMES[kind].idError, `${NAMES[kind].idField} cannot be 0 or empty where properties are written`, { field: NAMES[kind].idField });
  }
  return { key: String(value), value };
}
