// Route table compiled once into a segment trie; `<name>` segments are path parameters.
import { ApiError } from '../errors/api-error.js';
import type { Method, Route } from '../contract/routes.js';

interface Node {
  fixed: Map<string, Node>;
  param?: { name: string; node: Node };
  routes: Map<Method, { route: Route; names: string[] }>;
}

const newNode = (): Node => ({ fixed: new Map(), routes: new Map() });

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allow: string }
  | { kind: 'none' };

// Every path of the spec is served under this prefix ({base_url} = http://host:port/v1).
export const API_PREFIX = '/v1';

export class Router {
  private readonly root = newNode();
  private readonly allowCache = new Map<Node, string>();
  // Parameter-free paths resolve with one map lookup, by the request's own URL ("/v1/login/jwt/",
  // with or without the final slash) or by the bare path; the trie handles the rest.
  private readonly exact = new Map<string, Node>();
  readonly routes: Route[] = [];

  constructor(routes: Route[]) {
    for (const route of routes) this.add(route);
  }

  private add(route: Route): void {
    let node = this.root;
    const names: string[] = [];
    for (const seg of splitPath(route.path)) {
      const m = /^<(?:str:)?([a-z_]+)>$/.exec(seg);
      if (m) {
        const name = m[1]!;
        if (node.param && node.param.name !== name) {
          throw new Error(`route ${route.path}: parameter <${name}> clashes with <${node.param.name}>`);
        }
        node.param ??= { name, node: newNode() };
        names.push(name);
        node = node.param.node;
      } else {
        let next = node.fixed.get(seg);
        if (!next) node.fixed.set(seg, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`route ${route.method} ${route.path} registered twice`);
    node.routes.set(route.method, { route, names });
    if (names.length === 0) {
      const key = exactKey(route.path);
      this.exact.set(key, node);
      const full = key === '' ? API_PREFIX : `${API_PREFIX}/${key}`;
      this.exact.set(full, node);
      this.exact.set(`${full}/`, node);
    }
    this.routes.push(route);
  }

  // url: the request URL the path came from, when there is one (skips re-slicing it).
  match(method: string, path: string, url?: string): Match {
    const lookup = (method === 'HEAD' ? 'GET' : method) as Method;
    // Unusual spellings of a fixed path (repeated slashes) miss here and are found by the trie.
    const exact = this.exact.get(url ?? exactKey(path));
    if (exact) {
      const hit = exact.routes.get(lookup);
      // A fixed path lacking the method may still match a parameter route below.
      if (hit) return { kind: 'route', route: hit.route, params: {} };
    }
    const segs = splitPath(path);
    const values: string[] = [];
    const node = find(this.root, segs, 0, values, lookup);
    if (!node) {
      const any = find(this.root, segs, 0, [], undefined);
      return any ? { kind: 'method', allow: this.allow(any) } : { kind: 'none' };
    }
    const hit = node.routes.get(lookup)!;
    const params: Record<string, string> = {};
    for (let i = 0; i < hit.names.length; i++) params[hit.names[i]!] = decodeSegment(values[i]!);
    return { kind: 'route', route: hit.route, params };
  }

  private allow(node: Node): string {
    let allow = this.allowCache.get(node);
    if (allow === undefined) {
      const methods: string[] = [...node.routes.keys()];
      if (node.routes.has('GET')) methods.push('HEAD');
      methods.push('OPTIONS');
      allow = methods.join(', ');
      this.allowCache.set(node, allow);
    }
    return allow;
  }
}

// Fixed segments win over parameters; backtrack when a fixed branch has no route for the method
// (undefined: any method).
function find(node: Node, segs: string[], i: number, values: string[], method: Method | undefined): Node | undefined {
  if (i === segs.length) return (method === undefined ? node.routes.size > 0 : node.routes.has(method)) ? node : undefined;
  const seg = segs[i]!;
  const fixed = node.fixed.get(seg);
  if (fixed) {
    const found = find(fixed, segs, i + 1, values, method);
    if (found) return found;
  }
  if (node.param && seg !== '') {
    values.push(seg);
    const found = find(node.param.node, segs, i + 1, values, method);
    if (found) return found;
    values.pop();
  }
  return undefined;
}

// Paths end with a slash in the spec; clients that omit it are served the same route.
function exactKey(path: string): string {
  let start = 0;
  while (path.charCodeAt(start) === 47) start++;
  let end = path.length;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  return start === 0 && end === path.length ? path : path.slice(start, end);
}

function splitPath(path: string): string[] {
  const trimmed = exactKey(path);
  return trimmed === '' ? [] : trimmed.split('/');
}

function decodeSegment(seg: string): string {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new ApiError('WrongData', 'WRONG_PARAMETER', `path segment ${JSON.stringify(seg)} is not valid percent-encoding`);
  }
}
