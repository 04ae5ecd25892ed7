// Try it: recommendations for an item, a user or a session built here, through the generic endpoint,
// which also says the reco type and the path of scenarios it evaluated. Items shown with properties.
import { useState } from 'preact/hooks';
import { useApp, canWrite } from '../app-context';
import { ok, type SignedIn } from '../api';
import type { Recommended } from '../answers';
import { Section, lines } from '../components/bits';
import { ActionForm, Choice, Field } from '../components/form';
import { RowsTable, columnsOf } from '../components/table';
import { useAction, useLoad } from '../hooks';
import type { Row } from '../types';

type Mode = 'item' | 'user' | 'session';
const MODES = [
  ['item', 'an item'],
  ['user', 'a user'],
  ['session', 'a session'],
] as const;
const RECO_TYPE: Record<Mode, string> = { item: 'item_to_items', user: 'profile_to_items', session: 'session_to_items' };

// Ids go as numbers when the database's type is numeric (the API takes both; numbers read cleaner).
function idValue(text: string, type: string | undefined): string | number {
  return type === 'uint32' && /^\d+$/.test(text) ? Number(text) : text;
}

export interface Answer {
  rec: Recommended;
  rows: Row[]; // in rank order
  input: Row[]; // the item, the user, or the session's items
}

export function TryIt() {
  const { client, session } = useApp();
  const [mode, setMode] = useState<Mode>('item');
  const [id, setId] = useState('');
  const [sessionText, setSessionText] = useState('');
  const [scenario, setScenario] = useState('');
  const [skipDefault, setSkipDefault] = useState(false);
  const [filterText, setFilterText] = useState('');
  const [rerankText, setRerankText] = useState('');
  const [amt, setAmt] = useState('10');
  const [answer, setAnswer] = useState<Answer | undefined>(undefined);
  const action = useAction();
  const scenarios = useLoad(
    () => (canWrite(session) ? ok(client.GET('/scenarios/')).then((a) => a.scenarios) : Promise.resolve([])),
    [session.database?.id],
  );
  const names = scenarios.data?.filter((s) => s.reco_type === RECO_TYPE[mode]).map((s) => s.name) ?? [];

  const submit = () =>
    void action.run(async () => {
      setAnswer(undefined);
      setAnswer(
        await recommend(client, session, {
          mode,
          id,
          sessionText,
          scenario,
          skipDefault,
          filters: lines(filterText),
          reranking: lines(rerankText),
          amt: Number(amt),
        }),
      );
    });
  return (
    <>
      <h1>Try it</h1>
      <ActionForm
        label="Recommendation request"
        class="card try-form"
        onSubmit={submit}
        busy={action.busy}
        error={action.error}
        submit={action.busy ? 'Asking…' : 'Recommend'}
      >
        <Choice legend="Recommend for" name="mode" options={MODES} value={mode} set={(m) => (setMode(m), setAnswer(undefined))} />
        {mode === 'session' ? (
          <Field
            id="session-items"
            label="Session: one item per line, optionally with a rating 1–10 (item_id rating)"
            rows={4}
            required
            value={sessionText}
            set={setSessionText}
          />
        ) : (
          <Field id="reco-id" label={mode === 'item' ? 'Item ID' : 'User ID'} required value={id} set={setId} />
        )}
        <Field id="scenario" label="Scenario (optional)" list="scenario-names" value={scenario} set={setScenario} />
        <datalist id="scenario-names">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <label class="inline">
          <input type="checkbox" checked={skipDefault} onChange={(e) => setSkipDefault((e.target as HTMLInputElement).checked)} /> Skip the
          default scenario
        </label>
        <Field id="reco-filters" label="Filters, one per line (e.g. genre:eq:b)" rows={2} value={filterText} set={setFilterText} />
        <Field
          id="reco-reranking"
          label="Reranking, one per line (e.g. genre:diversity:1)"
          rows={1}
          value={rerankText}
          set={setRerankText}
        />
        <Field id="reco-amt" label="How many (1–64)" type="number" min={1} max={64} value={amt} set={setAmt} />
      </ActionForm>
      {answer && <Result answer={answer} mode={mode} />}
    </>
  );
}

async function recommend(
  client: SignedIn['client'],
  session: SignedIn['session'],
  q: {
    mode: Mode;
    id: string;
    sessionText: string;
    scenario: string;
    skipDefault: boolean;
    filters: string[];
    reranking: string[];
    amt: number;
  },
): Promise<Answer> {
  const db = session.database;
  const id = q.id.trim();
  const ratings =
    q.mode === 'session'
      ? lines(q.sessionText).map((l) => {
          const [item, rating] = l.split(/[\s,;]+/);
          return { item_id: idValue(item!, db?.item_id_type), rating: rating === undefined ? 10 : Number(rating) };
        })
      : [];
  const asked =
    q.mode === 'item'
      ? { item_id: idValue(id, db?.item_id_type) }
      : q.mode === 'user'
        ? { user_id: idValue(id, db?.user_id_type) }
        : { ratings };
  const body = {
    amt: q.amt,
    filters: q.filters,
    reranking: q.reranking,
    skip_default_scenario: q.skipDefault,
    ...(q.scenario ? { scenario: q.scenario } : {}),
    ...asked,
  };
  const rec = await ok(client.POST('/recommendation/generic/items/', { body }));
  const inputIds = q.mode === 'item' ? [idValue(id, db?.item_id_type)] : ratings.map((r) => r.item_id);
  const ids = [...rec.items_id, ...inputIds];
  const listed: Row[] = ids.length ? (await ok(client.POST('/items-bulk/properties/list/', { body: { items_id: ids } }))).items : [];
  const byId = new Map(listed.map((r) => [String(r.item_id), r]));
  const rowOf = (i: string | number): Row => byId.get(String(i)) ?? { item_id: i };
  let input = inputIds.map(rowOf);
  if (q.mode === 'user') {
    const user = canWrite(session)
      ? await ok(client.GET('/users/{user_id}/properties/', { params: { path: { user_id: id } } })).then(
          (u) => u.user,
          () => undefined,
        )
      : undefined;
    input = [user ?? { user_id: q.id }];
  }
  return { rec, rows: rec.items_id.map(rowOf), input };
}

function Result({ answer, mode }: { answer: Answer; mode: Mode }) {
  const { rec, rows, input } = answer;
  // The input's columns join the items' only when the input is items (a user's properties are not theirs).
  const columns = columnsOf(mode === 'user' ? rows : rows.concat(input));
  const path = rec.evaluated_scenarios ?? [];
  return (
    <div class="split">
      <Section title={mode === 'item' ? 'The item' : mode === 'user' ? 'The user' : 'The session'}>
        <RowsTable rows={input} columns={columnsOf(input)} label="input" />
      </Section>
      <Section title={`Recommended (${rec.reco_type ?? ''})`}>
        <p class="small" data-testid="scenario-path">
          Scenario path:{' '}
          {path.length ? (
            path.map((s, i) => (
              <span key={i} class="chip">
                {s}
              </span>
            ))
          ) : (
            <span class="muted">none evaluated (no runtime or default scenario)</span>
          )}
        </p>
        {rec.warnings?.map((w) => (
          <p key={w} class="warning">
            {w}
          </p>
        ))}
        <RowsTable rows={rows} columns={columns} label="recommended items" ranked />
        {rows.length === 0 && <p class="muted">No item passes these rules.</p>}
      </Section>
    </div>
  );
}
