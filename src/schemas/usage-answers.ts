// Answers of the call-count routes (spec "Call counts").
import { Type } from '@sinclair/typebox';
import { Answer, Closed, Cursor, Seconds } from './answer-parts.js';

const Timestamps = Type.Array(Seconds, { description: 'minutes counted, or the starts of 100 equal buckets when there are more' });
const Counts = Type.Array(Type.Number(), { description: 'requests at each timestamp' });

export const CallCounts = Answer({ timestamps: Timestamps, counts: Counts });
export const CallCountSeries = Answer({
  timestamps: Timestamps,
  series: Type.Array(
    Closed({
      key: Type.String(),
      description: Type.String({ description: "the database's name, the account's e-mail or name, or the key" }),
      counts: Counts,
      extra_data: Closed({ db_id: Type.Optional(Type.String({ description: 'label DBS only' })) }),
    }),
  ),
  has_next: Type.Boolean(),
  next_cursor: Cursor,
});
