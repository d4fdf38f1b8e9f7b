import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, DEMO, eventually, fillLogin, loggedIn, myDevices, shot, type Account } from './browser';
import { freePort, startOwnServer, type OwnServer } from './own-server';

// Sharing needs a second account. `fieldwatch user add` writes to the data directory, so this file
// runs its own demo server with a directory it knows, and adds the grantee before it starts.
const GRANTEE = { accountNumber: 'grower02', password: 'grower123', name: 'Li Wei' };

let server: OwnServer | null = null;
const base = () => server!.base;

beforeAll(async () => {
  const smtpPort = await freePort();
  server = await startOwnServer({
    name: 'sharing',
    users: [GRANTEE],
    // Exports need a mail server configured; this file checks that one starts, not its mail.
    args: ['--smtp-url', `smtp://127.0.0.1:${smtpPort}`, '--mail-from', 'Fieldwatch <noreply@fieldwatch.test>'],
  });
});
afterAll(async () => {
  await server?.stop();
});

/** A logged-in browser on this file's server for the demo owner or the grantee. */
const as = (account: Account, start = '/apps/devices', colorScheme: 'light' | 'dark' = 'light', lang = 'en_US') =>
  loggedIn(start, { account, base: base(), colorScheme, lang });

const row = (page: Page, sn: string) => page.locator('.fw-device-table tr.ant-table-row', { hasText: sn });

/** Narrows the device list to one SN (searched by its last five digits). */
async function findInList(page: Page, sn: string) {
  if (!page.url().includes('/apps/devices')) await page.goto(`${base()}/apps/devices`);
  const search = page.locator('.fw-device-filters__search input');
  await search.fill(sn.slice(-5));
  await search.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('nameOrSn') === sn.slice(-5));
  await page.waitForLoadState('networkidle');
}

/** Selects a device in the list and creates a share or transfer link for it; returns the link. */
async function createLink(page: Page, sn: string, mode: 'Share' | 'Transfer', rights: string[] = [], screenshot?: string) {
  await findInList(page, sn);
  await row(page, sn).locator('.ant-checkbox-input').check();
  await page.getByTestId('device-share-toolbar').getByRole('button', { name: mode }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(mode === 'Share' ? 'Share devices' : 'Transfer devices').waitFor();
  expect(await dialog.getByTestId('share-devices').innerText()).toContain(sn);
  for (const right of rights) await dialog.getByRole('checkbox', { name: new RegExp(right) }).check();
  await dialog.getByRole('button', { name: mode === 'Share' ? 'Create link' : 'Create transfer link' }).click();
  const input = dialog.getByTestId('share-link');
  await eventually(() => input.inputValue()).toMatch(/\/apps\/authoried\/(grant|transfer)\?credential=/);
  expect(await dialog.getByTestId('share-expiry').innerText()).toMatch(/Valid for 30 minutes, until \d\d:\d\d; it can be used once/);
  expect(await dialog.locator('.ant-qrcode').count()).toBe(1);
  if (screenshot) await shot(page, screenshot);
  const link = await input.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });
  // The list keeps its selection across searches; the next link starts from none.
  await page.getByRole('button', { name: 'Clear selection' }).click();
  return link;
}

/**
 * Every link handed out but not yet used lapses, as it would after 30 minutes. The server has no
 * clock to move, so this edits its SQLite file; false when the sqlite3 shell is not installed.
 */
async function expireOpenLinks(): Promise<boolean> {
  try {
    await promisify(execFile)('sqlite3', [
      path.join(server!.data, 'fieldwatch.db'),
      'PRAGMA busy_timeout = 10000; UPDATE share_links SET expires_at = 1 WHERE used_at IS NULL;',
    ]);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

describe('sharing', () => {
  test('a grant with the export right: accepted after logging in, read-only name, export allowed, then revoked', async () => {
    const owner = await as(DEMO);
    const [station] = await myDevices(owner.page, 5);
    const link = await createLink(owner.page, station.sn, 'Share', ['Export data'], 'sharing-dialog-en_US-light.png');
    expect(link.startsWith(base())).toBe(true);

    // The grantee opens the link before logging in: it describes itself and asks for a login.
    const grantee = await browser({ colorScheme: 'light', lang: 'en_US' });
    await grantee.page.goto(link);
    await grantee.page.getByTestId('accept-offer').waitFor();
    expect(await grantee.page.getByTestId('accept-offer').innerText()).toContain(`shares 1 device with you`);
    expect(await grantee.page.getByTestId('accept-offer').innerText()).toContain(station.name);
    expect(await grantee.page.getByTestId('accept-offer').innerText()).toContain('Export data');
    await grantee.page.getByTestId('accept-login').waitFor();
    expect(await grantee.page.getByTestId('accept-login').innerText()).toContain('Please log in first');
    await shot(grantee.page, 'sharing-accept-login-en_US-light.png');

    // Logging in comes back to the link, which can now be accepted.
    await grantee.page.getByRole('button', { name: 'Log in' }).click();
    await grantee.page.waitForURL(/\/login\?redirect=/);
    await fillLogin(grantee.page, GRANTEE.accountNumber, GRANTEE.password);
    await grantee.page.waitForURL(/\/apps\/authoried\/grant\?credential=/);
    const accept = grantee.page.getByRole('button', { name: 'Accept', exact: true });
    await accept.waitFor();
    await shot(grantee.page, 'sharing-accept-available-en_US-light.png');
    await accept.click();
    await grantee.page.getByTestId('accept-done').waitFor();
    expect(await grantee.page.getByTestId('accept-done').innerText()).toContain('Share accepted');
    await grantee.page.getByRole('button', { name: 'Go to the device list' }).click();
    await grantee.page.waitForURL(/\/apps\/devices/);

    // The device is in the grantee's list, marked shared, without rename or share.
    await findInList(grantee.page, station.sn);
    const shared = row(grantee.page, station.sn);
    await eventually(() => shared.innerText()).toContain('Shared');
    expect(await shared.getByRole('button', { name: 'Rename' }).isDisabled()).toBe(true);
    expect(await shared.getByRole('button', { name: 'Share device' }).isDisabled()).toBe(true);
    expect(await shared.locator('.ant-checkbox-input').isDisabled()).toBe(true);

    // Its page offers no edit and no sharing, but the data download.
    await shared.locator('.fw-device-name__link').click();
    await grantee.page.getByTestId('poi-device-name').waitFor();
    const header = grantee.page.locator('.fw-poi-header__actions');
    await eventually(() => header.getByRole('button').allInnerTexts()).toEqual([expect.stringMatching(/Download/)]);
    await header.getByRole('button', { name: /Download/ }).click();
    const download = grantee.page.getByRole('dialog');
    await download.locator('input[type="email"], #poi-download_email').first().fill('grower02@example.com');
    const started = grantee.page.waitForResponse((r) => r.url().endsWith(`/apis/poi/${station.id}/datapoints/export`));
    await download.getByTestId('poi-export-submit').click();
    expect((await (await started).json()).code).toBe(0);

    // A rename through the API is refused with the catalogue's message.
    const refused = await grantee.page.evaluate(async (id) => {
      const res = await fetch(`/apis/poi/${id}/profile`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', lang: 'en_US' },
        body: JSON.stringify({ name: 'Mine now' }),
      });
      return res.json();
    }, station.id);
    expect(refused.message).toBe('No permission to modify!');

    // The grantee sees it under "Shared with me".
    await grantee.page.goto(`${base()}/console/authorization?tab=shared`);
    await eventually(() => grantee.page.locator('.fw-share-table').innerText()).toContain(station.name);
    expect(await grantee.page.locator('.fw-share-table').innerText()).toContain('示范农场');
    await shot(grantee.page, 'sharing-shared-with-me-en_US-light.png');

    // The owner sees the grant from both sides, then revokes it.
    await owner.page.goto(`${base()}/console/authorization`);
    const card = owner.page.getByTestId('share-user').filter({ hasText: GRANTEE.name });
    await card.waitFor();
    expect(await card.innerText()).toContain(station.name);
    expect(await card.getByRole('checkbox', { name: /Export data right/ }).isChecked()).toBe(true);
    expect(await card.getByRole('checkbox', { name: /Edit name right/ }).isChecked()).toBe(false);
    await shot(owner.page, 'sharing-users-en_US-light.png');
    await owner.page.getByRole('tab', { name: 'Devices granted' }).click();
    await eventually(() => owner.page.locator('.fw-share-table').innerText()).toContain(GRANTEE.accountNumber);
    await shot(owner.page, 'sharing-devices-en_US-light.png');
    await owner.page.getByRole('tab', { name: 'Users granted' }).click();
    await card.getByRole('button', { name: `Revoke ${GRANTEE.name}'s access to ${station.name}` }).click();
    await owner.page.locator('.ant-popconfirm-buttons').getByRole('button', { name: 'Revoke' }).click();
    await eventually(() => owner.page.getByText('You have not shared any devices yet').count()).toBe(1);

    // Gone for the grantee.
    await findInList(grantee.page, station.sn);
    await eventually(() => row(grantee.page, station.sn).count()).toBe(0);

    // The used link is unavailable now.
    await grantee.page.goto(link);
    await grantee.page.getByTestId('accept-unavailable').waitFor();
    expect(await grantee.page.getByTestId('accept-unavailable').innerText()).toContain('Link unavailable');
  });

  test('a transfer moves the ownership: the old owner no longer sees the device', async () => {
    const owner = await as(DEMO);
    const [, probe] = await myDevices(owner.page, 1);
    const link = await createLink(owner.page, probe.sn, 'Transfer');
    expect(link).toContain('/apps/authoried/transfer?credential=');

    const grantee = await as(GRANTEE, new URL(link).pathname + new URL(link).search);
    const offer = grantee.page.getByTestId('accept-offer');
    await offer.waitFor();
    expect(await offer.innerText()).toContain('Transfer of ownership');
    await grantee.page.getByRole('button', { name: 'Accept transfer' }).click();
    await grantee.page.getByTestId('accept-done').waitFor();
    expect(await grantee.page.getByTestId('accept-done').innerText()).toContain('Transfer accepted');

    // The new owner has it as their own: no "Shared" badge, and it can be shared on.
    await findInList(grantee.page, probe.sn);
    const mine = row(grantee.page, probe.sn);
    await eventually(() => mine.count()).toBe(1);
    expect(await mine.innerText()).not.toContain('Shared');
    expect(await mine.getByRole('button', { name: 'Rename' }).isDisabled()).toBe(false);
    expect(await mine.locator('.ant-checkbox-input').isDisabled()).toBe(false);

    await owner.page.reload();
    await findInList(owner.page, probe.sn);
    await eventually(() => row(owner.page, probe.sn).count()).toBe(0);
  });

  test('an expired or unknown link says it is unavailable', async () => {
    const owner = await as(DEMO);
    const [, station] = await myDevices(owner.page, 5);
    const link = await createLink(owner.page, station.sn, 'Share');

    const visitor = await browser({ colorScheme: 'light', lang: 'en_US' });
    await visitor.page.goto(link);
    await visitor.page.getByTestId('accept-offer').waitFor();
    if (await expireOpenLinks()) {
      await visitor.page.reload();
      await visitor.page.getByTestId('accept-unavailable').waitFor();
      expect(await visitor.page.getByTestId('accept-unavailable').innerText()).toContain('Link unavailable');
    } else {
      console.warn('sqlite3 is not installed: the expired link is not checked, only an unknown one');
    }

    await visitor.page.goto(`${base()}/apps/authoried/grant?credential=no-such-link`);
    await visitor.page.getByTestId('accept-unavailable').waitFor();
    expect(await visitor.page.getByTestId('accept-unavailable').innerText()).toContain('Link unavailable');
    await shot(visitor.page, 'sharing-accept-unavailable-en_US-light.png');
  });

  test('in Chinese: shared from the device page, accepted, managed', async () => {
    const owner = await as(DEMO, '/apps/devices', 'light', 'zh_CN');
    const [station] = await myDevices(owner.page, 14);
    await owner.page.goto(`${base()}/apps/poi/${station.page}/${station.hashId}/${station.id}`);
    const header = owner.page.locator('.fw-poi-header__actions');
    await header.getByRole('button', { name: '转让' }).waitFor();
    await shot(owner.page, 'sharing-detail-owner-zh_CN-light.png');
    await header.getByRole('button', { name: '分享' }).click();

    // The dialog opens on the device page, with the device in it.
    const dialog = owner.page.getByRole('dialog');
    await dialog.getByText('分享设备').waitFor();
    expect(await dialog.getByTestId('share-devices').innerText()).toContain(station.name);
    await dialog.getByRole('checkbox', { name: /编辑名称/ }).check();
    await dialog.getByRole('button', { name: '生成链接' }).click();
    const input = dialog.getByTestId('share-link');
    await eventually(() => input.inputValue()).toContain('/apps/authoried/grant?credential=');
    expect(await dialog.getByTestId('share-expiry').innerText()).toMatch(/30 分钟内有效（至 \d\d:\d\d），只能使用一次/);
    await shot(owner.page, 'sharing-dialog-zh_CN-light.png');
    const link = await input.inputValue();
    await dialog.getByRole('button', { name: /完\s?成/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    const grantee = await as(GRANTEE, '/apps/devices', 'light', 'zh_CN');
    await grantee.page.goto(link);
    await grantee.page.getByRole('button', { name: '接受分享' }).waitFor();
    expect(await grantee.page.getByTestId('accept-offer').innerText()).toContain('示范农场 向你分享了 1 台设备');
    await shot(grantee.page, 'sharing-accept-available-zh_CN-light.png');
    await grantee.page.getByRole('button', { name: '接受分享' }).click();
    await grantee.page.getByTestId('accept-done').waitFor();

    // With the rename right the grantee may rename it, but not share it on.
    await findInList(grantee.page, station.sn);
    const shared = row(grantee.page, station.sn);
    await eventually(() => shared.innerText()).toContain('共享');
    expect(await shared.getByRole('button', { name: '重命名' }).isDisabled()).toBe(false);
    expect(await shared.locator('.ant-checkbox-input').isDisabled()).toBe(true);
    await shot(grantee.page, 'sharing-grantee-list-zh_CN-light.png');

    await owner.page.goto(`${base()}/console/authorization`);
    const card = owner.page.getByTestId('share-user').filter({ hasText: GRANTEE.name });
    await card.waitFor();
    await shot(owner.page, 'sharing-users-zh_CN-light.png');
    await card.getByRole('button', { name: '全部取消' }).click();
    await owner.page.locator('.ant-popconfirm-buttons').getByRole('button', { name: '全部取消' }).click();
    await eventually(() => owner.page.getByTestId('share-user').count()).toBe(0);

    // The account page leads here too.
    await owner.page.goto(`${base()}/console/account`);
    await owner.page.getByTestId('account-sharing').getByRole('button', { name: '打开授权管理' }).click();
    await owner.page.waitForURL(/\/console\/authorization$/);
  });

  test('reads well in the dark: dialog, management page and acceptance page', async () => {
    const owner = await as(DEMO, '/apps/devices', 'dark');
    const [station, other] = await myDevices(owner.page, 7);
    const link = await createLink(owner.page, station.sn, 'Share', ['Edit name', 'Export data'], 'sharing-dialog-en_US-dark.png');

    const grantee = await as(GRANTEE, '/apps/devices', 'dark');
    await grantee.page.goto(link);
    await grantee.page.getByRole('button', { name: 'Accept', exact: true }).waitFor();
    await shot(grantee.page, 'sharing-accept-available-en_US-dark.png');
    await grantee.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await grantee.page.getByTestId('accept-done').waitFor();

    await owner.page.goto(`${base()}/console/authorization`);
    await owner.page.getByTestId('share-user').first().waitFor();
    await shot(owner.page, 'sharing-users-en_US-dark.png');
    await owner.page.getByRole('tab', { name: 'Devices granted' }).click();
    await eventually(() => owner.page.locator('.fw-share-table').innerText()).toContain(GRANTEE.accountNumber);
    await shot(owner.page, 'sharing-devices-en_US-dark.png');

    await grantee.page.goto(`${base()}/console/authorization?tab=shared`);
    await eventually(() => grantee.page.locator('.fw-share-table').innerText()).toContain(station.name);
    await shot(grantee.page, 'sharing-shared-with-me-en_US-dark.png');

    // A transfer dialog, and the pages a stranger sees.
    await createLink(owner.page, other.sn, 'Transfer', [], 'sharing-transfer-dialog-en_US-dark.png');
    const visitor = await browser({ colorScheme: 'dark', lang: 'en_US' });
    await visitor.page.goto(link.replace(/credential=.*/, 'credential=no-such-link'));
    await visitor.page.getByTestId('accept-unavailable').waitFor();
    await shot(visitor.page, 'sharing-accept-unavailable-en_US-dark.png');
    const fresh = await createLink(owner.page, other.sn, 'Share');
    await visitor.page.goto(fresh);
    await visitor.page.getByTestId('accept-login').waitFor();
    await shot(visitor.page, 'sharing-accept-login-en_US-dark.png');

    // Leaves the demo owner as it was.
    await owner.page.goto(`${base()}/console/authorization`);
    await owner.page.getByTestId('share-user').first().getByRole('button', { name: 'Revoke all' }).click();
    await owner.page.locator('.ant-popconfirm-buttons').getByRole('button', { name: 'Revoke all' }).click();
    await eventually(() => owner.page.getByTestId('share-user').count()).toBe(0);
  });
});
