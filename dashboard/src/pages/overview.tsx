// Overview: the organisation's databases, the current one's counts, usage of its quotas, status and model,
// and call counts over time.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ok, openDatabase } from '../api';
import type { Model } from '../answers';
import { useApp, canWrite, isAdmin } from '../app-context';
import { ErrorBox, Facts, Section, age, when } from '../components/bits';
import { TimeChart } from '../components/chart';
import { Usage } from '../components/usage';
import { useAction, useLoad } from '../hooks';

export function Overview() {
  const { session } = useApp();
  return (
    <>
      <h1>Overview</h1>
      {session.role === 'demo_viewer' && !session.database && (
        <p class="notice">Sign in with a database name to see what it holds: a demo_viewer account may read only its counts and usage.</p>
      )}
      {isAdmin(session) && <Databases />}
      {/* A demo_viewer account may read the counts and usage and nothing else of the database. */}
      {session.database && (session.role === 'demo_viewer' ? <Holdings /> : <CurrentDatabase />)}
      {isAdmin(session) && <CallChart />}
    </>
  );
}

// The counts beside the quotas' usage: the same readers (root, manager, backend, demo_viewer).
function Holdings({ reloadOn }: { reloadOn?: unknown }) {
  return (
    <div class="split">
      <Counts reloadOn={reloadOn} />
      <Usage reloadOn={reloadOn} />
    </div>
  );
}

// What the current database holds; read again when `reloadOn` changes (its status, once it is ready).
function Counts({ reloadOn }: { reloadOn?: unknown }) {
  const { client, session } = useApp();
  const counts = useLoad(() => ok(client.GET('/databases/current/counts/')), [session.database!.id, reloadOn]);
  const c = counts.data;
  const shown = (n: number | undefined) => (n === undefined ? '…' : n.toLocaleString());
  return (
    <Section
      title="Counts"
      actions={
        <button type="button" onClick={counts.reload}>
          Refresh
        </button>
      }
    >
      <ErrorBox error={counts.error} />
      <Facts
        testid="db-counts"
        rows={[
          ['Items', shown(c?.items)],
          ['Users', shown(c?.users)],
          ['Ratings', shown(c?.ratings)],
          ['Interactions', shown(c?.interactions)],
          ['Sessions', shown(c?.sessions)],
        ]}
      />
      <p class="muted small">
        Items and users with a record (ids seen only in feedback are not counted); ratings explicit or inferred from interactions; sessions
        holding at least one interaction.
      </p>
    </Section>
  );
}

function Databases() {
  const { client, session } = useApp();
  const list = useLoad(() => ok(client.GET('/databases/', { params: { query: { amt: 100 } } })), [session.database?.id]);
  const action = useAction();
  return (
    <Section
      title="Databases"
      actions={
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      }
    >
      <ErrorBox error={list.error ?? action.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">ID types (item, user, session)</th>
            <th scope="col"></th>
          </tr>
        </thead>
        <tbody>
          {list.data?.databases.map((d) => (
            <tr key={d.id} class={d.id === session.database?.id ? 'selected' : undefined}>
              <td>{d.name}</td>
              <td>{d.description}</td>
              <td>
                {d.item_id_type}, {d.user_id_type}, {d.session_id_type ?? '—'}
              </td>
              <td>
                {d.id === session.database?.id ? (
                  <strong>current</strong>
                ) : (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => void action.run(() => openDatabase(client, d.id))}
                    aria-label={`Open database ${d.name}`}
                  >
                    Open
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && list.data.databases.length === 0 && <p class="muted">No database yet: create one through the API (POST databases/).</p>}
    </Section>
  );
}

function CurrentDatabase() {
  const { client, session } = useApp();
  const db = session.database!;
  // Pending databases are read again until their first model makes them ready.
  const [ready, setReady] = useState(false);
  const status = useLoad(
    () =>
      ok(client.GET('/databases/current/status/')).then((s) => {
        setReady(s.status === 'ready');
        return s;
      }),
    [db.id],
    ready ? undefined : 2000,
  );
  const models = useLoad(
    () => (canWrite(session) ? ok(client.GET('/pretrained-ml/trained-models/')) : Promise.resolve({ models: [] as Model[] })),
    [db.id, ready],
  );
  const model = models.data?.models.find((m) => m.serving) ?? models.data?.models[0];
  return (
    <>
      <Section title={`Database ${db.name}`}>
        <ErrorBox error={status.error ?? models.error} />
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <span class={`status status-${status.data?.status ?? 'unknown'}`} data-testid="db-status">
              {status.data?.status ?? '…'}
            </span>
            {status.data?.status === 'pending' && <span class="muted"> — waiting for the first model (500 ratings start training)</span>}
          </dd>
          <dt>ID types</dt>
          <dd>
            items {db.item_id_type}, users {db.user_id_type}, sessions {db.session_id_type ?? '—'}
          </dd>
        </dl>
        {model ? <ModelFacts model={model} /> : canWrite(session) && <p class="muted">No model trained yet.</p>}
      </Section>
      {/* The API keeps the counts and usage, the business's numbers, from frontend accounts. */}
      {canWrite(session) && <Holdings reloadOn={ready} />}
    </>
  );
}

const METRIC_NAMES: [string, string][] = [
  ['validation_ndcg_at_10', 'popularity_ndcg_at_10'],
  ['validation_recall_at_10', 'popularity_recall_at_10'],
];

function ModelFacts({ model }: { model: Model }) {
  const m = model.metrics;
  return (
    <>
      <h3>Current model</h3>
      <dl class="facts">
        <dt>Kind</dt>
        <dd>
          {model.algorithm}
          {model.factors ? `, ${model.factors} factors` : ''}
        </dd>
        <dt>Age</dt>
        <dd title={when(model.timestamp)}>{age(model.timestamp)}</dd>
        <dt>Trained on</dt>
        <dd data-testid="model-counts">
          {model.n_items.toLocaleString()} items, {model.n_users.toLocaleString()} users, {model.n_ratings.toLocaleString()} ratings
        </dd>
        {METRIC_NAMES.filter(([own]) => m[own] !== undefined).map(([own, pop]) => (
          <Fragment key={own}>
            <dt>{own.replace('validation_', '').replace(/_at_/, '@').toUpperCase()}</dt>
            <dd>
              {m[own]!.toFixed(4)} <span class="muted">(popularity {m[pop]?.toFixed(4) ?? '—'})</span>
            </dd>
          </Fragment>
        ))}
        {m.training_seconds !== undefined && (
          <>
            <dt>Training time</dt>
            <dd>{m.training_seconds.toFixed(1)} s</dd>
          </>
        )}
      </dl>
      {!METRIC_NAMES.some(([own]) => m[own] !== undefined) && (
        <p class="muted small">No validation metrics: this model was trained without a parameter search.</p>
      )}
    </>
  );
}

const WINDOWS: { label: string; seconds: number }[] = [
  { label: 'Last hour', seconds: 3600 },
  { label: 'Last day', seconds: 86400 },
  { label: 'Last week', seconds: 7 * 86400 },
  { label: 'Last 30 days', seconds: 30 * 86400 },
];

function CallChart() {
  const { client } = useApp();
  const [window, setWindow] = useState(0);
  const seconds = WINDOWS[window]!.seconds;
  const counts = useLoad(async () => {
    const end = Math.floor(Date.now() / 1000);
    const answer = await ok(
      client.GET('/call-counts/historical/', { params: { query: { start_timestamp: end - seconds, end_timestamp: end } } }),
    );
    return { ...answer, range: [end - seconds, end] as [number, number] };
  }, [seconds]);
  return (
    <Section
      title="API calls"
      actions={
        <span>
          <label for="window">Time window</label>{' '}
          <select id="window" value={String(window)} onChange={(e) => setWindow(Number((e.target as HTMLSelectElement).value))}>
            {WINDOWS.map((w, i) => (
              <option key={w.label} value={String(i)}>
                {w.label}
              </option>
            ))}
          </select>{' '}
          <button type="button" onClick={counts.reload}>
            Refresh
          </button>
        </span>
      }
    >
      <ErrorBox error={counts.error} />
      {counts.data && counts.data.timestamps.length > 0 ? (
        <TimeChart label="calls" timestamps={counts.data.timestamps} counts={counts.data.counts} range={counts.data.range} />
      ) : (
        counts.data && <p class="muted">No calls counted in this window.</p>
      )}
    </Section>
  );
}
