// The dashboard in a real headless Chromium (Debian's chromium, driven by playwright-core) against a
// real recd and Redis: signing in (and a wrong password), a database becoming ready after its data
// is uploaded, tasks and their progress, the catalogue's items with a filter and its users (one item,
// one user), recommendations for an item, a session and a user, scenarios, accounts, signing out; the
// Overview's usage of the default quotas.
// Screenshots of each page go to docs/dashboard/ (test/helpers/browser.ts).
import t from 'tap';
import type { Page } from 'playwright-core';
import { unique } from '../helpers/fixtures.js';
import { freshDatabase, range, uid } from '../helpers/feedback.js';
import { RATINGS, RECO_ENV, N_ITEMS, isA } from '../helpers/reco.js';
import { column, columnReads, dashboardStack, headers, usageShown } from '../helpers/browser.js';
import { keys } from '../../src/store/keys.js';
import { ROOT_EMAIL, ROOT_PASSWORD } from '../helpers/stack.js';

t.setTimeout(300_000);
const { stack, api, root, ui } = await dashboardStack(t, RECO_ENV);
const page = await ui.open();
const shot = (name: string) => ui.shot(page, name);
const need = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what);
};

// The planted catalogue of test/helpers/reco.ts (genres a and b, price = id), without ratings yet.
const { db, token } = await freshDatabase(api, root);
need((await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token })).status === 204, 'genre');
need((await api.post('items-properties/', { property_name: 'price', value_type: 'int32' }, { token })).status === 204, 'price');
const items = range(1, N_ITEMS + 1).map((i) => ({ item_id: i, genre: isA(i) ? 'a' : 'b', price: i }));
need((await api.put('items-bulk/properties/', { items }, { token })).status === 200, 'items');
// Its users with a property of their own: the A lovers (0..29) in one country, the others in another.
const N_USERS = 70;
const countryOf = (u: number) => (u < 30 ? 'fr' : 'de');
need((await api.post('users-properties/', { property_name: 'country', value_type: 'unicode16' }, { token })).status === 204, 'country');
need(
  (
    await api.put(
      'users-bulk/properties/',
      { users: range(0, N_USERS).map((u) => ({ user_id: uid(u), country: countryOf(u) })) },
      { token },
    )
  ).status === 200,
  'users',
);
const dbName = (await api.get('databases/current/', { token })).body.name as string;

// The counts the Overview shows, by their labels (a definition list: dt, then its dd).
async function countsShown(p: Page): Promise<Record<string, string>> {
  return p
    .getByTestId('db-counts')
    .evaluate((dl) =>
      Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? ''])),
    );
}

t.test('a wrong password shows the API error; the right one signs in', async (t) => {
  await page.goto(ui.base);
  await page.getByLabel('Email', { exact: true }).fill(ROOT_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  t.match(await alert.textContent(), /AuthError \(INCORRECT_PASSWORD\): incorrect login or password/);
  await shot('sign-in');
  await page.getByLabel('Password', { exact: true }).fill(ROOT_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  t.match(await page.locator('.who').textContent(), `${ROOT_EMAIL} · root`);
});

t.test('a database becomes ready once its ratings are uploaded', async (t) => {
  await page.getByLabel('Database', { exact: true }).selectOption({ label: dbName });
  const status = page.getByTestId('db-status');
  await page.getByTestId('db-status').filter({ hasText: 'pending' }).waitFor();
  t.equal(await status.textContent(), 'pending');
  await page
    .getByTestId('db-counts')
    .filter({ hasText: `Items${N_ITEMS}` })
    .waitFor();
  t.same(
    await countsShown(page),
    { Items: String(N_ITEMS), Users: String(N_USERS), Ratings: '0', Interactions: '0', Sessions: '0' },
    'the catalogue and its users uploaded, no feedback yet',
  );
  need((await api.put('ratings-bulk/', { ratings: RATINGS }, { token })).status === 200, 'ratings');
  await status.filter({ hasText: 'ready' }).waitFor();
  t.equal(await status.textContent(), 'ready');
  // Read again once the database is ready; the users who rated are the ones with records (a user seen
  // only in ratings would not be counted: docs/api-choices.md, "Database counts").
  await page
    .getByTestId('db-counts')
    .filter({ hasText: `Ratings${RATINGS.length}` })
    .waitFor();
  t.same(
    await countsShown(page),
    { Items: String(N_ITEMS), Users: String(N_USERS), Ratings: String(RATINGS.length), Interactions: '0', Sessions: '0' },
    'the ratings uploaded',
  );
  await page.getByTestId('model-counts').waitFor();
  t.match(await page.getByTestId('model-counts').textContent(), '40 items, 70 users, 630 ratings');
  await page.getByRole('region', { name: 'API calls' }).getByRole('button', { name: 'Refresh' }).click();
  await page.locator('.chart canvas').first().waitFor();
  await shot('overview');
});

t.test('tasks: the training that ran, and a retrain followed to its end', async (t) => {
  await page.getByRole('link', { name: 'Tasks' }).click();
  await page.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
  const retrains = page.locator('tr[data-status="COMPLETED"]', { hasText: 'ml_model_retrain' });
  await retrains.first().waitFor();
  t.equal(await retrains.first().locator('progress').getAttribute('value'), '1', 'a finished task is a full bar');
  // The trainer lock held as another process's running retrain holds it: the requested run waits,
  // queued, until it goes (what the page shows meanwhile is not a race with the trainer).
  t.equal(await stack.redis.set(keys.trainerLock(db), 'elsewhere ml_model_retrain', 'PX', 60_000, 'NX'), 'OK', 'the trainer lock is held');
  await page.getByRole('button', { name: 'Retrain now' }).click();
  const queued = page.locator('tr[data-status="QUEUED"]', { hasText: 'ml_model_retrain' });
  await queued.waitFor();
  t.match(await queued.textContent(), 'waiting for a trainer');
  t.equal(await queued.locator('progress').getAttribute('value'), null, 'a bar that says it is not known how far it is');
  await shot('tasks');
  await stack.redis.del(keys.trainerLock(db));
  // The page reads the tasks again by itself: the run starts and completes.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('tr[data-status="COMPLETED"]')].filter((tr) => tr.textContent?.includes('ml_model_retrain')).length
      === 2,
  );
  t.equal(await retrains.count(), 2);
  t.equal(await queued.count(), 0);
  t.match(await retrains.first().textContent(), /model [0-9a-f-]+: 70 users, 40 items, 630 ratings/);
});

t.test("overview: the database's usage against the default quotas", async (t) => {
  await page.getByRole('link', { name: 'Overview' }).click();
  // Read as the page is shown again, after the retrains of the test above.
  await page.getByRole('region', { name: 'Usage' }).locator('tr[data-quota="training_seconds"]', { hasText: 'last retrain' }).waitFor();
  const shown = await usageShown(page);
  const training = shown.training_seconds!;
  t.match(training.used, /^\d+ s \(last retrain\)$/, "the last retrain's seconds");
  t.equal(training.limit, '3,600 s');
  t.match(training.share, /^(0|< 0\.1) %$/, 'a short run for 40 items');
  delete shown.training_seconds;
  const share = (s: string) => ({ share: s, near: false });
  t.same(shown, {
    items: { used: '40', limit: '10,000,000', ...share('< 0.1 %') },
    users: { used: '70', limit: '50,000,000', ...share('< 0.1 %') },
    ratings: { used: String(RATINGS.length), limit: '200,000,000', ...share('< 0.1 %') },
    interactions: { used: '0', limit: '200,000,000', ...share('0 %') },
    item_properties: { used: '2', limit: '1,000', ...share('0.2 %') },
    user_properties: { used: '1', limit: '1,000', ...share('0.1 %') },
    record_bytes: { used: 'per record', limit: '65,536 bytes', ...share('') },
    requests_per_second: { used: 'per second', limit: 'no limit', ...share('') },
  });
  t.equal(await page.locator('tr.quota-near').count(), 0, 'nothing near its quota');
});

t.test('catalogue: items a page at a time, a filter, one item', async (t) => {
  await page.getByRole('link', { name: 'Catalogue' }).click();
  await page.locator('table[aria-label="items listing"] tbody tr').nth(19).waitFor();
  t.equal(await page.locator('table[aria-label="items listing"] tbody tr').count(), 20, 'the first page of 20');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('page 2').waitFor();
  await columnReads(page, 'items listing', 'item_id', range(21, 41).map(String));
  t.ok(await page.getByRole('button', { name: 'Next' }).isDisabled(), 'the last page');
  await page.getByLabel(/^Filters/).fill('genre:eq:a\nprice:gte:15');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('page 1').waitFor();
  await columnReads(page, 'items listing', 'item_id', ['15', '16', '17', '18', '19', '20']);
  await page.getByRole('button', { name: '17', exact: true }).click();
  await page.getByTestId('entity-details').waitFor();
  t.match(await page.getByTestId('entity-details').textContent(), /item_id17genreaprice17/);
  await shot('catalogue');
});

t.test('catalogue: users a page at a time, one user', async (t) => {
  await page.getByRole('button', { name: 'Users', exact: true }).click();
  t.equal(await page.getByRole('button', { name: 'Users', exact: true }).getAttribute('aria-pressed'), 'true');
  t.equal(await page.getByLabel(/^Filters/).count(), 0, 'the listing filters items only');
  const listing = 'users listing';
  await columnReads(page, listing, 'user_id', range(0, 20).map(uid));
  t.same(await headers(page, listing), ['user_id', 'country']);
  t.same(await column(page, listing, 'country'), range(0, 20).map(countryOf));
  for (const [n, from] of [
    [2, 20],
    [3, 40],
    [4, 60],
  ] as const) {
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`page ${n}`).waitFor();
    await columnReads(page, listing, 'user_id', range(from, Math.min(from + 20, N_USERS)).map(uid));
  }
  t.ok(await page.getByRole('button', { name: 'Next' }).isDisabled(), 'page 4 of 70 users is the last');
  t.same(await column(page, listing, 'country'), range(60, 70).map(countryOf));
  await page.getByRole('button', { name: 'Previous' }).click();
  await page.getByText('page 3').waitFor();
  await columnReads(page, listing, 'user_id', range(40, 60).map(uid));
  await page.getByRole('button', { name: uid(45), exact: true }).click();
  const details = page.getByRole('region', { name: `User ${uid(45)}` });
  await details.getByTestId('entity-details').waitFor();
  t.match(await details.getByTestId('entity-details').textContent(), `user_id${uid(45)}countryde`);
  await shot('catalogue-users');
  await details.getByRole('button', { name: 'Close details' }).click();
  t.equal(await details.count(), 0, 'closed');
});

t.test('try it: an item, with a filter, and a session', async (t) => {
  await page.getByRole('link', { name: 'Try it' }).click();
  await page.getByLabel('Item ID').fill('3');
  await page.getByRole('button', { name: 'Recommend' }).click();
  await page.locator('table[aria-label="recommended items"] tbody tr').first().waitFor();
  const liked = await column(page, 'recommended items', 'genre');
  t.equal(liked.length, 10);
  t.ok(liked.filter((g) => g === 'a').length >= 8, `an A item's neighbours are mostly A items: ${liked}`);
  t.same(await column(page, 'input', 'item_id'), ['3'], 'the item itself beside them');
  await page.getByLabel(/^Filters/).fill('genre:eq:b');
  await page.getByRole('button', { name: 'Recommend' }).click();
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll('table[aria-label="recommended items"] tbody tr td:nth-child(3)')];
    return cells.length === 10 && cells.every((c) => c.textContent === 'b');
  });
  t.same(new Set(await column(page, 'recommended items', 'genre')), new Set(['b']), 'the filter holds');
  await page.getByLabel(/^Filters/).fill('');
  await page.getByLabel('a session').check();
  await page.getByLabel(/^Session/).fill('21 9\n22 9\n23');
  await page.getByRole('button', { name: 'Recommend' }).click();
  await page.getByRole('heading', { name: 'The session' }).waitFor();
  await page.locator('table[aria-label="recommended items"] tbody tr').nth(9).waitFor();
  const forSession = await column(page, 'recommended items', 'genre');
  t.ok(forSession.filter((g) => g === 'b').length >= 8, `a session of B items gets B items: ${forSession}`);
  t.same(await column(page, 'input', 'item_id'), ['21', '22', '23']);
  t.match(await page.getByRole('heading', { name: /^Recommended/ }).textContent(), 'session_to_items');
  await shot('try-it');
});

t.test("try it: a user, the user's properties beside the items recommended", async (t) => {
  await page.getByLabel('a user').check();
  await page.getByLabel('User ID').fill(uid(5));
  await page.getByRole('button', { name: 'Recommend' }).click();
  await page.getByRole('heading', { name: 'The user' }).waitFor();
  await page.locator('table[aria-label="recommended items"] tbody tr').nth(9).waitFor();
  t.same(await headers(page, 'input'), ['user_id', 'country'], 'the user with its properties');
  t.same(await column(page, 'input', 'country'), ['fr']);
  t.same(await column(page, 'input', 'user_id'), [uid(5)]);
  t.same(await headers(page, 'recommended items'), ['#', 'item_id', 'genre', 'price'], "the items' properties, not the user's");
  const liked = await column(page, 'recommended items', 'genre');
  t.ok(liked.filter((g) => g === 'a').length >= 8, `an A lover gets A items: ${liked}`);
  t.same(
    await column(page, 'recommended items', 'price'),
    await column(page, 'recommended items', 'item_id'),
    'each item with its own properties (price = id)',
  );
  t.match(await page.getByRole('heading', { name: /^Recommended/ }).textContent(), 'profile_to_items');
  await shot('try-it-user');
});

t.test('scenarios: the graph of a scenario, its default and the path a request took', async (t) => {
  const put = async (name: string, scenario: unknown) =>
    need((await api.put(`scenarios/item_to_items/${name}/`, scenario, { token })).status === 200, name);
  await put('only-b', { scenario_type: 'case', case: { filters: [{ property_name: 'genre', op: 'eq', value: 'b' }], amt: 5 } });
  await put('cheap', { scenario_type: 'case', case: { filters: [{ property_name: 'price', op: 'lt', value: 10 }] } });
  await put('by-genre', {
    scenario_type: 'condition',
    condition: { condition_type: 'item_property', if: { property_name: 'genre', op: 'eq', value: 'a' }, then: 'only-b', else: 'cheap' },
  });
  await put('front', { scenario_type: 'alias', alias: { scenario_name: 'by-genre' } });
  need((await api.patch('scenarios-default/item_to_items/', { name: 'front' }, { token })).status === 204, 'default');
  await page.getByRole('link', { name: 'Scenarios' }).click();
  await page.getByRole('button', { name: 'front' }).click();
  const graph = page.getByLabel('graph of front');
  await graph.waitFor();
  t.match(await graph.textContent(), /front.*alias.*by-genre.*condition.*only-b.*case.*cheap.*case/);
  t.match(await page.getByRole('region', { name: 'item_to_items' }).textContent(), 'Default: front');
  await shot('scenarios');
  await page.getByRole('link', { name: 'Try it' }).click();
  await page.getByLabel('Item ID').fill('3');
  await page.getByRole('button', { name: 'Recommend' }).click();
  await page.getByTestId('scenario-path').filter({ hasText: 'front' }).waitFor();
  t.match(await page.getByTestId('scenario-path').textContent(), /front.*by-genre.*only-b/, 'item 3 is of genre a');
  t.same(new Set(await column(page, 'recommended items', 'genre')), new Set(['b']), 'the case its path ends at applies');
});

t.test('outcomes: rates by scenario, over time and by position; an A/B test with its verdict', async (t) => {
  const ab = await api.post('ab-tests/params/', { name: 'dash test', probability_a: 0.5 }, { token });
  need(ab.status === 200, 'ab test');
  const put = async (name: string, scenario: unknown) =>
    need((await api.put(`scenarios/item_to_items/${name}/`, scenario, { token })).status === 200, name);
  await put('arm-a', { scenario_type: 'case', case: { amt: 4 } });
  await put('arm-b', { scenario_type: 'case', case: { amt: 6 } });
  await put('split', { scenario_type: 'ab_test', ab_test: { id: ab.body.id, scenario_a: 'arm-a', scenario_b: 'arm-b' } });
  for (const u of range(0, 20)) {
    const r = await api.get('recommendation/items/3/items/', { token, query: `scenario=split&user_id=${uid(u)}` });
    need(r.status === 200, `reco ${r.text}`);
    const click = { interaction_type: 'click', properties: { recommendation_id: r.body.recommendation_id } };
    if (u % 3 === 0)
      need((await api.post(`users/${uid(u)}/interactions/${r.body.items_id[0]}/`, click, { token })).status === 200, 'click');
  }
  await new Promise((r) => setTimeout(r, 600)); // answers and credits reach Redis every 200 ms
  await page.getByRole('link', { name: 'Outcomes' }).click();
  await page.getByRole('heading', { name: 'Outcomes', exact: true }).waitFor();
  const table = page.getByRole('table', { name: 'outcomes by scenario' });
  await table.waitFor();
  t.match(await table.textContent(), /split/, 'the scenario requests named');
  t.equal(await page.getByLabel('Interaction type').inputValue(), 'click');
  t.ok(await page.getByRole('img', { name: /rate per scenario/ }).isVisible(), 'rates over time per scenario');
  t.ok(await page.getByRole('img', { name: /rate per A\/B arm/ }).isVisible(), 'and per A/B arm');
  t.ok(await page.getByRole('img', { name: /rate by position/ }).isVisible(), 'the position curve');
  const result = page.locator(`[data-test="${ab.body.id}"]`);
  t.match(await result.textContent(), /dash test/);
  t.match(
    await result.locator('.verdict').first().textContent(),
    /^(A|B) ahead by|^not enough data yet|^no difference shown/,
    'a plain verdict',
  );
  await shot('outcomes');
});

t.test('accounts: create a service account and a key; sign out', async (t) => {
  await page.getByRole('link', { name: 'Accounts' }).click();
  const name = unique('svc');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create service account' }).click();
  await page.getByRole('cell', { name, exact: true }).waitFor();
  t.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '', 'the form is emptied once the account exists');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create service account' }).click();
  await page.getByRole('alert').waitFor();
  t.match(await page.getByRole('alert').textContent(), /DuplicatedError \(DUPLICATED_ACCOUNT\)/, 'the API error, as it gave it');
  await page
    .getByRole('form', { name: `New key for ${name}` })
    .getByRole('button', { name: 'New key' })
    .click();
  await page.getByTestId('new-key').waitFor();
  const key = await page.getByTestId('new-key').textContent();
  const login = await api.post('login/service/', { name, password: key, db_id: db });
  t.equal(login.status, 200, 'the key shown once signs the service account in');
  await page.getByRole('button', { name: 'Done' }).click();
  await shot('accounts');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to recd' }).waitFor();
  t.equal(await page.getByLabel('Password', { exact: true }).inputValue(), '', 'nothing of the session is left in the form');
});

t.test('no uncaught error in the page all along', async (t) => {
  t.same(ui.pageErrors, []);
});
