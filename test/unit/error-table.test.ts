// src/errors/table.ts against the spec's "Errors" table: classes, HTTP statuses, error codes and error_data.name values.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ERROR_TABLE, EXTENSION_NAMES, type ErrorClass } from '../../src/errors/table.js';

// The compiled file lives in dist/test/unit/; the spec is ../shared/spec/ from the repository root.
const SPEC_PATH = fileURLToPath(new URL('../../../../shared/spec/recommendation-api.md', import.meta.url));
const spec = readFileSync(SPEC_PATH, 'utf8');

// Names the spec uses outside the Errors table, in an endpoint's Errors column.
const USED_BY_ENDPOINTS: Record<string, string> = { DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND: 'ServerUnavailable' };

interface SpecClass {
  errorName: string;
  status: number;
  code: number;
  names: string[];
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

const firstNumber = (cell: string) => {
  const m = /\d+/.exec(cell);
  if (!m) throw new Error(`no number in ${JSON.stringify(cell)}`);
  return Number(m[0]);
};

// The table that follows the "## Errors" heading.
function errorsTable(md: string): SpecClass[] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => /^##\s+Errors\s*$/.test(l));
  if (start < 0) throw new Error('no "## Errors" section in the spec');
  const head = lines.findIndex((l, i) => i > start && l.startsWith('|'));
  const header = cells(lines[head]!);
  const col = (name: string) => {
    const i = header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
    if (i < 0) throw new Error(`Errors table has no ${name} column: ${header.join(' | ')}`);
    return i;
  };
  const [cName, cHttp, cCode, cNames] = [col('error_name'), col('HTTP'), col('error_code'), col('error_data.name values')];
  const out: SpecClass[] = [];
  for (let i = head + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const c = cells(lines[i]!);
    out.push({
      errorName: c[cName]!,
      status: firstNumber(c[cHttp]!),
      code: firstNumber(c[cCode]!),
      // Every backticked name, including those in parentheses ("endpoints also use ...").
      names: [...c[cNames]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
    });
  }
  return out;
}

const specClasses = errorsTable(spec);
const table: Record<string, ErrorClass> = ERROR_TABLE;

t.test('the spec Errors table parses', async (t) => {
  t.same(
    specClasses.map((c) => c.errorName),
    [
      'ServerError',
      'ServerUnavailable',
      'TooManyRequests',
      'AuthError',
      'JwtTokenExpired',
      'RefreshTokenExpired',
      'WrongData',
      'DuplicatedError',
      'ForbiddenError',
      'NotFoundError',
      'MethodNotAllowed',
    ],
  );
  const byName = new Map(specClasses.map((c) => [c.errorName, c]));
  t.match(byName.get('ServerError'), { status: 500, code: 0, names: [] }, '"500 or 502", "0 or missing", none');
  for (const extra of ['CODE_DOES_NOT_MATCH', 'CODE_EXPIRED']) t.ok(byName.get('AuthError')!.names.includes(extra), extra);
  t.ok(byName.get('WrongData')!.names.includes('ITEM_PROPERTY_FOUND_IN_SCENARIO'));
  t.ok(byName.get('DuplicatedError')!.names.includes('DUPLICATED_ACCOUNT'));
  t.ok(byName.get('NotFoundError')!.names.includes('TABLE_IS_EMPTY'), 'the last name of a cell');
});

t.test('every spec error class is in the table with its status, code and names', async (t) => {
  for (const c of specClasses) {
    const row = table[c.errorName];
    t.ok(row, `${c.errorName} exists`);
    if (!row) continue;
    t.equal(row.status, c.status, `${c.errorName} HTTP status`);
    t.equal(row.code, c.code, `${c.errorName} error_code`);
    for (const name of c.names) t.ok(row.names.includes(name), `${c.errorName} has ${name}`);
  }
});

t.test('names the spec does not list are exactly the documented extensions', async (t) => {
  const specNames = new Set(specClasses.flatMap((c) => c.names));
  const tableNames = Object.values(table).flatMap((row) => [...row.names]);
  const extra = [...new Set(tableNames.filter((n) => !specNames.has(n)))].sort();
  t.same(extra, [...new Set([...EXTENSION_NAMES, ...Object.keys(USED_BY_ENDPOINTS)])].sort());
  // Each extension is really an extension, not a spec name listed twice.
  for (const n of EXTENSION_NAMES) t.notOk(specNames.has(n), `${n} is not in the spec table`);
});

t.test('names the endpoint tables attach to a class belong to that class', async (t) => {
  // The spec's endpoint tables use `DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND` as a ServerUnavailable.
  for (const [name, errorName] of Object.entries(USED_BY_ENDPOINTS)) {
    t.match(spec, new RegExp(`${errorName} \`${name}\``), `the spec writes ${errorName} ${name}`);
    t.ok(table[errorName]?.names.includes(name), `${errorName} has ${name}`);
  }
  // Every "<Class> `NAME`" (and "or `NAME`" after it) anywhere in the spec is in that class.
  const classes = specClasses.map((c) => c.errorName).join('|');
  const mention = new RegExp(`\\b(${classes}) \`([A-Z][A-Z0-9_]*)\`((?: or \`[A-Z][A-Z0-9_]*\`)*)`, 'g');
  let found = 0;
  for (const m of spec.matchAll(mention)) {
    const names = [m[2]!, ...[...(m[3] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((x) => x[1]!)];
    for (const name of names) {
      found++;
      t.ok(table[m[1]!]?.names.includes(name), `${m[1]} ${name}`);
    }
  }
  t.ok(found > 20, `${found} class-and-name mentions checked`);
});

t.test('every class of the table is a spec class, and no name is in two classes', async (t) => {
  t.same(Object.keys(table).sort(), specClasses.map((c) => c.errorName).sort());
  const owner = new Map<string, string>();
  for (const [cls, row] of Object.entries(table)) {
    for (const n of row.names) {
      t.notOk(owner.has(n), `${n} only in ${owner.get(n) ?? cls}`);
      owner.set(n, cls);
    }
  }
});
