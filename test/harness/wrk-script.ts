// What the benches load recd with, and the wrk scripts that send it: a target (method, headers, a
// body or a random session, a fixed or a random path) and its Lua for wrk. Shared by the benches'
// load generator (bench/lib/load.ts) and the test that runs wrk against a recording server
// (test/unit/wrk-script.test.ts), so neither imports the other.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSession } from './random-sessions.js';

export interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  // Each request's path is `${prefix}${a random integer in [1, max]}${suffix}` instead of the url's
  // (a different entity per request, so per-entity caches do not flatter the result).
  // Each request names an id drawn uniformly: from `ids` when given, else from 1..max.
  randomPath?: { prefix: string; max: number; suffix: string; ids?: readonly number[] };
  // Each request's body, instead of `body`, is a session never sent before: `ratings` distinct items
  // drawn uniformly from `ids` (a list, or n for 1..n), each rated 1–10 uniformly, made per request.
  // A pool of bodies drawn with replacement repeated sessions: a run of ~150k requests from 100k bodies
  // sent ~40 % of them again, which recd remembers (seen-before.ts) and then caches by content.
  randomSession?: RandomSession;
}

export interface RandomSession {
  ids: readonly number[] | number;
  ratings: number;
}

// Ids per Lua function in a wrk script (LuaJIT allows 65,536 constants a function).
const LUA_CHUNK = 10_000;

function luaString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

// A Lua table `name` of the ids, filled by functions of LUA_CHUNK ids each: LuaJIT caps the
// constants of one function.
function luaIds(name: string, ids: readonly number[]): string[] {
  const lines = [`local ${name} = {}`, `local function add${name}(t) for _, b in ipairs(t) do ${name}[#${name} + 1] = b end end`];
  for (let at = 0; at < ids.length; at += LUA_CHUNK)
    lines.push(`add${name}((function() return {${ids.slice(at, at + LUA_CHUNK).join(',')}} end)())`);
  return lines;
}

// Where a random path's id goes in the request wrk formats once.
const PATH_MARK = '@RECD-ID@';

// A wrk session as sessionBody (random-sessions.ts) makes it: distinct items drawn uniformly, each
// rated 1–10 uniformly, new every request. Ids are written right-aligned in a fixed width (JSON
// allows the spaces) so that every body has one length, and so one Content-Length header. The
// distinct draws are unrolled (a, then b unlike a, …): no table per request.
function wrkSession(sr: RandomSession): { lines: string[]; length: number } {
  checkSession(sr.ids, sr.ratings);
  const lines: string[] = [];
  let widest: number;
  if (typeof sr.ids === 'number') {
    lines.push(`local function itemAt(k) return k end`, `local items = ${sr.ids}`);
    widest = sr.ids;
  } else {
    if (!sr.ids.every((id) => Number.isSafeInteger(id) && id >= 0)) throw new Error('wrk sessions draw from non-negative integer ids');
    lines.push(...luaIds('sessionIds', sr.ids), 'local function itemAt(k) return sessionIds[k] end', 'local items = #sessionIds');
    widest = sr.ids.reduce((a, b) => Math.max(a, b), 0);
  }
  const width = String(widest).length;
  const one = `{"item_id":%${width}d,"rating":%2d}`;
  const template = `{"ratings":[${Array(sr.ratings).fill(one).join(',')}]}`;
  // Each %Wd writes W characters, each %2d two.
  const length = template.length + sr.ratings * (width - `%${width}d`.length - 1);
  const picks: string[] = [],
    args: string[] = [];
  for (let k = 0; k < sr.ratings; k++) {
    const earlier = Array.from({ length: k }, (_, j) => `i${k} == i${j}`);
    picks.push(`  local i${k} = itemAt(random(1, items))`);
    if (k > 0) picks.push(`  while ${earlier.join(' or ')} do i${k} = itemAt(random(1, items)) end`);
    args.push(`i${k}`, 'random(1, 10)');
  }
  lines.push(
    'local format = string.format',
    `local template = ${luaString(template)}`,
    'local function session()',
    ...picks,
    `  return format(template, ${args.join(', ')})`,
    'end',
  );
  return { lines, length };
}

// A wrk script: method and headers; with pipelining > 1, `pipelining` requests written back to back.
// A random path or session is one concatenation per request of pieces made once in `init` (after
// wrk has set the Host header): wrk.format and a body built of tables per request cost wrk ~10 µs of
// CPU a request more than a fixed request (measured against the hello-world), taken from the two
// cores wrk shares with recd.
export function wrkScript(dir: string, t: Target, pipelining: number): string {
  const lines = [`wrk.method = ${luaString(t.method)}`];
  for (const [k, v] of Object.entries(t.headers)) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  if (t.body !== undefined) lines.push(`wrk.body = ${luaString(t.body)}`);
  if (t.randomPath || t.randomSession) {
    if (pipelining > 1) throw new Error('randomPath or randomSession with pipelining is not supported');
    lines.push('local random = math.random');
    // wrk leaves Lua's generator unseeded: every run would send the same ids and sessions again.
    lines.push(`math.randomseed(${1 + Math.floor(Math.random() * 2 ** 31)})`);
    const pieces: string[] = [];
    let path = 'nil';
    const r = t.randomPath;
    if (r) {
      if (r.ids) lines.push(...luaIds('ids', r.ids), 'local idCount = #ids');
      path = luaString(`${r.prefix}${PATH_MARK}${r.suffix}`);
      pieces.push('head', r.ids ? 'ids[random(1, idCount)]' : `random(1, ${r.max})`, 'tail');
    } else pieces.push('head');
    let bodyLength = 'nil';
    const sr = t.randomSession;
    if (sr) {
      const session = wrkSession(sr);
      lines.push(...session.lines);
      bodyLength = String(session.length);
      pieces.push('session()');
    }
    lines.push(
      'local head, tail',
      'init = function(args)',
      `  local length = ${bodyLength}`,
      '  if length then wrk.body = string.rep(" ", length) end',
      `  local whole = wrk.format(nil, ${path})`,
      '  if length then whole = whole:sub(1, #whole - length) end',
      `  local at = whole:find(${luaString(PATH_MARK)}, 1, true)`,
      `  if at then head, tail = whole:sub(1, at - 1), whole:sub(at + #${luaString(PATH_MARK)}) else head = whole end`,
      'end',
      `request = function() return ${pieces.join(' .. ')} end`,
    );
  } else if (pipelining > 1) {
    lines.push(
      'local req',
      'init = function(args)',
      '  local r = {}',
      `  for i = 1, ${pipelining} do r[i] = wrk.format() end`,
      '  req = table.concat(r)',
      'end',
      'request = function() return req end',
    );
  }
  const file = join(dir, `wrk-${t.method}-${Buffer.from(t.url).toString('hex').slice(-24)}-${pipelining}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
