// Reads the spec's markdown tables into plain rows: the Errors table, every "<error class> `NAME`"
// mention, and the endpoint tables that carry a Roles column. Used by spec-tables.ts only.

export interface ErrorClassRow {
  error_name: string;
  status: number;
  code: number;
  names: string[];
  // The row's cells as the spec writes them, so a reader (and the unit test) can check the numbers above.
  cells: { HTTP: string; error_code: string; 'error_data.name values': string };
  line: number;
}

export interface Mention {
  text: string;
  section: string;
  line: number;
}

export interface RoleRow {
  section: string;
  method: string;
  path: string;
  roles: string;
  line: number;
}

// Splits a table row on the pipes outside backticks.
export function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let code = false;
  for (const ch of line.trim().replace(/^\|/, '').replace(/\|$/, '')) {
    if (ch === '`') code = !code;
    if (ch === '|' && !code) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const firstNumber = (cell: string) => {
  const m = /\d+/.exec(cell);
  if (!m) throw new Error(`no number in ${JSON.stringify(cell)}`);
  return Number(m[0]);
};
// Every backticked name, including those in parentheses ("endpoints also use ...").
export const backtickedNames = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);

// The table that follows the "## Errors" heading.
export function errorsTable(md: string): ErrorClassRow[] {
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
  const out: ErrorClassRow[] = [];
  for (let i = head + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const c = cells(lines[i]!);
    out.push({
      error_name: c[cName]!,
      status: firstNumber(c[cHttp]!),
      code: firstNumber(c[cCode]!),
      names: backtickedNames(c[cNames]!),
      cells: { HTTP: c[cHttp]!, error_code: c[cCode]!, 'error_data.name values': c[cNames]! },
      line: i + 1,
    });
  }
  return out;
}

// Every "<Class> `NAME`" (with any "or `NAME`" after it) anywhere in the spec, for the given classes.
export function mentions(md: string, classes: string[]): Mention[] {
  const pattern = new RegExp(`\\b(${classes.join('|')}) \`([A-Z][A-Z0-9_]*)\`((?: or \`[A-Z][A-Z0-9_]*\`)*)`, 'g');
  const out: Mention[] = [];
  let section = '';
  md.split('\n').forEach((line, i) => {
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) section = h[1]!.trim();
    for (const m of line.matchAll(pattern)) out.push({ text: m[0], section, line: i + 1 });
  });
  return out;
}

// Rows of every markdown table with Method, Path and Roles columns, with the heading they sit under.
export function rolesRows(md: string): RoleRow[] {
  const lines = md.split('\n');
  const rows: RoleRow[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) section = h[1]!.trim();
    if (!line.startsWith('|') || !/^\|[\s|:-]+\|$/.test((lines[i + 1] ?? '').trim())) continue;
    // A header row followed by its separator row.
    const header = cells(line).map((c) => c.toLowerCase());
    const m = header.indexOf('method');
    const p = header.indexOf('path');
    const r = header.indexOf('roles');
    i += 2;
    for (; i < lines.length && lines[i]!.startsWith('|'); i++) {
      if (r < 0 || m < 0 || p < 0) continue;
      const c = cells(lines[i]!);
      rows.push({ section, method: c[m]!, path: c[p]!.replace(/`/g, ''), roles: c[r]!, line: i + 1 });
    }
    i--;
  }
  return rows;
}
