// Outcomes: what recommendations led to, by scenario, A/B arm, reco type or day, and A/B test results.
import { Type } from '@sinclair/typebox';
import { BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import { Timestamp } from '../schemas/common.js';
import { AbTestResults, OutcomeGroups, ReplayAnswer, ReplayStarted } from '../schemas/outcome-answers.js';
import { REPLAY_TYPES, type Replays } from '../services/outcomes/replay.js';
import type { CaseRules } from '../services/scenarios/scenario-walk.js';
import { abTestResults } from '../services/outcomes/ab-test-results.js';
import { wrongData } from '../errors/api-error.js';
import { GROUP_BY, type GroupBy, type OutcomeResults } from '../services/outcomes/results.js';

const Window = { start_timestamp: Type.Optional(Timestamp), end_timestamp: Type.Optional(Timestamp) };

// group_by: one of GROUP_BY or several, comma-separated (default scenario).
function groupingOf(raw: string | undefined): GroupBy[] {
  if (raw === undefined || raw === '') return ['scenario'];
  const by = raw.split(',').map((x) => x.trim());
  if (!by.every((b): b is GroupBy => (GROUP_BY as readonly string[]).includes(b)) || new Set(by).size !== by.length)
    throw wrongData('WRONG_PARAMETER', `group_by must be one or more of ${GROUP_BY.join(', ')}, comma-separated`, { field: 'group_by' });
  return by;
}

const DAY = 86_400;
const Replay = Type.Object({
  reco_type: Type.Union(REPLAY_TYPES.map((t) => Type.Literal(t))),
  scenario: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  case: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  ...Window,
  k: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  interaction_types: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })),
  answers: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});

export const outcomeRoutes = (results: OutcomeResults, replays: Replays): Route[] => [
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'analytics/recommendations/',
    summary: 'answers, items shown, users and credited interactions with their rates, by scenario, A/B arm, reco type or day',
    response: OutcomeGroups,
    query: Type.Object({ ...Window, group_by: Type.Optional(Type.String({ maxLength: 64 })) }),
    handler: ({ db, query }) =>
      results.recommendations(db, { start: query.start_timestamp, end: query.end_timestamp }, groupingOf(query.group_by)),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'ab-tests/<ab_test_id>/results/',
    summary: "an A/B test's arms, the difference between them with its interval and p-value, and the check of its split",
    response: AbTestResults,
    params: Type.Object({ ab_test_id: Type.String({ minLength: 1, maxLength: 256 }) }),
    query: Type.Object(Window),
    handler: ({ db, params, query }) =>
      abTestResults(results, db, params.ab_test_id!, { start: query.start_timestamp, end: query.end_timestamp }),
  }),
  dbRoute(BACKENDS, {
    method: 'POST',
    path: 'analytics/replay/',
    summary:
      'replays the answers recorded in a window with a candidate scenario (by name or a case): hit rate and NDCG@k of its top k against what was shown, as a task',
    response: ReplayStarted,
    body: Replay,
    handler: async ({ auth, db, body }) => {
      const end = body.end_timestamp ?? Date.now() / 1000;
      const ask = {
        recoType: body.reco_type,
        scenario: body.scenario,
        case: body.case as CaseRules | undefined,
        start: body.start_timestamp ?? end - DAY,
        end,
        k: body.k ?? 10,
        types: body.interaction_types,
        answers: body.answers ?? 100_000,
      };
      return { ...(await replays.start(auth, db, ask)), warnings: [] };
    },
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'analytics/replay/<task_id>/',
    summary: 'a replay: its progress, and its result once COMPLETED',
    response: ReplayAnswer,
    params: Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    handler: ({ db, params }) => replays.read(db, params.task_id!),
  }),
];
