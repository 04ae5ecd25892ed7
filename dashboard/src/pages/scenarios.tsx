// Scenarios: each reco type's default and scenarios, each drawn as the graph it forms (alias,
// condition and ab_test nodes down to case leaves); the A/B tests those graphs use.
import { useState } from 'preact/hooks';
import { useApp } from '../app-context';
import { ErrorBox, Section } from '../components/bits';
import { useLoad } from '../hooks';
import { RECO_TYPES } from '../types';
import type { ScenarioRecord } from '../answers';
import { ApiFailure, ok } from '../api';

export function Scenarios() {
  const { client, session } = useApp();
  const list = useLoad(async () => {
    const [all, defaults] = await Promise.all([
      ok(client.GET('/scenarios/')),
      Promise.all(
        RECO_TYPES.map((t) =>
          ok(client.GET('/scenarios-default/{reco_type}/', { params: { path: { reco_type: t } } })).then(
            (d) => [t, d.name] as const,
            (err: unknown) => {
              // A reco type without a default.
              if (err instanceof ApiFailure && err.errorName === 'NotFoundError') return [t, undefined] as const;
              throw err;
            },
          ),
        ),
      ),
    ]);
    return { scenarios: all.scenarios, defaults: new Map(defaults) };
  }, [session.database?.id]);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const data = list.data;
  const abTests = new Map<string, string[]>();
  for (const s of data?.scenarios ?? [])
    if (s.scenario.ab_test) abTests.set(s.scenario.ab_test.id, [...(abTests.get(s.scenario.ab_test.id) ?? []), `${s.reco_type}/${s.name}`]);
  return (
    <>
      <h1>Scenarios</h1>
      <ErrorBox error={list.error} />
      {data
        && RECO_TYPES.filter((t) => data.defaults.get(t) !== undefined || data.scenarios.some((s) => s.reco_type === t)).map((t) => {
          const own = data.scenarios.filter((s) => s.reco_type === t);
          const byName = new Map(own.map((s) => [s.name, s]));
          return (
            <Section key={t} title={t}>
              <p>Default: {data.defaults.get(t) ? <strong>{data.defaults.get(t)}</strong> : <span class="muted">none</span>}</p>
              <ul class="plain">
                {own.map((s) => {
                  const key = `${t}/${s.name}`;
                  return (
                    <li key={key}>
                      <button
                        type="button"
                        class="link"
                        aria-expanded={open === key}
                        onClick={() => setOpen(open === key ? undefined : key)}
                      >
                        {s.name}
                      </button>{' '}
                      <span class="chip">{s.scenario.scenario_type}</span>
                      {open === key && (
                        <section class="graph" aria-label={`graph of ${s.name}`}>
                          <Node name={s.name} byName={byName} seen={[]} />
                        </section>
                      )}
                    </li>
                  );
                })}
              </ul>
            </Section>
          );
        })}
      {data && data.scenarios.length === 0 && (
        <p class="muted">No scenario yet: scenarios are saved with PUT scenarios/&lt;reco_type&gt;/&lt;name&gt;/.</p>
      )}
      {abTests.size > 0 && (
        <Section title="A/B tests">
          <ul class="plain">
            {[...abTests].map(([id, users]) => (
              <li key={id}>
                <code>{id}</code> used by {users.join(', ')}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}

// One scenario and what it leads to; `seen` guards against a cycle the API would have refused.
function Node({ name, byName, seen }: { name: string; byName: Map<string, ScenarioRecord>; seen: string[] }) {
  const s = byName.get(name);
  if (!s) return <span class="error">{name} (missing)</span>;
  if (seen.includes(name)) return <span class="error">{name} (cycle)</span>;
  const next = [...seen, name];
  const sc = s.scenario;
  const child = (label: string, to: string) => (
    <li key={label}>
      <span class="edge">{label}</span> <Node name={to} byName={byName} seen={next} />
    </li>
  );
  return (
    <span class="node">
      <strong>{name}</strong> <span class="chip">{sc.scenario_type}</span>
      {sc.case && <code class="case">{JSON.stringify(sc.case)}</code>}
      {sc.alias && <ul>{child('→', sc.alias.scenario_name)}</ul>}
      {sc.condition && (
        <ul>
          {child(`if ${JSON.stringify(sc.condition.if)} then`, sc.condition.then)}
          {child('else', sc.condition.else)}
        </ul>
      )}
      {sc.ab_test && (
        <ul>
          {child(`A/B ${sc.ab_test.id}: A`, sc.ab_test.scenario_a)}
          {child('B', sc.ab_test.scenario_b)}
        </ul>
      )}
    </span>
  );
}
