// The browser tests' Chromium (Debian's chromium, driven by playwright-core) on the dashboard a stack
// serves: pages whose uncaught errors are collected, screenshots, tables read by their headers.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { until } from './reco.js';
import { rootToken } from './fixtures.js';
import { startStack, type Stack } from './stack.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// An upper bound for each wait (the machine may be busy), not a timing assertion.
export const WAIT_MS = 60_000;
// The screenshots in docs/dashboard/ are the browser tests', refreshed with DASHBOARD_SCREENSHOTS=1
// (this file runs as dist/test/helpers/browser.js); other runs write them to a temporary directory,
// so that a test run leaves the checkout as it found it.
const KEEP_SHOTS = process.env.DASHBOARD_SCREENSHOTS === '1';

export interface Dashboard {
  base: string; // the dashboard's URL
  open(): Promise<Page>;
  shot(page: Page, name: string): Promise<void>;
  pageErrors: string[]; // uncaught errors of every page opened, for a test to require none
}

export async function dashboard(t: { teardown(fn: () => unknown): void }, stack: Stack): Promise<Dashboard> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  t.teardown(() => browser.close());
  const shots = KEEP_SHOTS
    ? join(dirname(fileURLToPath(import.meta.url)), '../../../docs/dashboard')
    : mkdtempSync(join(tmpdir(), 'recd-dashboard-'));
  mkdirSync(shots, { recursive: true });
  if (!KEEP_SHOTS) t.teardown(() => rmSync(shots, { recursive: true, force: true }));
  const pageErrors: string[] = [];
  return {
    base: `http://127.0.0.1:${stack.app.port}/dashboard/`,
    async open() {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(WAIT_MS);
      page.on('pageerror', (err) => pageErrors.push(err.message));
      return page;
    },
    shot: async (page, name) => void (await page.screenshot({ path: join(shots, `${name}.png`) })),
    pageErrors,
  };
}

// What each browser test file starts with: a stack, the dashboard it serves, and root's token (taken
// last: a test may make tokens short-lived).
export async function dashboardStack(t: { teardown(fn: () => unknown): void }, env: Record<string, string>) {
  const stack = await startStack(env);
  t.teardown(() => stack.close());
  const ui = await dashboard(t, stack);
  return { stack, api: stack.api, ui, root: await rootToken(stack.api) };
}

// The texts of one column of a table (by its aria-label), by its header.
export function column(page: Page, table: string, header: string): Promise<string[]> {
  return page.locator(`table[aria-label="${table}"]`).evaluate((el, h) => {
    const heads = [...el.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
    const i = heads.indexOf(h);
    return [...el.querySelectorAll('tbody tr')].map((tr) => tr.children[i]?.textContent?.trim() ?? '');
  }, header);
}

export function headers(page: Page, table: string): Promise<string[]> {
  return page.locator(`table[aria-label="${table}"] thead th`).allTextContents();
}

// Until a column reads `expected` (a listing's next page comes after its page number changes).
export const columnReads = (page: Page, table: string, header: string, expected: string[]) =>
  until(
    `${table}: column ${header} reads ${JSON.stringify(expected)}`,
    () => column(page, table, header),
    (v) => JSON.stringify(v) === JSON.stringify(expected),
    WAIT_MS,
  );

// The Overview's usage table, a row per quota: its cells after the quota's name, and whether it is highlighted.
export function usageShown(p: Page): Promise<Record<string, { used: string; limit: string; share: string; near: boolean }>> {
  return p.locator('table[aria-label="quota usage"]').evaluate((table) =>
    Object.fromEntries(
      [...table.querySelectorAll('tbody tr')].map((tr) => {
        const [used, limit, share] = [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '');
        return [tr.getAttribute('data-quota'), { used, limit, share, near: tr.classList.contains('quota-near') }];
      }),
    ),
  );
}
