// The current database's use of each of its quotas (GET databases/current/usage/), for the Overview.
import { ok } from '../api';
import type { Usage as UsageAnswer } from '../answers';
import { useApp } from '../app-context';
import { ErrorBox, Section } from './bits';
import { useLoad } from '../hooks';

type Quota = Exclude<keyof UsageAnswer, 'warnings'>;

// A quota is highlighted from this share of its limit on: room for a last batch or two, not for growth.
const NEAR = 0.9;

// In the order of docs/api-choices.md's Quotas table. `per`: what a null `used` means (a limit on one
// record, run or second, not on a total the database holds).
const ROWS: { quota: Quota; label: string; unit?: string; per?: string }[] = [
  { quota: 'items', label: 'Items known' },
  { quota: 'users', label: 'Users known' },
  { quota: 'ratings', label: 'Ratings' },
  { quota: 'interactions', label: 'Interactions' },
  { quota: 'item_properties', label: 'Item properties' },
  { quota: 'user_properties', label: 'User properties' },
  { quota: 'record_bytes', label: "One record's properties", unit: 'bytes', per: 'per record' },
  { quota: 'training_seconds', label: 'One training run', unit: 's', per: 'per run (none ended yet)' },
  { quota: 'requests_per_second', label: 'Requests', unit: 'per second', per: 'per second' },
];

// Rounded down, so that "90 %" is always highlighted; a share too small to see is not shown as 0.
function percent(share: number): string {
  if (share > 0 && share < 0.001) return '< 0.1 %';
  return `${(Math.floor(share * 1000) / 10).toLocaleString()} %`;
}

export function Usage({ reloadOn }: { reloadOn?: unknown }) {
  const { client, session } = useApp();
  const usage = useLoad(() => ok(client.GET('/databases/current/usage/')), [session.database!.id, reloadOn]);
  const u = usage.data;
  return (
    <Section
      title="Usage"
      actions={
        <button type="button" onClick={usage.reload}>
          Refresh
        </button>
      }
    >
      <ErrorBox error={usage.error} />
      <table aria-label="quota usage">
        <thead>
          <tr>
            <th scope="col">Quota</th>
            <th scope="col">Used</th>
            <th scope="col">Limit</th>
            <th scope="col">Share used</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <QuotaRow key={row.quota} {...row} use={u?.[row.quota]} />
          ))}
        </tbody>
      </table>
      {u?.warnings?.map((w) => (
        <p key={w} class="warning">
          {w}
        </p>
      ))}
      <p class="muted small">
        Ids known stay counted after their records are deleted; the quotas are the same for every database of this recd (its operator sets
        them).
      </p>
    </Section>
  );
}

function QuotaRow({
  quota,
  label,
  unit,
  per,
  use,
}: {
  quota: Quota;
  label: string;
  unit?: string;
  per?: string;
  use: { used: number | null; limit: number } | undefined;
}) {
  const withUnit = (n: number) => <span class="nowrap">{unit ? `${n.toLocaleString()} ${unit}` : n.toLocaleString()}</span>;
  if (!use) {
    return (
      <tr data-quota={quota}>
        <th scope="row">{label}</th>
        <td>…</td>
        <td>…</td>
        <td></td>
      </tr>
    );
  }
  const { used, limit } = use;
  // Only the request rate may be unlimited (RECD_RATE_LIMIT_PER_SECOND 0); the other quotas are at least 1.
  const unlimited = limit === 0;
  const share = used !== null && !unlimited ? used / limit : undefined;
  const near = share !== undefined && share >= NEAR;
  return (
    <tr data-quota={quota} class={near ? 'quota-near' : undefined}>
      <th scope="row">{label}</th>
      <td>
        {used === null ? (
          <span class="muted">{per}</span>
        ) : (
          <>
            {withUnit(used)}
            {quota === 'training_seconds' && <span class="muted"> (last retrain)</span>}
          </>
        )}
      </td>
      <td>{unlimited ? <span class="muted">no limit</span> : withUnit(limit)}</td>
      <td class="share">
        {share !== undefined && (
          <>
            {/* The meter's colours follow the highlight: its optimum is all of it below the highlight, none above. */}
            <meter
              min={0}
              max={limit}
              value={Math.min(used!, limit)}
              low={near ? 0 : limit}
              high={near ? 0 : limit}
              optimum={0}
              aria-label={`${label}: share of the limit used`}
            />
            {percent(share)}
            {near && <strong>{share > 1 ? ' over the limit' : share === 1 ? ' at the limit' : ' near the limit'}</strong>}
          </>
        )}
      </td>
    </tr>
  );
}
