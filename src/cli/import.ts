// `recd import KIND FILE`: the rows of a CSV or Parquet file sent to a running recd through its bulk
// endpoints, a batch per request, so that an import is checked and written exactly as the API's
// writes are. A batch the server refuses for one bad row is sent again without it, and the row is
// counted rejected with the server's reason.
import { matchColumns, propertiesOf } from './entity-columns.js';
import { ENTITY_KINDS, FEEDBACK_KINDS, isEntityKind, type EntityKind, type FeedbackKind, type Kind } from './kinds.js';
import { endpointOf, send } from './http.js';
import { decimalOf, entityRecord, takesEmptyString, type PropertyDef } from './property-cells.js';
import { batchesOf, type FileRow } from './rows.js';
import { RunStopped } from './run-stopped.js';
import type { Progress } from './progress.js';

// Rows per request: well under the bulk endpoints' limits (ratings 1,000,000 rows, items and users
// 100,000; RECD_MAX_BODY_BYTES) and small enough that a refused row costs little to send again.
// Items and users carry more per row and are written in one atomic step per request: fewer.
export const BATCH_ROWS = 10_000;
export const ENTITY_BATCH_ROWS = 1_000;
// Rejected rows shown per reason in the summary.
const SHOWN_PER_REASON = 5;

interface Rejection {
  row: number; // 1-based data row of the file (CSV: line row + 1, after the header)
  message: string;
}

export interface ImportSummary {
  written: number;
  rejected: Map<string, Rejection[]>; // by reason: error name and field without the row number
  rejectedCount: number;
  seconds: number;
}

interface Refusal {
  error_name: string;
  message: string;
  error_data?: Record<string, unknown> & { name?: string; field?: string; property?: string };
}

type ApiRecord = Record<string, unknown>;

// What an import of one kind needs: the request, how a file row becomes a record, and which record
// a refusal is about when it says.
interface Target {
  method: string;
  endpoint: URL;
  key: string; // the body's list: ratings, items, …
  batchRows: number;
  emptyStrings: boolean; // a CSV cell may be the empty string
  columns(names: string[]): void; // checks the file's columns before anything is sent
  record(row: FileRow): ApiRecord;
  idOf?(record: ApiRecord): string | undefined; // records of one request must have distinct ids
  badRow(body: Refusal, records: ApiRecord[]): number | undefined;
}

// The index a refusal's field names: `ratings[12].rating`, or `items.3` (a record with no id).
function namedIndex(key: string, body: Refusal): number | undefined {
  const field = body.error_data?.field;
  const m = typeof field === 'string' ? new RegExp(`^${key}(?:\\[(\\d+)\\]|\\.(\\d+))`).exec(field) : null;
  return m ? Number(m[1] ?? m[2]) : undefined;
}

// A file value as the API wants it: numbers for numeric fields (text that is no number is sent as
// is, for the server to name), ids as text or numbers, empty cells left out.
function feedbackRecord(row: FileRow, numbers: readonly string[]): ApiRecord {
  const out: ApiRecord = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === '' || v === null || v === undefined) continue;
    let value: unknown = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
    if (numbers.includes(k) && typeof value === 'string') value = decimalOf(value) ?? value;
    out[k] = value;
  }
  return out;
}

function feedbackTarget(kind: FeedbackKind, url: string): Target {
  const { write, path, numbers } = FEEDBACK_KINDS[kind];
  return {
    method: write,
    endpoint: endpointOf(url, path),
    key: kind,
    batchRows: BATCH_ROWS,
    emptyStrings: false,
    columns: () => {},
    record: (row) => feedbackRecord(row, numbers),
    badRow: (body) => namedIndex(kind, body),
  };
}

// Refusals of a property value name the id of the item or user (`error_data.item_id`), not its place.
async function entityTarget(kind: EntityKind, file: string, url: string, token: string): Promise<Target> {
  const { write, path, idField } = ENTITY_KINDS[kind];
  const defs = await propertiesOf(kind, url, token);
  let byColumn = new Map<string, PropertyDef>();
  // Ids compared in any case: a request is cut before an id it may already hold (uuid, hex).
  const idOf = (r: ApiRecord) => (r[idField] === undefined ? undefined : String(r[idField]).toLowerCase());
  return {
    method: write,
    endpoint: endpointOf(url, path),
    key: kind,
    batchRows: ENTITY_BATCH_ROWS,
    emptyStrings: defs.some(takesEmptyString),
    columns: (names) => {
      byColumn = matchColumns(kind, file, names, defs);
    },
    record: (row) => entityRecord(row, idField, byColumn),
    idOf,
    badRow(body, records) {
      const named = namedIndex(kind, body);
      if (named !== undefined) return named;
      const id = body.error_data?.[idField];
      if (id === undefined || body.error_name === 'DuplicatedError') return undefined;
      // As sent, else in any case (uuid and hex ids are shown lower-case; bytesN ids are not).
      const exact = records.findIndex((r) => r[idField] !== undefined && String(r[idField]) === String(id));
      const at = exact >= 0 ? exact : records.findIndex((r) => idOf(r) === String(id).toLowerCase());
      return at >= 0 ? at : undefined;
    },
  };
}

export async function importFile(kind: Kind, file: string, url: string, token: string, progress: Progress): Promise<ImportSummary> {
  const target = isEntityKind(kind) ? await entityTarget(kind, file, url, token) : feedbackTarget(kind, url);
  const { method, endpoint, key } = target;
  const started = Date.now();
  const summary: ImportSummary = { written: 0, rejected: new Map(), rejectedCount: 0, seconds: 0 };
  let first = 1;
  for await (const rows of batchesOf(file, target.batchRows, target.emptyStrings, target.columns)) {
    const numbered = rows.map((row, i) => [first + i, target.record(row)] as const);
    for (const part of distinctRuns(numbered)) await sendRows(part);
    first += rows.length;
    progress.update(summary.written, summary.rejectedCount);
  }
  summary.seconds = (Date.now() - started) / 1000;
  progress.done(summary.written, summary.rejectedCount);
  return summary;

  // A batch cut before each id already in it: a file that gives an item twice is written in its
  // order, the later row replacing the earlier, as across batches.
  function distinctRuns(numbered: (readonly [number, ApiRecord])[]): (readonly [number, ApiRecord])[][] {
    if (!target.idOf) return [numbered];
    const runs: (readonly [number, ApiRecord])[][] = [[]];
    let seen = new Set<string>();
    for (const pair of numbered) {
      const id = target.idOf(pair[1]);
      if (id !== undefined && seen.has(id)) {
        runs.push([]);
        seen = new Set();
      }
      if (id !== undefined) seen.add(id);
      runs[runs.length - 1]!.push(pair);
    }
    return runs;
  }

  // Sends [file row, record] pairs. A refusal naming a row drops that row and sends the rest again;
  // one naming none (a bad id says only `user_id`) is narrowed down by halves to the row it is
  // about. Any other failure stops the run.
  async function sendRows(pending: (readonly [number, ApiRecord])[]): Promise<void> {
    while (pending.length > 0) {
      const records = pending.map(([, r]) => r);
      const res = await send(endpoint, method, token, { [key]: records });
      if (res.ok) {
        summary.written += pending.length;
        return;
      }
      if (res.status !== 400 || res.body === undefined)
        throw new RunStopped(`${method} ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
      const named = target.badRow(res.body as Refusal, records);
      if (named === undefined && pending.length > 1) {
        const half = Math.ceil(pending.length / 2);
        await sendRows(pending.slice(0, half));
        await sendRows(pending.slice(half));
        return;
      }
      const bad = named ?? 0;
      if (bad >= pending.length) throw new RunStopped(`${method} ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
      reject(pending[bad]![0], res.body as Refusal);
      pending = [...pending.slice(0, bad), ...pending.slice(bad + 1)];
    }
  }

  function reject(row: number, body: Refusal): void {
    const field = String(body.error_data?.field ?? body.error_data?.property ?? '').replace(/^\w+(\[\d+\]|\.\d+)\.?/, '');
    const reason = `${body.error_data?.name ?? body.error_name}${field ? ` ${field}` : ''}`;
    const list = summary.rejected.get(reason) ?? [];
    list.push({ row, message: body.message.replace(/^\w+\[\d+\]/, 'row') });
    summary.rejected.set(reason, list);
    summary.rejectedCount++;
  }
}

export function summaryText(file: string, s: ImportSummary): string {
  const rate = s.seconds > 0 ? Math.round((s.written + s.rejectedCount) / s.seconds) : s.written + s.rejectedCount;
  const lines = [`${file}: ${s.written} rows written, ${s.rejectedCount} rejected, in ${s.seconds.toFixed(1)} s (${rate} rows/s)`];
  for (const [reason, list] of s.rejected) {
    lines.push(`  rejected ${list.length} × ${reason}:`);
    for (const r of list.slice(0, SHOWN_PER_REASON)) lines.push(`    row ${r.row}: ${r.message}`);
    if (list.length > SHOWN_PER_REASON) lines.push(`    … and ${list.length - SHOWN_PER_REASON} more`);
  }
  return lines.join('\n');
}
