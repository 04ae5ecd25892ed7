// What `recd import` and `recd export` move, and through which bulk endpoints: columns as the API's
// fields, `numbers` those sent as numbers.
export const FEEDBACK_KINDS = {
  ratings: { write: 'PUT', path: 'ratings-bulk/', columns: ['user_id', 'item_id', 'rating', 'timestamp'], numbers: ['rating', 'timestamp'] },
  interactions: { write: 'POST', path: 'interactions-bulk/', columns: ['user_id', 'item_id', 'interaction_type', 'timestamp'], numbers: ['timestamp'] },
} as const;
export type FeedbackKind = keyof typeof FEEDBACK_KINDS;
