// The ids of item-list answers (`recommendation_id`) when answers are not recorded: opaque, and unique
// across processes and restarts without any coordination: a random prefix drawn when the process
// starts, then a counter.
import { randomBytes } from 'node:crypto';

// What gives an answer its id: these, or the impressions that record the answer under it
// (services/outcomes/impressions.ts).
export interface AnswerIds {
  record(who: { db: string }, answer: object): string;
}

export class RecommendationIds implements AnswerIds {
  private readonly prefix = randomBytes(9).toString('base64url');
  private made = 0;

  record(): string {
    return this.prefix + (++this.made).toString(36);
  }
}
