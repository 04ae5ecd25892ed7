// The spec's ten recommendation types (scenarios, call counts).
export const RECO_TYPES = [
  'item_to_items',
  'profile_to_items',
  'session_to_items',
  'profile_to_item_properties',
  'profile_to_items_w_ctx_items',
  'session_to_items_w_ctx_items',
  'precomputed_item_to_items',
  'precomputed_profile_to_items',
  'session_to_item_properties',
  'profiles_group_to_items',
] as const;
export type RecoType = (typeof RECO_TYPES)[number];
