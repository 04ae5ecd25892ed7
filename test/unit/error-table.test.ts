// src/errors/table.ts against the spec's "Errors" table (docs/spec/errors.json): classes, HTTP statuses, error codes and error_data.name values.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ERROR_TABLE, EXTENSION_NAMES, type ErrorClass } from '../../src/errors/table.js';

// The spec's table as the repository carries it (docs/spec-tables.md); the compiled file lives in dist/test/unit/.
const DATA_PATH = fileURLToPath(new URL('../../../docs/spec/errors.json', import.meta.url));
const data = JSON.parse(readFileSync(DATA_PATH, 'utf8')) as {
  classes: {
    error_name: string;
    status: number;
    code: number;
    names: string[];
    cells: Record<'HTTP' | 'error_code' | 'error_data.name values', string>;
  }[];
  mentions: { text: string; line: number }[];
};
// Every "<Class> `NAME`" the spec writes, one a line: the text the checks below search.
const specMentions = data.mentions.map((m) => m.text).join('\n');

// Names the spec uses outside the Errors table, in an endpoint's Errors column.
const USED_BY_ENDPOINTS: Record<string, string> = { DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND: 'ServerUnavailable' };

interface SpecClass {
  errorName: string;
  status: number;
  code: number;
  names: string[];
}

const firstNumber = (cell: string) => {
  const m = /\d+/.exec(cell);
  if (!m) throw new Error(`no number in ${JSON.stringify(cell)}`);
  return Number(m[0]);
};
// Every backticked name, including those in parentheses ("endpoints also use ...").
const backticked = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);

const specClasses: SpecClass[] = data.classes.map((c) => ({ errorName: c.error_name, status: c.status, code: c.code, names: c.names }));
const table: Record<string, ErrorClass> = ERROR_TABLE;

t.test('the spec Errors table parses', async (t) => {
  // The numbers and names the data file gives are those its own copy of the spec's cells say.
  for (const c of data.classes) {
    t.equal(c.status, firstNumber(c.cells.HTTP), `${c.error_name}: status from ${JSON.stringify(c.cells.HTTP)}`);
    t.equal(c.code, firstNumber(c.cells.error_code), `${c.error_name}: code from ${JSON.stringify(c.cells.error_code)}`);
    t.same(c.names, backticked(c.cells['error_data.name values']), `${c.error_name}: names from its cell`);
  }
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
    t.match(specMentions, new RegExp(`${errorName} \`${name}\``), `the spec writes ${errorName} ${name}`);
    t.ok(table[errorName]?.names.includes(name), `${errorName} has ${name}`);
  }
  // Every "<Class> `NAME`" (and "or `NAME`" after it) anywhere in the spec is in that class.
  const classes = specClasses.map((c) => c.errorName).join('|');
  const mention = new RegExp(`\\b(${classes}) \`([A-Z][A-Z0-9_]*)\`((?: or \`[A-Z][A-Z0-9_]*\`)*)`, 'g');
  let found = 0;
  for (const m of specMentions.matchAll(mention)) {
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
