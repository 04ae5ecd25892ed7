// The item or user properties of the token's database, and the columns of a file matched to them
// (case-insensitively, as the API names properties) before an import sends any row.
import { endpointOf, send } from './http.js';
import { FileMismatch } from './file-mismatch.js';
import { ENTITY_KINDS, type EntityKind } from './kinds.js';
import type { PropertyDef } from './property-cells.js';
import { RunStopped } from './run-stopped.js';

export async function propertiesOf(kind: EntityKind, url: string, token: string): Promise<PropertyDef[]> {
  const endpoint = endpointOf(url, ENTITY_KINDS[kind].properties);
  const res = await send(endpoint, 'GET', token);
  if (!res.ok) throw new RunStopped(`GET ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
  return (res.body as { properties: PropertyDef[] }).properties;
}

// Every column but the id column must be a property: a misspelt column would otherwise be dropped
// (the server ignores fields that are no property) and the import would look complete.
export function matchColumns(kind: EntityKind, file: string, columns: string[], defs: PropertyDef[]): Map<string, PropertyDef> {
  const { idField } = ENTITY_KINDS[kind];
  const byName = new Map(defs.map((d) => [d.property_name.toLowerCase(), d]));
  const byColumn = new Map<string, PropertyDef>();
  const unknown: string[] = [];
  for (const c of columns) {
    if (c === idField) continue;
    const def = byName.get(c.toLowerCase());
    if (def) byColumn.set(c, def);
    else unknown.push(c);
  }
  const known = defs.length > 0 ? defs.map((d) => d.property_name).join(', ') : 'none';
  const singular = kind.slice(0, -1);
  if (!columns.includes(idField)) throw new FileMismatch(`${file}: no ${idField} column (columns: ${columns.join(', ')})`);
  if (unknown.length > 0) {
    throw new FileMismatch(
      `${file}: column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not ${singular} properties of the database (its ${singular} properties: ${known}); nothing was sent`,
    );
  }
  return byColumn;
}
