// Route table compiled once into a segment trie; `<name>` segments are path parameters.
import { ApiError } from '../errors/api-error.js';
import type { Method, Route } from '../contract/routes.js';

interface Node {
  // Fixed segments, matched in place against the request path (no substring or hashing per request).
  fixed: [string, Node][];
  param?: { name: string; node: Node };
  routes: Map<Method, { route: Route; names: string[] }>;
}

const newNode = (): Node => ({ fixed: [], routes: new Map() });

export type Match = { kind: 'route'; route: Route; params: Record<string, string> } | { kind: 'method'; allow: string } | { kind: 'none' };

// Every path of the spec is served under this prefix ({base_url} = http://host:port/v1).
export const API_PREFIX = '/v1';

export class Router {
  private readonly root = newNode();
  private readonly allowCache = new Map<Node, string>();
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
        let next = node.fixed.find(([name]) => name === seg)?.[1];
        if (!next) node.fixed.push([seg, (next = newNode())]);
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`route ${route.method} ${route.path} registered twice`);
    node.routes.set(route.method, { route, names });
    this.routes.push(route);
  }

  match(method: string, path: string): Match {
    const lookup = (method === 'HEAD' ? 'GET' : method) as Method;
    const [start, end] = trimmed(path);
    const first = start === end ? end + 1 : start; // past the end: no segments
    const bounds: number[] = [];
    const node = find(this.root, path, first, end, bounds, lookup);
    if (!node) {
      const any = find(this.root, path, first, end, [], undefined);
      return any ? { kind: 'method', allow: this.allow(any) } : { kind: 'none' };
    }
    const hit = node.routes.get(lookup)!;
    const params: Record<string, string> = {};
    for (let i = 0; i < hit.names.length; i++) params[hit.names[i]!] = decodeSegment(path.slice(bounds[2 * i]!, bounds[2 * i + 1]!));
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

// The segment of `path` starting at `s` (segments end at '/' or `end`; s > end: none left). Fixed
// segments win over parameters; backtrack when a fixed branch has no route for the method (undefined:
// any method). bounds: start and end of each parameter's value.
function find(node: Node, path: string, s: number, end: number, bounds: number[], method: Method | undefined): Node | undefined {
  if (s > end) return (method === undefined ? node.routes.size > 0 : node.routes.has(method)) ? node : undefined;
  let e = path.indexOf('/', s);
  if (e < 0 || e > end) e = end;
  const len = e - s;
  for (const [seg, child] of node.fixed) {
    if (seg.length !== len || !path.startsWith(seg, s)) continue;
    const found = find(child, path, e + 1, end, bounds, method);
    if (found) return found;
    break;
  }
  if (node.param && len > 0) {
    bounds.push(s, e);
    const found = find(node.param.node, path, e + 1, end, bounds, method);
    if (found) return found;
    bounds.length -= 2;
  }
  return undefined;
}

// Where a path's segments lie, without its leading and trailing slashes: paths end with a slash in
// the spec, and clients that omit it (or add more) are served the same route.
function trimmed(path: string): [start: number, end: number] {
  let start = 0;
  while (path.charCodeAt(start) === 47) start++;
  let end = path.length;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  return [start, end];
}

function splitPath(path: string): string[] {
  const [start, end] = trimmed(path);
  return start === end ? [] : path.slice(start, end).split('/');
}

function decodeSegment(seg: string): string {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new ApiError('WrongData', 'WRONG_PARAMETER', `path segment ${JSON.stringify(seg)} is not valid percent-encoding`);
  }
}
