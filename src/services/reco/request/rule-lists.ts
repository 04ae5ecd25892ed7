// Rule lists (filters, reranking) as the caches behind them key them: by the list object, with its
// text made once per object. A request's own list of strings is swapped for a shared one of the
// same text, so every request that asks for the same filters reaches those caches with the same
// object: a scenario's list is one object already, and a request's would otherwise be a new key
// every time (a WeakMap entry made per request costs more than the text it saves).

// Characters of text held at once, about what the trie before this map held at most (1,000 nodes of
// up to 4,096 characters): past them the map starts again empty, and lists are shared anew.
const SHARED_CHARS = 4_000_000;

const listKeys = new WeakMap<object, string>();
// The shared lists by their text (JSON: strings that join alike stay apart).
let shared = new Map<string, readonly string[]>();
let held = 0; // characters of the texts in `shared`

// A rule list's text, once per list object ('[]' for every empty list, which merges make afresh).
export function listKey(list: readonly unknown[]): string {
  if (list.length === 0) return '[]';
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, (key = JSON.stringify(list)));
  return key;
}

// The shared list of the same strings (frozen: it serves every request that asks for it). Lists
// holding anything else are returned as they are. A frozen list's text is kept with it (listKey):
// a query the dispatcher keeps (http/query.ts) is the same object for every request with the same
// query text, so its text is made once, not per request.
export function sharedList<T>(list: T[] | undefined): T[] | undefined {
  if (list === undefined || list.length === 0) return list;
  for (const x of list) if (typeof x !== 'string') return list;
  const key = Object.isFrozen(list) ? listKey(list) : JSON.stringify(list);
  let got = shared.get(key);
  if (got === undefined) {
    if (held + key.length > SHARED_CHARS) {
      shared = new Map();
      held = 0;
    }
    held += key.length;
    shared.set(key, (got = Object.freeze((list as string[]).slice())));
    listKeys.set(got, key);
  }
  return got as T[];
}
