// The dashboard in a real headless Chromium against a real recd and Redis, for what a person needs
// besides the data: signing in and moving between pages with the keyboard alone, a label on every
// control of every page, a failed task's error on the Tasks page (a retrain without ratings, for
// real), deleting an account and a service key on the Accounts page.
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { rootToken, unique } from '../helpers/fixtures.js';
import { freshDatabase } from '../helpers/feedback.js';
import { RECO_ENV } from '../helpers/reco.js';
import { dashboardStack } from '../helpers/browser.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD } from '../helpers/stack.js';

t.setTimeout(240_000);
const { api, root, ui } = await dashboardStack(t, RECO_ENV);
const page = await ui.open();

// A database without ratings, whose retrain fails: asked for now, failed by the time the page shows it.
const { db, token } = await freshDatabase(api, root);
const dbName = (await api.get('databases/current/', { token })).body.name as string;
const retrain = await api.post('tasks/ml_model_retrain/', undefined, { token });
if (retrain.status !== 200) throw new Error(`retrain: ${retrain.status} ${retrain.text}`);
const failedTask = retrain.body.task_id as string;

// Tab (or Shift+Tab, back) until `target` has the focus; an error after 40 presses.
async function tabTo(p: Page, target: Locator, o: { back?: boolean } = {}): Promise<void> {
  const most = 40;
  for (let i = 0; i < most; i++) {
    await p.keyboard.press(o.back ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${target} not reached in ${most} Tab presses`);
}

// The roles of controls; getByRole with a name finds only those whose label gives them one.
const CONTROLS = ['button', 'checkbox', 'combobox', 'link', 'radio', 'searchbox', 'slider', 'spinbutton', 'textbox'] as const;

// What on the page a person cannot tell by its name: controls of each role without an accessible
// name, and inputs without a role of their own (passwords, dates) without a label.
async function unnamed(p: Page): Promise<string[]> {
  const found: string[] = [];
  for (const role of CONTROLS) {
    const missing = (await p.getByRole(role).count()) - (await p.getByRole(role, { name: /\S/ }).count());
    if (missing > 0) found.push(`${missing} ${role} without a name`);
  }
  const unlabelled = await p
    .locator('input, select, textarea')
    .evaluateAll((els) =>
      els
        .filter(
          (el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'),
        )
        .map((el) => el.outerHTML),
    );
  return [...found, ...unlabelled];
}

t.test('signing in and moving between pages with the keyboard alone', async (t) => {
  await page.goto(ui.base);
  await page.getByRole('heading', { name: 'Sign in to recd' }).waitFor();
  t.same(await unnamed(page), [], 'every control of the sign-in form has a name');
  await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
  await page.keyboard.type(ROOT_EMAIL);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(ROOT_PASSWORD);
  await tabTo(page, page.getByRole('textbox', { name: 'Database name (optional)' }));
  await page.keyboard.type(dbName);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  // Straight into the database: the picker shows it chosen once it has listed the databases.
  await page.waitForFunction((id) => (document.getElementById('db-picker') as HTMLSelectElement | null)?.value === id, db);
  t.equal(await page.getByLabel('Database', { exact: true }).inputValue(), db, 'straight into the database');

  // The skip link, the first thing Tab reaches, moves the focus to the page itself.
  await tabTo(page, page.getByRole('link', { name: 'Skip to content' }));
  await page.keyboard.press('Enter');
  t.ok(await page.getByRole('main').evaluate((el) => el === document.activeElement), 'the skip link leads into the page');

  // From the page, back up to the menu (it comes before the page), to the next page.
  for (const name of ['Tasks', 'Catalogue', 'Try it', 'Scenarios', 'Accounts', 'Overview']) {
    await tabTo(page, page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name, exact: true }), {
      back: true,
    });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name, exact: true, level: 1 }).waitFor();
    t.equal(
      await page.getByRole('link', { name, exact: true }).getAttribute('aria-current'),
      'page',
      `${name}: the menu says where we are`,
    );
    t.ok(
      await page.getByRole('main').evaluate((el) => el === document.activeElement),
      `${name}: the focus moves to the page, not left in the menu`,
    );
  }

  // On a page, a form is filled and sent by keyboard as well.
  await tabTo(page, page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Try it' }), { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('textbox', { name: 'Item ID' }));
  await page.keyboard.type('7');
  const sent = page.waitForResponse((r) => r.url().endsWith('/v1/recommendation/generic/items/'));
  await page.keyboard.press('Enter');
  t.equal((await sent).request().postDataJSON().item_id, 7, 'Enter sends the form');
  // The database has no model yet: the API's refusal is shown.
  await page.getByRole('alert').waitFor();
});

t.test('every control of every page has a name', async (t) => {
  // Each page once what it reads has come (its controls with it).
  const loaded: [string, Locator][] = [
    ['Overview', page.getByTestId('db-status').filter({ hasText: 'pending' })],
    ['Tasks', page.locator('tr[data-status="FAILED"]').first()],
    ['Catalogue', page.getByText('Nothing here yet.')],
    ['Try it', page.getByRole('form', { name: 'Recommendation request' })],
    ['Scenarios', page.getByText('No scenario yet', { exact: false })],
    ['Accounts', page.getByRole('cell', { name: ROOT_EMAIL, exact: true })],
  ];
  for (const [name, shown] of loaded) {
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name, exact: true, level: 1 }).waitFor();
    await shown.waitFor();
    t.same(await unnamed(page), [], `${name}: no control without a name`);
  }
  // The controls of the forms, each by its role and name (a control without a label is not found).
  await page.getByRole('link', { name: 'Try it' }).click();
  for (const [role, name] of [
    ['radio', 'an item'],
    ['radio', 'a user'],
    ['radio', 'a session'],
    ['textbox', 'Item ID'],
    ['combobox', 'Scenario (optional)'],
    ['checkbox', 'Skip the default scenario'],
    ['textbox', 'Filters, one per line (e.g. genre:eq:b)'],
    ['textbox', 'Reranking, one per line (e.g. genre:diversity:1)'],
    ['spinbutton', 'How many (1–64)'],
    ['button', 'Recommend'],
  ] as const) {
    t.equal(
      await page.getByRole('form', { name: 'Recommendation request' }).getByRole(role, { name, exact: true }).count(),
      1,
      `Try it: ${role} ${name}`,
    );
  }
  await page.getByRole('link', { name: 'Accounts' }).click();
  const individual = page.getByRole('form', { name: 'New individual account' });
  for (const [role, name] of [
    ['textbox', 'Email'],
    ['combobox', 'Role'],
    ['button', 'Create account'],
  ] as const) {
    t.equal(await individual.getByRole(role, { name, exact: true }).count(), 1, `New individual account: ${role} ${name}`);
  }
  t.equal(await individual.getByLabel('Password (empty: an email invites them to set one)').count(), 1);
});

t.test("a failed task's error on the Tasks page", async (t) => {
  await page.getByRole('link', { name: 'Tasks' }).click();
  const failed = page.locator('tr[data-status="FAILED"]', { hasText: 'ml_model_retrain' });
  await failed.first().waitFor();
  const record = (await api.get('tasks/ml_model_retrain/recents/', { token })).body.tasks.find(
    (x: { task_id: string }) => x.task_id === failedTask,
  );
  t.equal(record?.status, 'FAILED', 'the API says it failed');
  t.match(record?.error, /no ratings/);
  t.match(await failed.last().textContent(), record.error, 'the page shows the error the API gives');
  t.equal(await failed.last().getByRole('progressbar').count(), 0, 'no bar for a run that stopped');
  t.equal(await page.getByRole('alert').count(), 0, 'a past failure is shown, not announced at each poll');
  // The retry the scheduler queued after it: its text's "1/5" is not a share done.
  const retry = page.locator('tr[data-status="QUEUED"]', { hasText: 'retry' }).first();
  await retry.waitFor();
  t.match(await retry.textContent(), /retry 1\/\d+ after a failure/);
  t.equal(await retry.getByRole('progressbar').getAttribute('value'), null, 'a queued run has not started: a bar that says so');
  await ui.shot(page, 'tasks-failed');
});

t.test('deleting an account and a service key on the Accounts page', async (t) => {
  const email = `${unique('gone')}@test.local`;
  const service = unique('svc');
  const admin = await rootToken(api);
  t.equal((await api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: admin })).status, 200);
  t.equal((await api.post('accounts/service/', { name: service, role: 'backend' }, { token: admin })).status, 200);
  for (let i = 0; i < 2; i++) t.equal((await api.post('accounts/service/keys/', { name: service }, { token: admin })).status, 200);
  const keysOf = async () =>
    (
      (await api.get('organizations/current/accounts/', { token: admin })).body.service_accounts as {
        name: string;
        keys: { id: string }[];
      }[]
    )
      .find((s) => s.name === service)
      ?.keys.map((k) => k.id);
  const [gone, kept] = (await keysOf())!;

  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('link', { name: 'Accounts' }).click();
  const person = page.getByRole('cell', { name: email, exact: true });
  await person.waitFor();

  // A dismissed question deletes nothing.
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: `Delete ${email}`, exact: true }).click();
  t.equal(await person.count(), 1, 'still listed');
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.message()), void d.accept())));
  await page.getByRole('button', { name: `Delete ${email}`, exact: true }).click();
  t.equal(await asked, `Delete ${email}?`);
  await person.waitFor({ state: 'detached' });
  t.notOk(
    JSON.stringify((await api.get('organizations/current/accounts/', { token: admin })).body).includes(email),
    'gone from the API too',
  );

  const keys = page.getByRole('list', { name: `Keys of ${service}` });
  t.equal(await keys.getByRole('listitem').count(), 2);
  page.once('dialog', (d) => void d.accept());
  await keys.getByRole('button', { name: `Delete key ${gone!.slice(0, 8)} of ${service}` }).click();
  await keys.getByRole('button', { name: `Delete key ${gone!.slice(0, 8)} of ${service}` }).waitFor({ state: 'detached' });
  t.equal(await keys.getByRole('listitem').count(), 1, 'one key left');
  t.same(await keysOf(), [kept], 'the other key stays');

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: `Delete ${service}`, exact: true }).click();
  await page.getByRole('cell', { name: service, exact: true }).waitFor({ state: 'detached' });
  t.equal(await keysOf(), undefined, 'the service account is gone');
  t.equal(await page.getByRole('alert').count(), 0, 'no error shown');
});

t.test('no uncaught error in the page all along', async (t) => {
  t.same(ui.pageErrors, []);
});
