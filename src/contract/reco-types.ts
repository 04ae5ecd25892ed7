// The spec's ten recommendation types: route rows name theirs (call counts), scenarios and their
// defaults are kept per type, precomputed tables are built for two of them.
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

export const isRecoType = (v: string): v is RecoType => (RECO_TYPES as readonly string[]).includes(v);
