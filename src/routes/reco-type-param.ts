// A reco_type path parameter (scenarios, call counts): one of the spec's types, else WRONG_PARAMETER.
import { wrongData } from '../errors/api-error.js';
import { isRecoType, RECO_TYPES, type RecoType } from '../contract/reco-types.js';

export function recoTypeParam(raw: string): RecoType {
  if (!isRecoType(raw)) throw wrongData('WRONG_PARAMETER', `reco_type must be one of ${RECO_TYPES.join(', ')}`, { field: 'reco_type' });
  return raw;
}
