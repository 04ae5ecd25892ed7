// Answers of the interaction, session and interaction-rule routes (spec "Interactions").
import { Type } from '@sinclair/typebox';
import { Answer, Closed, Cursor, Id, OpenMap, Seconds } from './answer-parts.js';

type Owner = 'user' | 'session';

const Interaction = (owner: Owner) =>
  Closed({
    [`${owner}_id`]: Id,
    item_id: Id,
    interaction_type: Type.String(),
    timestamp: Seconds,
    properties: OpenMap(Type.Unknown(), "the interaction's free properties (any JSON), as sent"),
  });
export const InteractionsPage = (owner: Owner) =>
  Answer({ interactions: Type.Array(Interaction(owner)), has_next: Type.Boolean(), next_cursor: Cursor });
export const InteractionsWritten = Answer(
  {},
  { description: 'warnings only: ignored fields, resolved sessions, a repeated Idempotency-Key' },
);

export const ResolvedSessions = Answer({
  resolved_sessions: Type.Array(Closed({ session_id: Id, user_id: Id, timestamp: Seconds })),
  has_next: Type.Boolean(),
  next_cursor: Cursor,
});

const Rule = Closed({ rating: Type.Number(), combine: Type.Union([Type.Literal('max'), Type.Literal('replace')]) });
export const InteractionRules = Answer({
  rules: OpenMap(Rule, "the database's rules by lower-cased interaction type"),
  defaults: OpenMap(Rule, 'the rules of types the database does not list, by interaction type'),
});
