// No file of src/ over 300 lines, comments and blank lines included: a file that grows past them
// holds more than one thing. (Functions over 80 lines are the linter's: biome.json.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_LINES = 300;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...files(rel));
    else if (name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

const lines = (file: string) => readFileSync(join(root, file), 'utf8').replace(/\n$/, '').split('\n').length;

t.test(`every file of src/ holds at most ${MAX_LINES} lines`, async (t) => {
  const all = files('src');
  t.ok(all.length > 100, `${all.length} files read`);
  const over = all.filter((f) => lines(f) > MAX_LINES).map((f) => `${f}: ${lines(f)} lines`);
  t.strictSame(over, []);
});
