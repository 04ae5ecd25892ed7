// POST recommendation/generic/items/: the endpoint for whatever the body gives, answered as its
// dedicated endpoint answers (RecommendService.generic) and named by that endpoint's reco type.
import type { RecoType } from '../../../contract/reco-types.js';
import { wrongData } from '../../../errors/api-error.js';
import type { SessionInput } from '../request/request.js';

export interface GenericBody extends SessionInput {
  item_id?: unknown;
  user_id?: unknown;
  context_items?: unknown[];
}

// An item_id: item to items; else a user_id: the user's items; else the session's ratings,
// interactions or user properties. Context items steer users and sessions.
export function genericRecoType(body: GenericBody): RecoType {
  if (body.item_id !== undefined) return 'item_to_items';
  if (body.user_id !== undefined) return body.context_items ? 'profile_to_items_w_ctx_items' : 'profile_to_items';
  return body.context_items ? 'session_to_items_w_ctx_items' : 'session_to_items';
}

// A path-style id from a body field (numbers as their decimal text).
export function idText(v: unknown, field: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw wrongData('WRONG_DATA_TYPE', `${field} must be a string or a number`, { field });
}
