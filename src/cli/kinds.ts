// What `recd import` and `recd export` move, and through which bulk endpoints: feedback with fixed
// columns (the API's fields, `numbers` those sent as numbers); items and users with an id column and
// a column per property of the database (read from `properties` first).
export const FEEDBACK_KINDS = {
  ratings: {
    write: 'PUT',
    path: 'ratings-bulk/',
    columns: ['user_id', 'item_id', 'rating', 'timestamp'],
    numbers: ['rating', 'timestamp'],
  },
  interactions: {
    write: 'POST',
    path: 'interactions-bulk/',
    columns: ['user_id', 'item_id', 'interaction_type', 'timestamp'],
    numbers: ['timestamp'],
  },
} as const;
export type FeedbackKind = keyof typeof FEEDBACK_KINDS;

// PUT: a row replaces every value of its item or user, as the file says them.
export const ENTITY_KINDS = {
  items: { write: 'PUT', path: 'items-bulk/properties/', properties: 'items-properties/', idField: 'item_id' },
  users: { write: 'PUT', path: 'users-bulk/properties/', properties: 'users-properties/', idField: 'user_id' },
} as const;
export type EntityKind = keyof typeof ENTITY_KINDS;

export type Kind = FeedbackKind | EntityKind;
export const KINDS: readonly Kind[] = [...(Object.keys(FEEDBACK_KINDS) as FeedbackKind[]), ...(Object.keys(ENTITY_KINDS) as EntityKind[])];
export const isEntityKind = (kind: Kind): kind is EntityKind => Object.hasOwn(ENTITY_KINDS, kind);
