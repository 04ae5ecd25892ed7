// Answers of the item and user routes (spec "Item property values", "User property values"):
// records are `item_id` or `user_id` plus one key per defined property that has a value.
import { Type } from '@sinclair/typebox';
import { Answer, Cursor, Id, PropertyValue } from './answer-parts.js';

type Kind = 'item' | 'user';

export const EntityRecord = (kind: Kind) =>
  Type.Object(
    { [`${kind}_id`]: Id },
    { additionalProperties: PropertyValue, description: `the ${kind}'s id and its values by property name` },
  );

export const EntityAnswer = (kind: Kind) => Answer({ [kind]: EntityRecord(kind) });
// PATCH of one: whether the record was created, whether it was changed.
export const EntityPatched = (kind: Kind) => Answer({ [`${kind}_created`]: Type.Boolean(), [`${kind}_modified`]: Type.Boolean() });
// PUT of one: 200 when written, 202 when queued (wait_for_completion false).
export const EntityWritten = Answer({}, { description: 'warnings only' });
export const EntityPage = (kind: Kind) =>
  Answer({ [`${kind}s`]: Type.Array(EntityRecord(kind)), has_next: Type.Boolean(), next_cursor: Cursor });
export const EntityList = (kind: Kind) =>
  Answer({ [`${kind}s`]: Type.Array(EntityRecord(kind), { description: 'the records of the ids that exist, in request order' }) });
// Bulk PUT/PATCH: counts when waited for (200), warnings only when queued (202).
export const EntitiesWritten = (kind: Kind) =>
  Answer({
    n_created: Type.Optional(Type.Integer({ description: 'absent when queued (202)' })),
    n_modified: Type.Optional(Type.Integer({ description: 'absent when queued (202)' })),
    ...(kind === 'item'
      ? { ml_task_id: Type.Optional(Type.String({ description: 'the ml_new_items run, when items were created' })) }
      : {}),
  });
