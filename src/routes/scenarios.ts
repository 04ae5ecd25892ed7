// Scenarios, default scenarios per recommendation type, and A/B test parameters.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import { SCENARIO_TYPES, type ScenarioBody, type ScenarioService } from '../services/scenarios/scenarios.js';
import { recoTypeParam } from './reco-type-param.js';
import { ROTATION_HOURS_MAX } from '../services/outcomes/rotation.js';
import { AbTestCreated, DefaultScenario, ScenarioAnswer, ScenarioList, ScenarioWritten } from '../schemas/scenario-answers.js';

const Name = Type.String({ minLength: 1, maxLength: LIMITS.scenarioNameMax });
const Rule = Type.Union([Type.String({ maxLength: 1024 }), Type.Record(Type.String(), Type.Unknown())]);
const Case = Type.Object({
  reranking: Type.Optional(Type.Union([Type.Null(), Type.Array(Rule, { maxItems: 100 })])),
  filters: Type.Optional(Type.Union([Type.Null(), Type.Array(Rule, { maxItems: LIMITS.scenarioFiltersMax })])),
  exclude_rated_items: Type.Optional(Type.Union([Type.Null(), Type.Boolean()])),
  amt: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: LIMITS.scenarioCaseAmtMax })])),
  algorithms: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 1024 })])),
  candidates_preselection: Type.Optional(Type.Union([Type.Null(), Type.Record(Type.String(), Type.Unknown())])),
  table: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
  rotation_rate: Type.Optional(Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 1 })])),
  rotation_hours: Type.Optional(Type.Union([Type.Null(), Type.Number({ exclusiveMinimum: 0, maximum: ROTATION_HOURS_MAX })])),
  exclude_items_with_interaction_types: Type.Optional(
    Type.Union([Type.Null(), Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: LIMITS.excludeInteractionTypesMax })]),
  ),
});
const Condition = Type.Object({
  condition_type: Type.String({ maxLength: 64 }),
  if: Type.Record(Type.String(), Type.Unknown()),
  then: Name,
  else: Name,
});
const Scenario = Type.Object({
  scenario_type: Type.Union(SCENARIO_TYPES.map((t) => Type.Literal(t))),
  metadata: Type.Optional(Type.Union([Type.Null(), Type.Record(Type.String(), Type.Unknown())])),
  case: Type.Optional(Type.Union([Type.Null(), Case])),
  condition: Type.Optional(Type.Union([Type.Null(), Condition])),
  alias: Type.Optional(Type.Union([Type.Null(), Type.Object({ scenario_name: Name })])),
  ab_test: Type.Optional(
    Type.Union([Type.Null(), Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), scenario_a: Name, scenario_b: Name })]),
  ),
});
const Path = Type.Object({ reco_type: Type.String({ maxLength: 64 }), name: Name });

export const scenarioRoutes = (s: ScenarioService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'scenarios/<reco_type>/<name>/',
    summary: 'a scenario',
    response: ScenarioAnswer,
    params: Path,
    handler: ({ db, params }) => s.get(db, recoTypeParam(params.reco_type), params.name),
  }),
  dbRoute(BACKENDS, {
    method: 'PUT',
    path: 'scenarios/<reco_type>/<name>/',
    summary: 'create or replace a scenario (an ab_test scenario cannot be replaced)',
    response: ScenarioWritten,
    params: Path,
    body: Scenario,
    handler: ({ db, params, body }) => s.put(db, recoTypeParam(params.reco_type), params.name, body as ScenarioBody),
  }),
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'scenarios/<reco_type>/<name>/',
    summary: 'delete a scenario no other scenario refers to',
    response: null,
    params: Path,
    handler: ({ db, params }) => s.remove(db, recoTypeParam(params.reco_type), params.name),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'scenarios/',
    summary: "the database's scenarios",
    response: ScenarioList,
    handler: ({ db }) => s.list(db),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'scenarios-default/<reco_type>/',
    summary: 'the default scenario of a recommendation type',
    response: DefaultScenario,
    params: Type.Object({ reco_type: Type.String({ maxLength: 64 }) }),
    handler: ({ db, params }) => s.defaultOf(db, recoTypeParam(params.reco_type)),
  }),
  dbRoute(BACKENDS, {
    method: 'PATCH',
    path: 'scenarios-default/<reco_type>/',
    summary: 'set the default scenario of a recommendation type',
    response: null,
    params: Type.Object({ reco_type: Type.String({ maxLength: 64 }) }),
    body: Type.Object({ name: Name }),
    handler: ({ db, params, body }) => s.setDefault(db, recoTypeParam(params.reco_type), body.name),
  }),
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'scenarios-default/<reco_type>/',
    summary: 'unset the default scenario of a recommendation type',
    response: null,
    params: Type.Object({ reco_type: Type.String({ maxLength: 64 }) }),
    handler: ({ db, params }) => s.unsetDefault(db, recoTypeParam(params.reco_type)),
  }),
  dbRoute(BACKENDS, {
    method: 'POST',
    path: 'ab-tests/params/',
    summary: 'create A/B test parameters for ab_test scenarios',
    response: AbTestCreated,
    body: Type.Object({
      name: Type.String({ minLength: 1, maxLength: LIMITS.nameMax }),
      probability_a: Type.Number({ minimum: 0, maximum: 1 }),
    }),
    handler: ({ db, body }) => s.createAbTest(db, body.name, body.probability_a),
  }),
];
