// What the reports are made of: median, fmt, fmtInt, and the lines on what was measured (gitState, versionOf).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
export const fmt = (n: number | undefined, digits: number) => (n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '—');

export function versionOf(pkg: string): string {
  try {
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve(pkg));
    for (const d of [dir, resolve(dir, '..')]) {
      try {
        const p = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (p.version) return `${p.name ?? pkg}@${p.version}`;
      } catch {
        // try the parent
      }
    }
  } catch {
    // not resolvable
  }
  return `${pkg}@?`;
}

// The commit a checkout is at (this one unless told), and whether its src/ differs from it (dist/ is built
// from the working tree).
export function gitState(cwd = resolve(HERE, '../../..')): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' });
  if (head.status !== 0) return 'not a git checkout';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd, encoding: 'utf8' });
  const changed = (dirty.stdout ?? '').split('\n').filter((l) => l.trim() !== '').length;
  return `git ${head.stdout.trim()}${changed > 0 ? ` with ${changed} uncommitted change(s) under src/` : ', src/ clean'} at start (run from dist/, built from the working tree)`;
}
