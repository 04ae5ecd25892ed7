// The ids of item-list answers (`recommendation_id`): opaque, and unique across processes and
// restarts without any coordination: a random prefix drawn when the process starts, then a counter.
import { randomBytes } from 'node:crypto';

export class RecommendationIds {
  private readonly prefix = randomBytes(9).toString('base64url');
  private made = 0;

  next(): string {
    return this.prefix + (++this.made).toString(36);
  }
}
