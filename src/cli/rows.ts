// Rows of a CSV or Parquet file, a batch at a time, as objects keyed by column name: CSV streamed
// through csv-parse, Parquet read by row ranges with hyparquet (neither file is held whole).
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { FileMismatch } from './file-mismatch.js';
import { RunStopped } from './run-stopped.js';

export type FileRow = Record<string, unknown>;

// Parquet rows decoded per read at most (a row group may hold millions): some MB of objects.
const PARQUET_SPAN_ROWS = 50_000;

export function formatOf(file: string): 'csv' | 'parquet' | undefined {
  const lower = file.toLowerCase();
  return lower.endsWith('.csv') ? 'csv' : lower.endsWith('.parquet') ? 'parquet' : undefined;
}

// emptyStrings: tell a quoted empty CSV cell ("", the empty string) from an empty one (a value left
// out, null). csv-parse says which cells were quoted only to a cast function, which makes it about 5
// times slower; its raw record text costs little, and only a record with an empty cell is looked at.
// columns: told the file's column names before the first batch (also when it has no rows).
export async function* batchesOf(
  file: string,
  size: number,
  emptyStrings = false,
  columns: (names: string[]) => void = () => {},
): AsyncGenerator<FileRow[]> {
  if (formatOf(file) === 'parquet') {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    columns(parquetSchema(metadata).children.map((c) => c.element.name));
    // A read decodes whole pages (and without an offset index whole row groups), so rows are read a
    // span of many batches at a time, within one row group, then handed out a batch at a time.
    let groupStart = 0;
    for (const group of metadata.row_groups) {
      const groupEnd = groupStart + Number(group.num_rows);
      for (let start = groupStart; start < groupEnd; start += Math.max(size, PARQUET_SPAN_ROWS)) {
        const end = Math.min(groupEnd, start + Math.max(size, PARQUET_SPAN_ROWS));
        const rows = (await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: end })) as FileRow[];
        for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
      }
      groupStart = groupEnd;
    }
    return;
  }
  // Values stay text: the server parses ids by the database's types and says which value is wrong.
  // The header is told outside csv-parse's callback, which would wrap what it throws.
  let names: string[] | undefined;
  let told = false;
  const tell = () => {
    if (told || names === undefined) return;
    told = true;
    columns(names);
  };
  const header = (line: string[]) => (names = line);
  const parser = createReadStream(file).pipe(parse({ columns: header, skip_empty_lines: true, bom: true, raw: emptyStrings }));
  let batch: FileRow[] = [];
  try {
    for await (const got of parser) {
      tell();
      batch.push(emptyStrings ? emptyLeftOut(got as { record: FileRow; raw: string }) : (got as FileRow));
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof FileMismatch) throw err;
    // csv-parse names the line; a file that cannot be read says why.
    throw new RunStopped(`${file}: ${(err as Error).message}`);
  }
  tell();
  if (batch.length > 0) yield batch;
}

// A record's empty cells as null, but for those written "" (the empty string).
function emptyLeftOut({ record, raw }: { record: FileRow; raw: string }): FileRow {
  const names = Object.keys(record);
  if (!names.some((n) => record[n] === '')) return record;
  const quoted = quotedEmptyFields(raw);
  names.forEach((n, i) => {
    if (record[n] === '' && !quoted.has(i)) record[n] = null;
  });
  return record;
}

// Positions of the fields written "" in the raw text of one record (csv-parse's defaults: comma
// delimiter, double quote, a quote inside quotes doubled; csv-parse has already checked the syntax).
export function quotedEmptyFields(raw: string): Set<number> {
  const out = new Set<number>();
  const end = (at: number) => at >= raw.length || raw[at] === ',' || raw[at] === '\n' || raw[at] === '\r';
  let field = 0;
  let i = 0;
  for (;;) {
    if (raw[i] === '"') {
      if (raw[i + 1] === '"' && end(i + 2)) out.add(field);
      else {
        // Past the closing quote: the next quote that is not doubled.
        for (i++; ; ) {
          const q = raw.indexOf('"', i);
          if (q < 0) return out;
          if (raw[q + 1] === '"') i = q + 2;
          else {
            i = q + 1;
            break;
          }
        }
      }
    }
    const comma = raw.indexOf(',', i);
    if (comma < 0) return out;
    i = comma + 1;
    field++;
  }
}
