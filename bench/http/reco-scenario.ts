// Item-to-items under a default scenario (issue 8): the default scenario of item_to_items holds two
// filters and a diversity rule, and `d` asks for item-to-items with nothing else, so the scenario
// decides; `p` is the same request without scenario (skip_default_scenario=true), the same two filters
// and diversity rule given as parameters. Target: d ≥ 0.9 × p in the same run (the cost of finding
// and merging the scenario on every request); both also against the bare uWebSockets.js hello-world.
//
//   npx tsc -p . && node dist/bench/http/reco-scenario.js      (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// Data: ml-latest-small over HTTP (bench/lib/ml-small.ts), trained at RECD_ALS_FACTORS (64 here). Both answers
// are checked to be the same list before any load. bench/lib/settings.ts's settings apply (BENCH_SECONDS, ...).
import { ok } from '../lib/api.js';
import { dataLine, upload, type Setup } from '../lib/ml-small.js';
import { runRecoBench, type Scenario } from '../lib/reco-bench.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '64';
const ITEM = 356;
const USER = 414;
const FILTERS = ['genre:eq:Drama', 'year:gte:1990'];
const RERANKING = ['year:diversity:0.5'];
const PLAIN = `/v1/recommendation/items/${ITEM}/items/`;
const GIVEN = `${PLAIN}?skip_default_scenario=true&${[...FILTERS.map((f) => `filters=${f}`), ...RERANKING.map((r) => `reranking=${r}`)].join('&')}`;

const SCENARIOS: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/' },
  { id: 'p', label: `item-to-items, rules as parameters \`GET ${GIVEN}\``, target: 'recd', method: 'GET', path: GIVEN },
  {
    id: 'd',
    label: `item-to-items under the default scenario (the same rules) \`GET ${PLAIN}\``,
    target: 'recd',
    method: 'GET',
    path: PLAIN,
    goal: { ratio: 0.9, of: 'p' },
  },
];

interface WithScenario extends Setup {
  expected: number[]; // p's answer
}

await runRecoBench<WithScenario>({
  name: 'reco-scenario',
  factors: FACTORS,
  scenarios: SCENARIOS,
  setup: async (base, token) => {
    const setup = await upload(base, token, FACTORS, USER);
    await ok(base, token, 'PUT', '/v1/scenarios/item_to_items/bench/', {
      scenario_type: 'case',
      case: { filters: FILTERS, reranking: RERANKING },
    });
    await ok(base, token, 'PATCH', '/v1/scenarios-default/item_to_items/', { name: 'bench' }, [204]);
    const expected = (await ok(base, token, 'GET', GIVEN)).items_id as number[];
    return { ...setup, expected };
  },
  check: (_sc, json, setup) => {
    const ids = (json?.items_id ?? []) as number[];
    const bad = ids.filter((id) => {
      const m = setup.movies.get(id);
      return m?.genre !== 'Drama' || m.year === undefined || m.year < 1990;
    });
    const same = JSON.stringify(ids) === JSON.stringify(setup.expected);
    const problems = [
      ...(bad.length > 0 ? [`${bad.length} item(s) failing the filters`] : []),
      ...(same ? [] : ['not the list p answers']),
      ...(ids.length === 0 ? ['no items'] : []),
    ];
    return `${ids.length} items, first ${ids.slice(0, 5).join(', ')}${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; the filters hold and d answers what p answers'}`;
  },
  meta: (setup) => ({
    Data: dataLine(setup),
    Scenario: `default of item_to_items: \`{"scenario_type": "case", "case": {"filters": ${JSON.stringify(FILTERS)}, "reranking": ${JSON.stringify(RERANKING)}}}\``,
  }),
});
