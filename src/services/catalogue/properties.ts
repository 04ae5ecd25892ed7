// Property definitions of a database (items and users): names, value types, the repeated flag.
import { LIMITS } from '../../config/limits.js';
import { duplicated, notFound, wrongData } from '../../errors/api-error.js';
import type { PropertiesStore, PropertyDef, PropertyKind } from '../../store/properties-store.js';

export type { PropertyKind };
import type { Catalogues } from './catalogues.js';
import type { DatabaseService } from '../databases/databases.js';
import { VALUE_TYPE_NAMES, valueType } from './value-types.js';

export interface PropertyInput {
  property_name: string;
  value_type: string;
  repeated?: boolean;
  metadata?: unknown;
}

// Whether something (a scenario) still uses an item property; scenarios answer it when they land.
export type PropertyUsage = (db: string, propertyName: string) => Promise<boolean>;

const NAME = /^[A-Za-z0-9._-]+$/;
const RESERVED = new Set(['item_id', 'user_id']);

const ERRORS = {
  item: { duplicated: 'DUPLICATED_ITEM_PROPERTY', notFound: 'ITEM_PROPERTY_NOT_FOUND' },
  user: { duplicated: 'DUPLICATED_USER_PROPERTY', notFound: 'USER_PROPERTY_NOT_FOUND' },
} as const;

export const publicProperty = (kind: PropertyKind, p: PropertyDef) =>
  kind === 'item'
    ? { property_name: p.property_name, value_type: p.value_type, repeated: p.repeated, metadata: p.metadata ?? {} }
    : { property_name: p.property_name, value_type: p.value_type, repeated: p.repeated };

export class PropertyService {
  constructor(
    private readonly store: PropertiesStore,
    private readonly databases: DatabaseService,
    private readonly catalogues: Catalogues,
    private readonly inUse: PropertyUsage = async () => false,
  ) {}

  async list(_org: string, db: string, kind: PropertyKind) {
    const defs = await this.store.list(db, kind);
    if (defs === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    return { properties: defs.map((d) => publicProperty(kind, d)), warnings: [] as string[] };
  }

  async create(_org: string, db: string, kind: PropertyKind, input: PropertyInput): Promise<void> {
    checkName(input.property_name);
    if (!valueType(input.value_type)) {
      throw wrongData(
        'WRONG_DATA_TYPE',
        `value_type ${JSON.stringify(input.value_type)} is not supported; use one of ${VALUE_TYPE_NAMES}`,
        { field: 'value_type' },
      );
    }
    const def: Omit<PropertyDef, 'seq'> = {
      property_name: input.property_name,
      value_type: input.value_type,
      repeated: input.repeated ?? false,
    };
    if (kind === 'item') def.metadata = input.metadata ?? {};
    const r = await this.store.create(db, kind, def);
    if (r === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
    if (r === 'taken') throw duplicated(ERRORS[kind].duplicated, 'property', input.property_name);
    await this.catalogues.reached(db, r.change);
  }

  async get(org: string, db: string, kind: PropertyKind, name: string) {
    return publicProperty(kind, await this.find(org, db, kind, name));
  }

  async remove(org: string, db: string, kind: PropertyKind, name: string): Promise<void> {
    const def = await this.find(org, db, kind, name);
    if (kind === 'item' && (await this.inUse(db, def.property_name))) {
      throw wrongData(
        'ITEM_PROPERTY_FOUND_IN_SCENARIO',
        `item property ${def.property_name} is used by a scenario: change the scenario first`,
      );
    }
    const change = await this.store.remove(db, kind, name);
    if (change === undefined) throw notFound(ERRORS[kind].notFound, 'property', name);
    await this.catalogues.reached(db, change);
  }

  private async find(org: string, db: string, kind: PropertyKind, name: string): Promise<PropertyDef> {
    await this.databases.get(org, db);
    const def = await this.store.get(db, kind, name);
    if (!def) throw notFound(ERRORS[kind].notFound, 'property', name);
    return def;
  }
}

function checkName(name: string): void {
  if (name.length > LIMITS.nameMax || !NAME.test(name)) {
    throw wrongData(
      'WRONG_PARAMETER',
      `property_name ${JSON.stringify(name)} must be 1 to ${LIMITS.nameMax} letters, digits, dots, underscores or hyphens`,
      {
        field: 'property_name',
      },
    );
  }
  if (RESERVED.has(name.toLowerCase())) throw wrongData('WRONG_PARAMETER', `property_name ${name} is reserved`, { field: 'property_name' });
}
