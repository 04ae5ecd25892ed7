// Small pieces every page uses: error and notice boxes, a value cell, ages and dates.
import type { ComponentChildren } from 'preact';

// alert: announced as it appears (an action's or a read's failure); false for an error that is
// data shown on the page (a failed task's), which would otherwise be announced at each poll.
export function ErrorBox({ error, alert = true }: { error: string | null | undefined; alert?: boolean }) {
  if (!error) return null;
  return (
    <p class="error" role={alert ? 'alert' : undefined}>
      {error}
    </p>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card" aria-label={title}>
      <header class="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function Value({ v }: { v: unknown }) {
  if (v === null || v === undefined) return <span class="muted">—</span>;
  if (Array.isArray(v)) return <span>{v.map(String).join(', ')}</span>;
  if (typeof v === 'object') return <code>{JSON.stringify(v)}</code>;
  return <span>{String(v)}</span>;
}

export const when = (seconds: number | null | undefined): string => (seconds ? new Date(seconds * 1000).toLocaleString() : '—');

export function age(seconds: number): string {
  const s = Math.max(0, Date.now() / 1000 - seconds);
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  if (s < 129600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

// One rule per line or comma-free entry: filters and reranking as the API's compact strings.
export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

// Name–value pairs (each pair in its own div, which a dl may hold).
export function Facts({ rows, testid }: { rows: [string, ComponentChildren][]; testid?: string }) {
  return (
    <dl class="facts" data-testid={testid}>
      {rows.map(([k, v]) => (
        <div key={k} class="fact">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
