// Where an item of a recommendation comes from, as explanations name it (explain=true; docs/api-choices.md
// "Explanations").
export const SOURCES = [
  'user_list', // the user's list, made at training
  'user_factors', // ranked by the user's trained factors, past their list
  'fold_in', // ranked by factors folded in from the user's current feedback
  'session', // ranked from the session's ratings or interactions
  'item_neighbours', // the query item's most similar items
  'group', // ranked for a group of users
  'properties', // items like those holding the given property values
  'popularity', // most popular items: a filler where nothing personal could be ranked
  'cold_start', // an item without feedback at training, placed by factors from its properties
  'precomputed_table', // a row of a precomputed table
] as const;
export type Source = (typeof SOURCES)[number];
