// Rows of a CSV or Parquet file, a batch at a time, as objects keyed by column name: CSV streamed
// through csv-parse, Parquet read by row ranges with hyparquet (neither file is held whole).
import { createReadStream } from 'node:fs';
import { parse, type CastingContext } from 'csv-parse';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { RunStopped } from './run-stopped.js';

export type FileRow = Record<string, unknown>;

// Parquet rows decoded per read at most (a row group may hold millions): some MB of objects.
const PARQUET_SPAN_ROWS = 50_000;

export function formatOf(file: string): 'csv' | 'parquet' | undefined {
  const lower = file.toLowerCase();
  return lower.endsWith('.csv') ? 'csv' : lower.endsWith('.parquet') ? 'parquet' : undefined;
}

// emptyStrings: tell a quoted empty CSV cell ("", the empty string) from an empty one (a value left
// out). It makes csv-parse describe every cell to a cast function, about 5 times slower, so it is
// asked for only when a value may be the empty string.
export async function* batchesOf(file: string, size: number, emptyStrings = false): AsyncGenerator<FileRow[]> {
  if (formatOf(file) === 'parquet') {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
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
  const cast = (value: string, context: CastingContext) => (value === '' && !context.header && !context.quoting ? null : value);
  const parser = createReadStream(file).pipe(parse({ columns: true, skip_empty_lines: true, bom: true, ...(emptyStrings ? { cast } : {}) }));
  let batch: FileRow[] = [];
  try {
    for await (const row of parser) {
      batch.push(row as FileRow);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    // csv-parse names the line; a file that cannot be read says why.
    throw new RunStopped(`${file}: ${(err as Error).message}`);
  }
  if (batch.length > 0) yield batch;
}
