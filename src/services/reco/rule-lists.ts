// Rule lists (filters, reranking) as the caches behind them key them: by the list object, with its
// text made once per object. A request's own list of strings is swapped for a shared one of the
// same text, so every request that asks for the same filters reaches those caches with the same
// object: a scenario's list is one object already, and a request's would otherwise be a new key
// every time (a WeakMap entry made per request costs more than the text it saves).
import { LRUCache } from 'lru-cache';

// Distinct lists shared at once; beyond them the least recently asked is made again when next asked.
const SHARED_LISTS = 1000;

const listKeys = new WeakMap<object, string>();
const shared = new LRUCache<string, readonly string[]>({ max: SHARED_LISTS });

// A rule list's text, once per list object ('[]' for every empty list, which merges make afresh).
export function listKey(list: readonly unknown[]): string {
  if (list.length === 0) return '[]';
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, (key = JSON.stringify(list)));
  return key;
}

// The shared list of the same strings (frozen: it serves every request that asks for it). Lists
// holding anything else are returned as they are.
export function sharedList<T>(list: T[] | undefined): T[] | undefined {
  if (list === undefined || list.length === 0 || !list.every((x) => typeof x === 'string')) return list;
  const key = JSON.stringify(list);
  let held = shared.get(key);
  if (held === undefined) {
    held = Object.freeze(list.slice() as string[]);
    listKeys.set(held, key);
    shared.set(key, held);
  }
  return held as T[];
}
