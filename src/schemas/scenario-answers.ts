// Answers of the scenario routes (spec "Scenarios and business-rule resources"): a scenario as it
// was stored — the one object of its scenario_type set, the others null.
import { Type, type TProperties } from '@sinclair/typebox';
import { Answer, Closed, Meta, Nullable, OpenMap } from './answer-parts.js';

// The object of a scenario_type is stored as the request gave it: fields beyond the spec's are
// kept and answered too (docs/api-choices.md "API description").
const AsSent = <P extends TProperties>(props: P, what: string) =>
  Type.Object(props, {
    additionalProperties: Type.Unknown(),
    description: `${what}, as sent: the spec's fields, and any other field the request gave`,
  });

const Rule = Type.Union([
  Type.String({ description: 'a rule string' }),
  OpenMap(Type.Unknown(), 'a rule object (property_name, op, value or weight, options), as sent'),
]);
const Case = AsSent(
  {
    reranking: Type.Optional(Nullable(Type.Array(Rule))),
    filters: Type.Optional(Nullable(Type.Array(Rule))),
    exclude_rated_items: Type.Optional(Nullable(Type.Boolean())),
    amt: Type.Optional(Nullable(Type.Integer())),
    algorithms: Type.Optional(Nullable(Type.String())),
    candidates_preselection: Type.Optional(Nullable(OpenMap(Type.Unknown(), 'method and params, as sent (work in progress)'))),
    table: Type.Optional(Nullable(Type.String())),
    rotation_rate: Type.Optional(
      Nullable(
        Type.Number({
          description: "how far items shown to the user within rotation_hours are pushed down (1: not shown again), recd's own",
        }),
      ),
    ),
    rotation_hours: Type.Optional(Nullable(Type.Number())),
    exclude_items_with_interaction_types: Type.Optional(Nullable(Type.Array(Type.String()))),
  },
  'the case',
);
const Condition = AsSent(
  {
    condition_type: Type.Union([Type.Literal('user_function'), Type.Literal('item_property')]),
    if: OpenMap(Type.Unknown(), 'the test: function_name or property_name, op and value, as sent'),
    then: Type.String(),
    else: Type.String(),
  },
  'the condition (condition_type lower-cased)',
);
export const ScenarioRecord = Closed({
  name: Type.String(),
  reco_type: Type.String(),
  scenario: Closed({
    scenario_type: Type.Union(['case', 'condition', 'alias', 'ab_test'].map((t) => Type.Literal(t))),
    metadata: Meta,
    case: Nullable(Case),
    condition: Nullable(Condition),
    alias: Nullable(AsSent({ scenario_name: Type.String() }, 'the alias')),
    ab_test: Nullable(AsSent({ id: Type.String(), scenario_a: Type.String(), scenario_b: Type.String() }, 'the A/B test')),
  }),
});
export const ScenarioAnswer = Answer(ScenarioRecord.properties);
export const ScenarioList = Answer({ scenarios: Type.Array(ScenarioRecord, { description: 'by reco_type, then name' }) });
export const ScenarioWritten = Answer({}, { description: 'warnings only' });
export const DefaultScenario = Answer({ name: Type.String() });
export const AbTestCreated = Answer({ id: Type.String({ description: 'the A/B test, for ab_test scenarios' }) });
