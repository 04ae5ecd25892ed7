// `recd export KIND FILE`: every row of a database's feedback, items or users, read a page at a time
// through the bulk listing endpoints of a running recd, into CSV (csv-stringify, streamed) or Parquet
// (hyparquet-writer: the columns are held in memory and written at the end).
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { parquetWriteFile } from 'hyparquet-writer';
import { propertiesOf } from './entity-columns.js';
import { endpointOf, send } from './http.js';
import { ENTITY_KINDS, FEEDBACK_KINDS, isEntityKind, type Kind } from './kinds.js';
import type { Progress } from './progress.js';
import { csvCell, parquetId, parquetProperty, type PropertyDef } from './property-cells.js';
import { formatOf } from './rows.js';
import { RunStopped } from './run-stopped.js';

// The listing endpoints' largest pages (LIMITS.ratingsAmtMax, LIMITS.bulkListingAmtMax).
const FEEDBACK_PAGE_ROWS = 16_384;
const ENTITY_PAGE_ROWS = 500;

async function* pages(kind: Kind, path: string, amt: number, url: string, token: string): AsyncGenerator<Record<string, unknown>[]> {
  const endpoint = endpointOf(url, path);
  let cursor: string | undefined;
  for (;;) {
    endpoint.search = new URLSearchParams({ amt: String(amt), ...(cursor ? { cursor } : {}) }).toString();
    const res = await send(endpoint, 'GET', token);
    if (!res.ok) throw new RunStopped(`GET ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
    const page = res.body as Record<string, unknown> & { has_next: boolean; next_cursor?: string };
    const rows = page[kind];
    if (!Array.isArray(rows)) throw new RunStopped(`GET ${endpoint.pathname}: an answer without ${kind}: ${res.text.slice(0, 500)}`);
    yield rows as Record<string, unknown>[];
    if (!page.has_next) return;
    cursor = page.next_cursor;
  }
}

// A file's columns: their names, a CSV cell and a Parquet column of each.
interface Layout {
  path: string;
  amt: number;
  names: string[];
  cell(column: number, value: unknown): unknown;
  parquet(column: number, values: unknown[]): { schema: object[]; data: unknown[] };
  // An empty string is quoted in CSV, so that it reads back as one and not as a value left out.
  quoteEmpty: boolean;
}

function feedbackLayout(kind: keyof typeof FEEDBACK_KINDS): Layout {
  const { path, columns, numbers } = FEEDBACK_KINDS[kind];
  const names = [...columns] as string[];
  return {
    path,
    amt: FEEDBACK_PAGE_ROWS,
    names,
    cell: (_, v) => v ?? '',
    // Numeric fields as doubles; ids as parquetId makes them.
    parquet: (i, values) =>
      (numbers as readonly string[]).includes(names[i]!)
        ? { schema: [{ name: names[i]!, type: 'DOUBLE', repetition_type: 'OPTIONAL' }], data: values.map((v) => v ?? null) }
        : parquetId(names[i]!, values),
    quoteEmpty: false,
  };
}

function entityLayout(kind: keyof typeof ENTITY_KINDS, defs: PropertyDef[]): Layout {
  const { path, idField } = ENTITY_KINDS[kind];
  return {
    path,
    amt: ENTITY_PAGE_ROWS,
    names: [idField, ...defs.map((d) => d.property_name)],
    cell: (i, v) => (i === 0 ? v : csvCell(defs[i - 1]!, v)),
    parquet: (i, values) => (i === 0 ? parquetId(idField, values) : parquetProperty(defs[i - 1]!, values)),
    quoteEmpty: true,
  };
}

export async function exportFile(
  kind: Kind,
  file: string,
  url: string,
  token: string,
  progress: Progress,
): Promise<{ rows: number; seconds: number }> {
  const started = Date.now();
  const layout = isEntityKind(kind) ? entityLayout(kind, await propertiesOf(kind, url, token)) : feedbackLayout(kind);
  const { names } = layout;
  let rows = 0;
  if (formatOf(file) === 'csv') {
    const csv = stringify({ header: true, columns: names, ...(layout.quoteEmpty ? { quoted_match: /^$/ } : {}) });
    const out = csv.pipe(createWriteStream(file));
    for await (const page of pages(kind, layout.path, layout.amt, url, token)) {
      for (const row of page)
        if (!csv.write(names.map((c, i) => layout.cell(i, row[c])))) await new Promise<void>((r) => csv.once('drain', () => r()));
      rows += page.length;
      progress.update(rows, 0);
    }
    csv.end();
    await finished(out);
  } else {
    const data: unknown[][] = names.map(() => []);
    for await (const page of pages(kind, layout.path, layout.amt, url, token)) {
      for (const row of page) names.forEach((c, i) => data[i]!.push(row[c]));
      rows += page.length;
      progress.update(rows, 0);
    }
    const columns = names.map((name, i) => ({ name, ...layout.parquet(i, data[i]!) }));
    parquetWriteFile({
      filename: file,
      columnData: columns.map(({ name, data }) => ({ name, data: data as never })),
      schema: [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => c.schema)] as never,
    });
  }
  progress.done(rows, 0);
  return { rows, seconds: (Date.now() - started) / 1000 };
}
