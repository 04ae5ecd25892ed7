// Outcomes: what recommendations led to, by scenario, A/B arm, reco type or day, and A/B test results.
import { Type } from '@sinclair/typebox';
import { BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import { Timestamp } from '../schemas/common.js';
import { AbTestResults, OutcomeGroups } from '../schemas/outcome-answers.js';
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

export const outcomeRoutes = (results: OutcomeResults): Route[] => [
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
];
