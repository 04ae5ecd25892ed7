// The README's configuration table lists every variable the service reads, with its default.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { CONFIG_TABLE } from '../../src/config/env.js';

const readme = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../README.md'), 'utf8');

t.test('the two set-up commands come first', async (t) => {
  const install = readme.indexOf('npm install && npm start');
  const test = readme.indexOf('npm test');
  t.ok(install > 0 && test > install, 'install/start, then test');
  t.ok(install < readme.indexOf('## Configuration'));
});

t.test('every configuration variable is documented with its default', async (t) => {
  const rows = new Map<string, string>();
  for (const m of readme.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)) rows.set(m[1]!, m[2]!.trim());
  for (const row of CONFIG_TABLE) {
    t.ok(rows.has(row.env), `${row.env} is in the README`);
    const want = row.fallback === undefined ? '—' : `\`${row.fallback}\``;
    t.equal(rows.get(row.env), want, `${row.env} default`);
  }
  t.equal(rows.size, CONFIG_TABLE.length, 'no stale rows');
});
