// Answers of the outcome routes (recd's own: docs/api-choices.md "Outcomes").
import { Type } from '@sinclair/typebox';
import { Answer, Closed, Nullable, Seconds } from './answer-parts.js';

const Share = Nullable(Type.Number({ description: 'a share in [0, 1]; null when nothing was shown' }));
const Interval = Nullable(Type.Tuple([Type.Number(), Type.Number()], { description: '95 % Wilson score interval' }));
const Count = Type.Integer({ minimum: 0 });

const Credited = Closed({
  interaction_type: Type.String(),
  direct: Type.Integer({ description: 'interactions whose properties named the answer (recommendation_id)' }),
  view_through: Type.Integer({ description: 'interactions on an item shown to the user or session within the attribution window' }),
  credited: Count,
  rate: Share,
  rate_interval: Interval,
  users_acted: Type.Integer({ description: 'distinct users or sessions credited (approximate: HyperLogLog)' }),
  user_rate: Share,
  user_rate_interval: Interval,
  positions: Type.Array(Closed({ position: Count, credited: Count, rate: Share, rate_interval: Interval }), {
    description: 'credited ÷ shown at positions 1 to 10 of the whole ranking',
  }),
});

const Counts = {
  answers: Count,
  items_shown: Count,
  users: Type.Integer({ description: 'distinct users or sessions shown answers (approximate: HyperLogLog)' }),
  positions: Type.Array(Closed({ position: Count, items_shown: Count })),
  interactions: Type.Array(Credited),
};

export const OutcomeGroups = Answer({
  start_timestamp: Seconds,
  end_timestamp: Seconds,
  group_by: Type.String(),
  groups: Type.Array(
    Closed({
      scenario: Type.Optional(Nullable(Type.String({ description: 'null: answers under no scenario' }))),
      reco_type: Type.Optional(Type.String()),
      ab_test: Type.Optional(Type.String()),
      arm: Type.Optional(Type.String({ description: 'A or B' })),
      day: Type.Optional(Type.String({ description: 'UTC day, YYYY-MM-DD' })),
      ...Counts,
    }),
  ),
});

const Comparison = Closed({
  interaction_type: Type.String(),
  difference: Nullable(Type.Number({ description: "B's users' rate less A's" })),
  interval: Interval,
  p_value: Nullable(Type.Number({ description: 'two-sided, two-proportion z-test' })),
  verdict: Type.String(),
});

export const AbTestResults = Answer({
  ab_test_id: Type.String(),
  name: Type.String(),
  probability_a: Type.Number(),
  start_timestamp: Seconds,
  end_timestamp: Seconds,
  arms: Type.Array(Closed({ arm: Type.String(), ...Counts })),
  comparisons: Type.Array(Comparison),
  sample_ratio: Closed({
    users_a: Count,
    users_b: Count,
    expected_share_a: Type.Number(),
    observed_share_a: Share,
    p_value: Nullable(Type.Number({ description: 'chi-square test of the users per arm against probability_a' })),
    mismatch: Type.Boolean({ description: 'p_value below 0.001: the split is not what probability_a asks (a bug in the integration)' }),
  }),
});

const ReplaySide = Closed({
  hit_rate: Share,
  hit_rate_interval: Interval,
  ndcg: Nullable(Type.Number({ description: 'mean NDCG@k, each followed item relevant' })),
  ndcg_interval: Nullable(Type.Tuple([Type.Number(), Type.Number()], { description: '95 %, normal' })),
});
export const ReplayStarted = Answer({ task_id: Type.String({ description: 'GET analytics/replay/<task_id>/ follows it' }) });
export const ReplayAnswer = Answer({
  task_id: Type.String(),
  name: Type.String(),
  start_time: Seconds,
  end_time: Nullable(Seconds),
  status: Type.Union(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'].map((s) => Type.Literal(s))),
  progress: Type.String(),
  error: Nullable(Type.String()),
  result: Nullable(
    Closed({
      reco_type: Type.String(),
      candidate: Type.Record(Type.String(), Type.Unknown(), { description: 'the scenario or the case replayed, as sent' }),
      start_timestamp: Seconds,
      end_timestamp: Seconds,
      k: Count,
      answers_replayed: Type.Integer({
        description: 'answers (first pages, to a known user) followed by an interaction within the window',
      }),
      complete: Type.Boolean({ description: 'false: stopped at its bound of answers or time' }),
      live: ReplaySide,
      candidate_result: ReplaySide,
    }),
  ),
});
