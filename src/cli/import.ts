// `recd import ratings|interactions FILE`: the rows of a CSV or Parquet file sent to a running recd
// through its bulk endpoints, a batch per request, so that an import is checked and written exactly
// as the API's writes are. A batch the server refuses for one bad row (it names the row) is sent
// again without it, and the row is counted rejected with the server's reason.
import { FEEDBACK_KINDS, type FeedbackKind } from './kinds.js';
import { endpointOf, send } from './http.js';
import { batchesOf, type FileRow } from './rows.js';
import { RunStopped } from './run-stopped.js';
import { Progress } from './progress.js';

// Rows per request: well under the bulk endpoints' limits (1,000,000 rows, RECD_MAX_BODY_BYTES)
// and small enough that a refused row costs little to send again.
export const BATCH_ROWS = 10_000;
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

// A file value as the API wants it: numbers for numeric fields (text that is no number is sent as
// is, for the server to name), ids as text or numbers, empty cells left out.
function record(row: FileRow, numbers: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === '' || v === null || v === undefined) continue;
    let value: unknown = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
    if (numbers.includes(k) && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) value = Number(value);
    out[k] = value;
  }
  return out;
}

export async function importFile(kind: FeedbackKind, file: string, url: string, token: string, progress: Progress): Promise<ImportSummary> {
  const { write: method, path, numbers } = FEEDBACK_KINDS[kind];
  const endpoint = endpointOf(url, path);
  const started = Date.now();
  const summary: ImportSummary = { written: 0, rejected: new Map(), rejectedCount: 0, seconds: 0 };
  let first = 1;
  for await (const rows of batchesOf(file, BATCH_ROWS)) {
    await sendRows(rows.map((row, i) => [first + i, record(row, numbers)] as const));
    first += rows.length;
    progress.update(summary.written, summary.rejectedCount);
  }
  summary.seconds = (Date.now() - started) / 1000;
  progress.done(summary.written, summary.rejectedCount);
  return summary;

  // Sends [file row, record] pairs. A refusal naming a row (`ratings[12].rating`) drops that row and
  // sends the rest again; one naming none (a bad id says only `user_id`) is narrowed down by halves
  // to the row it is about. Any other failure stops the run.
  async function sendRows(pending: (readonly [number, Record<string, unknown>])[]): Promise<void> {
    while (pending.length > 0) {
      const res = await send(endpoint, method, token, { [kind]: pending.map(([, r]) => r) });
      if (res.ok) {
        summary.written += pending.length;
        return;
      }
      if (res.status !== 400 || res.body === undefined) throw new RunStopped(`${method} ${endpoint.pathname}: ${res.status} ${res.text.slice(0, 500)}`);
      const named = badRow(kind, res.body);
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
    const field = String(body.error_data?.field ?? '').replace(/^\w+\[\d+\]\.?/, '');
    const reason = `${body.error_data?.name ?? body.error_name}${field ? ` ${field}` : ''}`;
    const list = summary.rejected.get(reason) ?? [];
    list.push({ row, message: body.message.replace(/^\w+\[\d+\]/, 'row') });
    summary.rejected.set(reason, list);
    summary.rejectedCount++;
  }
}

interface Refusal {
  error_name: string;
  message: string;
  error_data?: { name?: string; field?: string };
}

// The index of the row a refusal names (`ratings[12].rating`), if it names one.
function badRow(kind: FeedbackKind, body: unknown): number | undefined {
  const field = (body as { error_data?: { field?: unknown } } | undefined)?.error_data?.field;
  const m = typeof field === 'string' ? new RegExp(`^${kind}\\[(\\d+)\\]`).exec(field) : null;
  return m ? Number(m[1]) : undefined;
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
