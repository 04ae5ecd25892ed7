// Outcomes: what recommendations led to. Rates over time per scenario and per A/B arm, the rate at each
// position, and each A/B test's result with its interval and a plain verdict (analytics/recommendations/,
// ab-tests/<id>/results/).
import { useState } from 'preact/hooks';
import { ok } from '../api';
import { useApp } from '../app-context';
import { SeriesChart } from '../components/chart';
import { ErrorBox, Section } from '../components/bits';
import { Table } from '../components/table';
import { useLoad } from '../hooks';

const DAY = 86_400;
type Group = {
  answers: number;
  items_shown: number;
  users: number;
  scenario?: string | null;
  ab_test?: string;
  arm?: string;
  day?: string;
  interactions: {
    interaction_type: string;
    credited: number;
    direct: number;
    view_through: number;
    rate: number | null;
    rate_interval: [number, number] | null;
    user_rate: number | null;
    positions: { position: number; rate: number | null }[];
  }[];
};

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(2)} %`);
const span = (i: [number, number] | null) => (i ? `${pct(i[0])} – ${pct(i[1])}` : '');

export function Outcomes() {
  const { client, session } = useApp();
  const [days, setDays] = useState(30);
  const [type, setType] = useState<string | undefined>(undefined);
  const data = useLoad(async () => {
    const end = Math.ceil(Date.now() / 1000 / DAY) * DAY;
    const query = (group_by: string) => ({ params: { query: { group_by, start_timestamp: end - days * DAY, end_timestamp: end } } });
    const [byScenario, daily, dailyArms, scenarios] = await Promise.all([
      ok(client.GET('/analytics/recommendations/', query('scenario'))),
      ok(client.GET('/analytics/recommendations/', query('day,scenario'))),
      ok(client.GET('/analytics/recommendations/', query('day,ab_test'))),
      ok(client.GET('/scenarios/')),
    ]);
    const tests = [...new Set(scenarios.scenarios.flatMap((s) => (s.scenario.ab_test ? [s.scenario.ab_test.id] : [])))];
    const results = await Promise.all(
      tests.map((id) => ok(client.GET('/ab-tests/{ab_test_id}/results/', { params: { path: { ab_test_id: id } } }))),
    );
    return {
      byScenario: byScenario.groups as Group[],
      daily: daily.groups as Group[],
      dailyArms: dailyArms.groups as Group[],
      results,
      start: end - days * DAY,
      end,
    };
  }, [session.database?.id, days]);
  const d = data.data;
  const types = [...new Set((d?.byScenario ?? []).flatMap((g) => g.interactions.map((i) => i.interaction_type)))].sort();
  const chosen = type !== undefined && types.includes(type) ? type : types[0];
  return (
    <>
      <h1>Outcomes</h1>
      <ErrorBox error={data.error} />
      <p>
        <label>
          Window{' '}
          <select value={days} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
            {[1, 7, 30, 90].map((n) => (
              <option key={n} value={n}>
                last {n} day{n > 1 ? 's' : ''}
              </option>
            ))}
          </select>
        </label>{' '}
        {types.length > 0 && (
          <label>
            Interaction type{' '}
            <select value={chosen} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
              {types.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
        )}
      </p>
      {d && d.byScenario.length === 0 && (
        <p class="notice">
          No recommendation answers recorded in this window yet. Answers are recorded as they are served; send their{' '}
          <code>recommendation_id</code> back in an interaction's <code>properties</code> to credit it.
        </p>
      )}
      {d && d.byScenario.length > 0 && (
        <>
          <Section title="By scenario">
            <Table
              headers={['Scenario', 'Answers', 'Users', 'Credited (direct / view-through)', 'Rate', '95 % interval', 'Users who acted']}
              label="outcomes by scenario"
            >
              {d.byScenario.map((g) => {
                const i = g.interactions.find((x) => x.interaction_type === chosen);
                return (
                  <tr key={g.scenario ?? ''}>
                    <td>{g.scenario ?? <span class="muted">none</span>}</td>
                    <td>{g.answers}</td>
                    <td>{g.users}</td>
                    <td>{i ? `${i.credited} (${i.direct} / ${i.view_through})` : 0}</td>
                    <td>{pct(i?.rate ?? (g.items_shown > 0 ? 0 : null))}</td>
                    <td>{span(i?.rate_interval ?? null)}</td>
                    <td>{pct(i?.user_rate)}</td>
                  </tr>
                );
              })}
            </Table>
          </Section>
          <Section title="Rate over time">
            <Daily groups={d.daily} type={chosen} key_={(g) => g.scenario ?? 'none'} label="rate per scenario" range={[d.start, d.end]} />
            <Daily
              groups={d.dailyArms}
              type={chosen}
              key_={(g) => `${g.ab_test} ${g.arm}`}
              label="rate per A/B arm"
              range={[d.start, d.end]}
            />
          </Section>
          <Section title="Rate by position">
            <SeriesChart
              label="rate by position"
              x={[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
              time={false}
              yLabel="rate"
              series={d.byScenario.map((g) => ({
                label: g.scenario ?? 'none',
                values: Array.from(
                  { length: 10 },
                  (_, p) => g.interactions.find((x) => x.interaction_type === chosen)?.positions[p]?.rate ?? null,
                ),
              }))}
            />
          </Section>
        </>
      )}
      {d && d.results.length > 0 && (
        <Section title="A/B tests">
          {d.results.map((r) => (
            <div key={r.ab_test_id} class="ab-result" data-test={r.ab_test_id}>
              <h3>
                {r.name}{' '}
                <span class="muted">
                  ({r.ab_test_id}, A gets {pct(r.probability_a)})
                </span>
              </h3>
              <Table headers={['Arm', 'Answers', 'Users']} label={`arms of ${r.name}`}>
                {r.arms.map((a) => (
                  <tr key={a.arm}>
                    <td>{a.arm}</td>
                    <td>{a.answers}</td>
                    <td>{a.users}</td>
                  </tr>
                ))}
              </Table>
              <ul class="plain">
                {r.comparisons.map((c) => (
                  <li key={c.interaction_type}>
                    <strong>{c.interaction_type}</strong>: <span class="verdict">{c.verdict}</span>
                    {c.interval && ` (difference ${pct(c.difference)}, 95 % ${span(c.interval as [number, number])})`}
                  </li>
                ))}
                {r.comparisons.length === 0 && <li class="muted">not enough data yet: no credited interactions</li>}
                {r.sample_ratio.mismatch && (
                  <li class="error" role="alert">
                    The split is not what probability_a asks (A has {pct(r.sample_ratio.observed_share_a)} of the users): check that every
                    request carries user_id.
                  </li>
                )}
              </ul>
            </div>
          ))}
        </Section>
      )}
    </>
  );
}

// A daily rate chart with one series per group key.
function Daily({
  groups,
  type,
  key_,
  label,
  range,
}: {
  groups: Group[];
  type: string | undefined;
  key_: (g: Group) => string;
  label: string;
  range: [number, number];
}) {
  const days = [...new Set(groups.map((g) => g.day!))].sort();
  const keys = [...new Set(groups.map(key_))].sort();
  if (days.length === 0 || keys.length === 0) return null;
  const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const series = keys.map((k) => ({
    label: k,
    values: days.map((day) => {
      const g = groups.find((x) => x.day === day && key_(x) === k);
      if (!g) return null;
      return g.interactions.find((i) => i.interaction_type === type)?.rate ?? (g.items_shown > 0 ? 0 : null);
    }),
  }));
  return <SeriesChart label={label} x={x} series={series} time yLabel="rate" range={range} />;
}
