// Rows of a CSV or Parquet file, a batch at a time, as objects keyed by column name: CSV streamed
// through csv-parse, Parquet read by row ranges with hyparquet (neither file is held whole).
import { createReadStream } from 'node:fs';
import { parse, type CastingContext } from 'csv-parse';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { RunStopped } from './run-stopped.js';

export type FileRow = Record<string, unknown>;

export function formatOf(file: string): 'csv' | 'parquet' | undefined {
  const lower = file.toLowerCase();
  return lower.endsWith('.csv') ? 'csv' : lower.endsWith('.parquet') ? 'parquet' : undefined;
}

export async function* batchesOf(file: string, size: number): AsyncGenerator<FileRow[]> {
  if (formatOf(file) === 'parquet') {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const total = Number(metadata.num_rows);
    for (let start = 0; start < total; start += size) {
      yield (await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: Math.min(total, start + size) })) as FileRow[];
    }
    return;
  }
  // Values stay text: the server parses ids by the database's types and says which value is wrong.
  // An empty cell is null (a value left out), a quoted empty one ("") the empty string.
  const cast = (value: string, context: CastingContext) => (value === '' && !context.header && !context.quoting ? null : value);
  const parser = createReadStream(file).pipe(parse({ columns: true, skip_empty_lines: true, bom: true, cast }));
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
