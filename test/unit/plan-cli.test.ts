// `recd plan` as an operator runs it: its table, and a wrong command line's exit code 2.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');

const recd = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });

t.test('the plan of 1M users × 100k items × 20M ratings', async (t) => {
  const r = recd(['plan', '--users', '1000000', '--items', '100000', '--ratings', '20000000']);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^recd plan: 1,000,000 users × 100,000 items × 20,000,000 ratings, 32 factors$/m);
  for (const row of [
    /^Redis memory +[\d.]+ GiB trained +[\d.]+ GiB before the first training/m,
    /^recd per serving process +[\d.]+ GiB +model 676 MiB/m,
    /^model +676 MiB +709,214,728 bytes; 1,000,000 of 1,000,000 users listed$/m,
    /^recd training, peak +[\d.]+ GiB +the model it makes/m,
    /^training time +[\d.]+ min +reading and preparing the ratings \d+ s, ALS \d+ s, .*, publishing \d+ s, search up to 42 s$/m,
  ]) {
    t.match(r.stdout, row);
  }
  t.match(r.stdout, /2-core\nAMD EPYC VM/);
});

t.test('factors and the settings change the plan', async (t) => {
  const r = recd(['plan', '--users', '1000', '--items', '500', '--ratings', '20000', '--factors', '64']);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /64 factors/);
});

t.test('a wrong command line: exit code 2 and the usage', async (t) => {
  for (const args of [
    ['plan', '--users', '10', '--items', '5'],
    ['plan', '--users', '0', '--items', '5', '--ratings', '5'],
    ['plan', '--users', '1.5', '--items', '5', '--ratings', '5'],
    ['plan', '--users', '10', '--items', '5', '--ratings', '51'],
    ['plan', '--users', '10', '--items', '5', '--ratings', '5', '--colour', 'x'],
    ['plan', 'extra', '--users', '10', '--items', '5', '--ratings', '5'],
  ]) {
    const r = recd(args);
    t.equal(r.status, 2, args.join(' '));
    t.match(r.stderr, /usage: recd plan --users N --items M --ratings R/, args.join(' '));
    t.equal(r.stdout, '');
  }
});
