// The route table against the spec's endpoint tables (docs/spec/roles.json): same roles for every
// registered endpoint, and the whole "Account management and login" table registered.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ALL4, ROLES, type Access } from '../../src/contract/roles.js';
import type { Route } from '../../src/contract/routes.js';
import { allRoutes } from '../../src/routes/index.js';

// The spec's endpoint tables as the repository carries them (docs/spec-tables.md): every row of a table
// with Method, Path and Roles columns, cells as written. The compiled file lives in dist/test/unit/.
const DATA_PATH = fileURLToPath(new URL('../../../docs/spec/roles.json', import.meta.url));

interface SpecRow {
  section: string;
  method: string;
  path: string;
  roles: string;
  line: number;
}

const normalise = (path: string) =>
  path
    .trim()
    .replace(/^\/+/, '')
    .replace(/<(?:str:)?[a-z_]+>/g, '<>');

// The spec's Roles cell as an access value; undefined for wording this test does not know.
function specAccess(cell: string): Access | undefined {
  const text = cell.trim().toLowerCase();
  if (text === 'none') return 'public';
  if (text === 'any logged-in account' || text === 'token in header') return 'authenticated';
  const roles = new Set<string>();
  for (const part of text.split(',').map((s) => s.trim())) {
    if (part === 'all4') ALL4.forEach((x) => roles.add(x));
    else if ((ROLES as readonly string[]).includes(part)) roles.add(part);
    else return undefined;
  }
  return [...roles].sort() as Access;
}

const canonical = (a: Access) => (typeof a === 'string' ? a : [...a].sort().join(','));

const rows = (JSON.parse(readFileSync(DATA_PATH, 'utf8')) as { rows: SpecRow[] }).rows;
const routes: Route[] = allRoutes({} as any);
const registered = new Map(routes.map((r) => [`${r.method} ${normalise(r.path)}`, r]));
const ACCOUNTS_SECTION = 'Account management and login';

t.test('the spec parses into endpoint rows with roles', async (t) => {
  t.ok(rows.length >= 40, `${rows.length} rows with a Roles column`);
  const accountRows = rows.filter((r) => r.section === ACCOUNTS_SECTION);
  t.equal(accountRows.length, 16, 'the account table has 16 endpoints');
  for (const row of rows) {
    t.match(row.method, /^(GET|POST|PUT|PATCH|DELETE)$/, `line ${row.line}: method`);
    t.match(row.path, /^[a-z0-9_<>:/.-]+\/$/i, `line ${row.line}: path`);
    t.not(specAccess(row.roles), undefined, `line ${row.line}: roles ${JSON.stringify(row.roles)} understood`);
  }
  t.same(specAccess('ALL4'), ['backend', 'frontend', 'manager', 'root']);
  t.same(specAccess('root, manager, backend'), ['backend', 'manager', 'root']);
  t.equal(specAccess('none'), 'public');
  t.equal(specAccess('any logged-in account'), 'authenticated');
  t.equal(specAccess('root, emperor'), undefined);
  t.equal(normalise('accounts/service/keys/<str:key_id>/'), normalise('accounts/service/keys/<key_id>/'));
});

t.test('every spec endpoint that is registered has the spec roles', async (t) => {
  let compared = 0;
  for (const row of rows) {
    const route = registered.get(`${row.method} ${normalise(row.path)}`);
    if (!route) continue;
    const want = specAccess(row.roles);
    if (want === undefined) continue; // reported by the parsing test
    compared++;
    t.equal(canonical(route.access), canonical(want), `${row.method} ${row.path} (spec line ${row.line}): ${row.roles}`);
  }
  t.ok(compared >= rows.filter((r) => r.section === ACCOUNTS_SECTION).length, `${compared} endpoints compared`);
});

t.test('every endpoint of "Account management and login" is registered', async (t) => {
  for (const row of rows.filter((r) => r.section === ACCOUNTS_SECTION)) {
    t.ok(registered.has(`${row.method} ${normalise(row.path)}`), `${row.method} ${row.path} (spec line ${row.line})`);
  }
});
