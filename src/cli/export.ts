// `recd export ratings|interactions FILE`: every row of a database's feedback, read a page at a time
// through the bulk listing endpoints of a running recd, into CSV (csv-stringify, streamed) or Parquet
// (hyparquet-writer: the columns are held in memory and written at the end, about 40 bytes a row).
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { parquetWriteFile } from 'hyparquet-writer';
import { endpointOf, send } from './http.js';
import { FEEDBACK_KINDS, type FeedbackKind } from './kinds.js';
import { Progress } from './progress.js';
import { formatOf } from './rows.js';
import { RunStopped } from './run-stopped.js';

// The listing endpoints' largest page (LIMITS.ratingsAmtMax).
const PAGE_ROWS = 16_384;

async function* pages(kind: FeedbackKind, url: string, token: string): AsyncGenerator<Record<string, unknown>[]> {
  const endpoint = endpointOf(url, FEEDBACK_KINDS[kind].path);
  let cursor: string | undefined;
  for (;;) {
    endpoint.search = new URLSearchParams({ amt: String(PAGE_ROWS), ...(cursor ? { cursor } : {}) }).toString();
    const res = await send(endpoint, 'GET', token);
    if (!res.ok) throw new RunStopped(`GET ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
    const page = res.body as Record<string, unknown> & { has_next: boolean; next_cursor?: string };
    yield page[kind] as Record<string, unknown>[];
    if (!page.has_next) return;
    cursor = page.next_cursor;
  }
}

export async function exportFile(kind: FeedbackKind, file: string, url: string, token: string, progress: Progress): Promise<{ rows: number; seconds: number }> {
  const started = Date.now();
  const columns = FEEDBACK_KINDS[kind].columns as readonly string[];
  let rows = 0;
  if (formatOf(file) === 'csv') {
    const csv = stringify({ header: true, columns: [...columns] });
    const out = csv.pipe(createWriteStream(file));
    for await (const page of pages(kind, url, token)) {
      for (const row of page) if (!csv.write(columns.map((c) => row[c] ?? ''))) await new Promise<void>((r) => csv.once('drain', () => r()));
      rows += page.length;
      progress.update(rows, 0);
    }
    csv.end();
    await finished(out);
  } else {
    const data: unknown[][] = columns.map(() => []);
    for await (const page of pages(kind, url, token)) {
      for (const row of page) columns.forEach((c, i) => data[i]!.push(row[c]));
      rows += page.length;
      progress.update(rows, 0);
    }
    parquetWriteFile({ filename: file, columnData: columns.map((name, i) => parquetColumn(name, data[i]!, FEEDBACK_KINDS[kind].numbers as readonly string[])) });
  }
  progress.done(rows, 0);
  return { rows, seconds: (Date.now() - started) / 1000 };
}

// Numeric fields as doubles; ids as 64-bit integers when every one is a number (uint32, uint64
// databases), else as text.
function parquetColumn(name: string, values: unknown[], numbers: readonly string[]) {
  if (numbers.includes(name)) return { name, data: Float64Array.from(values as number[]), type: 'DOUBLE' as const };
  if (values.every((v) => typeof v === 'number')) return { name, data: BigInt64Array.from(values as number[], (v) => BigInt(v)), type: 'INT64' as const };
  return { name, data: values.map(String), type: 'STRING' as const };
}
