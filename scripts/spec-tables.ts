// Extracts the spec's error table and per-endpoint roles into docs/spec/*.json, which the unit tests
// read (docs/spec-tables.md). Usage: node dist/scripts/spec-tables.js <recommendation-api.md> [--check]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorsTable, mentions, rolesRows } from './spec-markdown.js';

// The compiled file lives in dist/scripts/; the tables go to docs/spec/ of the repository.
const OUT = fileURLToPath(new URL('../../docs/spec/', import.meta.url));

const args = process.argv.slice(2);
const check = args.includes('--check');
const specPath = args.find((a) => a !== '--check');
if (!specPath) {
  // No default path: the spec lives outside this repository, wherever the caller keeps it.
  console.error('usage: node dist/scripts/spec-tables.js <path to recommendation-api.md> [--check]');
  process.exit(2);
}

const md = readFileSync(specPath, 'utf8');
// The spec's digest says which version the tables were taken from, so a stale copy shows.
const source = { spec: basename(specPath), spec_sha256: createHash('sha256').update(md).digest('hex') };
const classes = errorsTable(md);
const files: Record<string, unknown> = {
  'errors.json': {
    ...source,
    extracted: 'the table under "## Errors", and every "<error_name> `NAME`" mention anywhere in the spec',
    classes,
    mentions: mentions(
      md,
      classes.map((c) => c.error_name),
    ),
  },
  'roles.json': {
    ...source,
    extracted: 'every endpoint table with Method, Path and Roles columns, with the heading it sits under',
    rows: rolesRows(md),
  },
};

let stale = 0;
mkdirSync(OUT, { recursive: true });
for (const [name, value] of Object.entries(files)) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = `${OUT}${name}`;
  if (!check) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
    continue;
  }
  let held = '';
  try {
    held = readFileSync(path, 'utf8');
  } catch {
    /* missing: stale */
  }
  if (held !== text) {
    stale++;
    console.error(`${path} differs from what ${specPath} gives: run without --check to refresh it`);
  }
}
process.exit(stale === 0 ? 0 : 1);
