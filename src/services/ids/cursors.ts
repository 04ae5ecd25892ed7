// Cursors are opaque to clients: a tag naming the listing and format version, then positions.
import { wrongData } from '../../errors/api-error.js';

export const encodeCursor = (tag: string, positions: number[]) => Buffer.from(`${tag}:${positions.join(':')}`).toString('base64url');

// The positions of a cursor this service gave out for the listing `tag`, else WrongData. Positions
// are dense indices (uint32) unless `max` says otherwise.
export function decodeCursor(tag: string, cursor: string, n: number, max = 0xffffffff): number[] {
  const parts = Buffer.from(cursor, 'base64url').toString().split(':');
  const positions = parts.slice(1).map((p) => (/^\d{1,16}$/.test(p) ? Number(p) : NaN));
  if (parts.length === n + 1 && parts[0] === tag && positions.every((p) => p <= max)) return positions;
  throw wrongData('WRONG_PARAMETER', 'cursor is not one this service gave out', { field: 'cursor' });
}
