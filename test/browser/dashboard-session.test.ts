// The dashboard's session in a real headless Chromium: an expired JWT is refreshed with the refresh
// token and the call goes through; frontend and demo_viewer accounts get their read-only views; the
// token is kept in memory only (nothing in the page's storage, a reload signs out); a quota at its limit
// is highlighted in the Overview's usage.
import t from 'tap';
import type { Request } from 'playwright-core';
import { dashboardStack, usageShown } from '../helpers/browser.js';
import { rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { uid } from '../helpers/feedback.js';
import { until } from '../helpers/reco.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD } from '../helpers/stack.js';

t.setTimeout(180_000);
// Tokens that expire within seconds, so that the test sees one expire; quotas small enough for the
// demo_viewer's database to reach one (3 items known) and to use half of another (1 interaction of 2).
const { api, ui } = await dashboardStack(t, { RECD_JWT_TTL_SECONDS: '2', RECD_QUOTA_ITEMS: '3', RECD_QUOTA_INTERACTIONS: '2' });
// One call per root token: a token lives two seconds, which a loaded machine can spend between two calls.
const dbName = unique('db');
const db = (
  await api.post(
    'databases/',
    { name: dbName, description: 'test', item_id_type: 'uint32', user_id_type: 'uuid' },
    { token: await rootToken(api) },
  )
).body.id as string;

async function signedIn(email: string, password: string, database?: string) {
  const page = await ui.open();
  await page.goto(ui.base);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (database) await page.getByLabel('Database name (optional)').fill(database);
  // By keyboard: Enter in the form submits it.
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  return page;
}

t.test('once the JWT has expired, the page refreshes it and its calls go through', async (t) => {
  const page = await signedIn(ROOT_EMAIL, ROOT_PASSWORD);
  const calls: Request[] = [];
  page.on('request', (r) => calls.push(r));
  // The token the page holds, from the next call it makes.
  const first = page.waitForRequest((r) => r.url().includes('/v1/databases/'));
  await page.getByRole('region', { name: 'Databases' }).getByRole('button', { name: 'Refresh' }).click();
  const token = (await first).headers().authorization!;
  t.same(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0], 'nothing kept in storage');
  // Until the API refuses it as expired (the page renews it only when a call is about to leave).
  await until(
    'the token expires',
    () => api.get('databases/', { headers: { authorization: token } }),
    (r) => r.status === 401 && r.body.error_name === 'JwtTokenExpired',
    30_000,
  );
  // Renewed before the call leaves (the token is past its renewal time), or when the API refuses it:
  // either way the list comes with a new token and no error is shown.
  const listed = page.waitForResponse(
    (r) => r.url().includes('/v1/databases/') && r.status() === 200 && r.request().headers().authorization !== token,
  );
  await page.getByRole('region', { name: 'Databases' }).getByRole('button', { name: 'Refresh' }).click();
  await listed;
  t.ok(
    calls.some((r) => r.url().endsWith('/v1/login/refresh-token/')),
    'refreshed with the refresh token',
  );
  await page.getByRole('cell', { name: dbName, exact: true }).waitFor();
  t.equal(await page.getByRole('alert').count(), 0, 'no error shown');
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in to recd' }).waitFor();
  t.equal(await page.getByLabel('Password', { exact: true }).inputValue(), '', 'a reload signs out: the token lived in memory only');
  await page.close();
});

t.test('a frontend account sees the read-only view', async (t) => {
  const email = `${unique('frontend')}@test.local`;
  // A fresh root token: the first one expired long ago.
  t.equal(
    (await api.post('accounts/individual/', { email, role: 'frontend', password: PASSWORD }, { token: await rootToken(api) })).status,
    200,
  );
  const page = await signedIn(email, PASSWORD, dbName);
  const links = await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents();
  t.same(links, ['Overview', 'Try it']);
  t.match(await page.locator('.who').textContent(), 'frontend (read-only)');
  await page.getByTestId('db-status').filter({ hasText: 'pending' }).waitFor();
  t.equal(await page.getByRole('button', { name: 'Retrain now' }).count(), 0);
  t.equal(await page.getByTestId('db-counts').count(), 0, "the database's counts are not a frontend account's to read");
  t.equal(await page.getByRole('region', { name: 'Usage' }).count(), 0, 'nor its usage of the quotas');
  t.equal(await page.getByRole('alert').count(), 0, 'no error shown');
  await page.close();
});

t.test('a demo_viewer account signs in and sees the counts and the usage, read-only', async (t) => {
  // Each upload with a token of its own: tokens here live two seconds.
  const onDb = () => tokenFor(api, '', 'root', db);
  t.equal(
    (await api.put('items-bulk/properties/', { items: [{ item_id: 1 }, { item_id: 2 }, { item_id: 3 }] }, { token: await onDb() })).status,
    200,
  );
  t.equal((await api.put('users-bulk/properties/', { users: [{ user_id: uid(1) }] }, { token: await onDb() })).status, 200);
  const ratings = [1, 2].map((item_id) => ({ user_id: uid(1), item_id, rating: 8 }));
  t.equal((await api.put('ratings-bulk/', { ratings }, { token: await onDb() })).status, 200);
  t.equal(
    (await api.post(`sessions/${uid(900)}/items/3/interactions/`, { interaction_type: 'view' }, { token: await onDb() })).status,
    200,
  );
  const email = `${unique('viewer')}@test.local`;
  t.equal(
    (await api.post('accounts/individual/', { email, role: 'demo_viewer', password: PASSWORD }, { token: await rootToken(api) })).status,
    200,
  );
  const page = await signedIn(email, PASSWORD, dbName);
  const links = await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents();
  t.same(links, ['Overview']);
  t.match(await page.locator('.who').textContent(), 'demo_viewer (read-only)');
  const counts = page.getByRole('region', { name: 'Counts' }).getByTestId('db-counts');
  await counts.filter({ hasText: 'Items3' }).waitFor();
  const shown = await counts.evaluate((dl) =>
    Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? ''])),
  );
  t.same(shown, { Items: '3', Users: '1', Ratings: '2', Interactions: '1', Sessions: '1' });
  t.equal(await page.getByTestId('db-status').count(), 0, 'no status: a demo_viewer account may not read it');
  t.same(
    await page.getByRole('main').getByRole('button').allTextContents(),
    ['Refresh', 'Refresh'],
    'nothing to change, only to read again',
  );
  // Its usage: the items at their quota, highlighted; the interactions at half of theirs, not.
  const usage = page.getByRole('region', { name: 'Usage' });
  await usage.locator('tr[data-quota="items"]', { hasText: '100 %' }).waitFor();
  const quotas = await usageShown(page);
  t.same(quotas.items, { used: '3', limit: '3', share: '100 % at the limit', near: true }, 'at the quota: highlighted');
  t.same(quotas.interactions, { used: '1', limit: '2', share: '50 %', near: false });
  t.same(quotas.users, { used: '1', limit: '50,000,000', share: '< 0.1 %', near: false }, 'the default quota');
  t.same(quotas.training_seconds, { used: 'per run (none ended yet)', limit: '3,600 s', share: '', near: false });
  t.same(
    await page.locator('tr.quota-near').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-quota'))),
    ['items'],
    'only the quota reached',
  );
  // Read again on Refresh.
  t.equal((await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token: await onDb() })).status, 204);
  await usage.getByRole('button', { name: 'Refresh' }).click();
  await usage.locator('tr[data-quota="item_properties"]', { hasText: '0.1 %' }).waitFor();
  t.same((await usageShown(page)).item_properties, { used: '1', limit: '1,000', share: '0.1 %', near: false });
  t.equal(await page.getByRole('alert').count(), 0, 'no error shown');
  await page.close();
});

t.test('a service account signs in with its key, straight into a database', async (t) => {
  const admin = await rootToken(api);
  const name = unique('svc');
  t.equal((await api.post('accounts/service/', { name, role: 'backend' }, { token: admin })).status, 200);
  const key = (await api.post('accounts/service/keys/', { name }, { token: admin })).body.key as string;
  const page = await ui.open();
  await page.goto(ui.base);
  await page.getByLabel('Service account (key)').check();
  await page.getByLabel('Service account name').fill(name);
  await page.getByLabel('Key', { exact: true }).fill(key);
  await page.getByLabel('Database name (optional)').fill(dbName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  t.match(await page.locator('.who').textContent(), `${name} · backend`);
  t.match(await page.locator('.db').textContent(), `database ${dbName}`);
  await page.getByTestId('db-status').filter({ hasText: 'pending' }).waitFor();
  await page.close();
});

t.test('no uncaught error in the pages all along', async (t) => {
  t.same(ui.pageErrors, []);
});
