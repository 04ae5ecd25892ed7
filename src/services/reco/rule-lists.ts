// Rule lists (filters, reranking) as the caches behind them key them: by the list object, with its
// text made once per object. A request's own list of strings is swapped for a shared one of the
// same text, so every request that asks for the same filters reaches those caches with the same
// object: a scenario's list is one object already, and a request's would otherwise be a new key
// every time (a WeakMap entry made per request costs more than the text it saves).

// Trie nodes held at once (one per distinct prefix of the lists asked for, each holding one string of
// at most 4,096 characters): past them the trie starts again empty, and lists are shared anew.
const SHARED_NODES = 1000;

// The shared lists by their strings, one level per element.
interface Node {
  next: Map<string, Node>;
  list: readonly string[] | undefined;
}

const listKeys = new WeakMap<object, string>();
let root: Node = { next: new Map(), list: undefined };
let nodes = 0;

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
  if (list === undefined || list.length === 0) return list;
  for (const x of list) if (typeof x !== 'string') return list;
  if (nodes >= SHARED_NODES) {
    root = { next: new Map(), list: undefined };
    nodes = 0;
  }
  let at = root;
  for (const x of list as string[]) {
    let next = at.next.get(x);
    if (next === undefined) {
      at.next.set(x, (next = { next: new Map(), list: undefined }));
      nodes++;
    }
    at = next;
  }
  if (at.list === undefined) listKeys.set((at.list = Object.freeze((list as string[]).slice())), JSON.stringify(list));
  return at.list as T[];
}
