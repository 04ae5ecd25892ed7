// Call counts: an organisation's requests over time, in total and by label.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { wrongData } from '../errors/api-error.js';
import { ADMINS, BACKENDS } from '../contract/roles.js';
import { authedRoute, type Route } from '../contract/routes.js';
import { LABELS, type CallHistoryService, type Label } from '../services/usage/call-history.js';
import { Timestamp } from '../schemas/common.js';
import { recoTypeParam } from './reco-type-param.js';
import { CallCounts, CallCountSeries } from '../schemas/usage-answers.js';

const Window = { start_timestamp: Type.Optional(Timestamp), end_timestamp: Type.Optional(Timestamp) };

function label(raw: string): Label {
  if (!(LABELS as readonly string[]).includes(raw))
    throw wrongData('WRONG_PARAMETER', `label must be one of ${LABELS.join(', ')}`, { field: 'label' });
  return raw as Label;
}

export const callCountRoutes = (counts: CallHistoryService): Route[] => [
  authedRoute(ADMINS, {
    method: 'GET',
    path: 'call-counts/historical/',
    summary: "the organisation's requests over time",
    response: CallCounts,
    query: Type.Object(Window),
    handler: ({ auth, query }) => counts.total(auth.org, query),
  }),
  authedRoute(ADMINS, {
    method: 'GET',
    path: 'call-counts/historical/<label>/',
    summary: "the organisation's requests over time, one series per account, endpoint group, database, scenario or recommendation type",
    response: CallCountSeries,
    params: Type.Object({ label: Type.String({ maxLength: 64 }) }),
    query: Type.Object({
      ...Window,
      amt: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.callCountsAmtMax })),
      cursor: Type.Optional(Type.String({ maxLength: 256 })),
    }),
    handler: ({ auth, params, query }) =>
      counts.byLabel(auth.org, label(params.label), { ...query, amt: query.amt ?? LIMITS.callCountsAmtDefault }),
  }),
  authedRoute(BACKENDS, {
    method: 'GET',
    path: 'call-counts/historical/SCENARIOS/<reco_type>/<name>/',
    summary: 'requests over time that ran one scenario',
    response: CallCounts,
    params: Type.Object({ reco_type: Type.String({ maxLength: 64 }), name: Type.String({ minLength: 1, maxLength: 64 }) }),
    query: Type.Object(Window),
    handler: ({ auth, params, query }) => counts.scenario(auth.org, recoTypeParam(params.reco_type), params.name, query),
  }),
];
