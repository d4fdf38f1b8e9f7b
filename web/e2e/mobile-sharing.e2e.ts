import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, browser, DEMO, eventually, loggedIn, login, myDevices, PHONE, shot, type Account, type ListedDevice } from './browser';
import { startOwnServer, type OwnServer } from './own-server';

// Phone flows of authorization management and link acceptance. A second account accepts the
// demo owner's link, so this file runs its own server with that account added.
const GRANTEE = { accountNumber: 'grower03', password: 'grower123', name: 'Wang Fang' };

let server: OwnServer | null = null;
const base = () => server!.base;

beforeAll(async () => {
  server = await startOwnServer({ name: 'mobile-sharing', users: [GRANTEE] });
});
afterAll(async () => {
  await server?.stop();
});

/** A phone with the clipboard allowed, logged in on this file's server. */
async function phone(account: Account, start: string, { colorScheme = 'light', lang = 'en_US' } = {}) {
  const { context, page } = await browser({ ...PHONE, deviceScaleFactor: 2, colorScheme: colorScheme as 'light' | 'dark', lang });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  await login(page, start, { account, base: base() });
  return { context, page };
}

describe('authorization on the phone', () => {
  test('the owner shares a device from the phone, a second account accepts the link on its phone and gets the device, then the owner revokes it', async () => {
    const owner = await phone(DEMO, '/apps/mobile/profile');
    // The profile tab leads to authorization management.
    await owner.page.getByText('Authorizations').click();
    await owner.page.waitForURL(/\/apps\/mobile\/authorization$/);
    await owner.page.getByRole('button', { name: /Share devices/ }).waitFor();
    await shot(owner.page, 'mobile-authorization-en_US-light.png');

    const [station] = await myDevices(owner.page, 5);

    // Make a link: search the device by its last five SN digits, tick it, give the rename right.
    await owner.page.getByRole('button', { name: /Share devices/ }).click();
    const sheet = owner.page.locator('.fw-m-share-sheet');
    await sheet.getByText('Choose the devices to share').waitFor();
    await sheet.getByPlaceholder('Name or last 5 digits of SN').fill(station.sn.slice(-5));
    await sheet.getByPlaceholder('Name or last 5 digits of SN').press('Enter');
    const choice = sheet.getByTestId('share-device-choices').locator('.adm-checkbox', { hasText: station.sn });
    await choice.waitFor();
    await eventually(() => sheet.getByTestId('share-device-choices').locator('.adm-checkbox').count()).toBe(1);
    await choice.click();
    await sheet.getByText('Edit name', { exact: true }).click();
    await shot(owner.page, 'mobile-share-sheet-en_US-light.png');
    await sheet.getByRole('button', { name: /Create link · 1 device chosen/ }).click();
    const linkBox = sheet.getByTestId('share-link');
    await eventually(() => linkBox.innerText()).toMatch(/\/apps\/authoried\/grant\?credential=/);
    const link = (await linkBox.innerText()).trim();
    expect(link.startsWith(base())).toBe(true);
    expect(await sheet.getByTestId('share-link-ready').innerText()).toContain(station.name);

    // Copying says so in a dialog titled "Hint" (SPEC §9), and the link is on the clipboard.
    await sheet.getByRole('button', { name: 'Copy link' }).click();
    const dialog = owner.page.locator('.adm-dialog');
    await dialog.getByText('Copy success').waitFor();
    expect(await dialog.locator('.adm-dialog-title').innerText()).toBe('Hint');
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(owner.page, 'mobile-share-copied-en_US-light.png');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The grantee opens the link on a phone (Chinese, dark): the phone acceptance page shows it.
    const grantee = await phone(GRANTEE, '/apps/mobile/profile', { colorScheme: 'dark', lang: 'zh_CN' });
    await grantee.page.goto(link);
    await grantee.page.waitForURL(/\/apps\/mobile\/authorization\/accept\/[^/]+$/);
    const offer = grantee.page.getByTestId('accept-offer');
    await offer.waitFor();
    expect(await offer.innerText()).toContain(station.name);
    expect(await offer.innerText()).toContain('编辑名称');
    await shot(grantee.page, 'mobile-accept-offer-zh_CN-dark.png');
    await offer.getByRole('button', { name: '接受分享', exact: true }).click();
    const done = grantee.page.getByTestId('accept-done');
    await done.waitFor();
    expect(await done.innerText()).toContain('已接受分享');
    await shot(grantee.page, 'mobile-accept-done-zh_CN-dark.png');

    // The device is now the grantee's: in its device list, and under "shared with me".
    const theirs = (await api<{ list: ListedDevice[] }>(grantee.page, 'GET', `/apis/devices?belong=shared&page=1&size=50`)).data;
    expect(theirs.list.map((device) => device.sn)).toContain(station.sn);
    await grantee.page.goto(`${base()}/apps/mobile/authorization?tab=shared`);
    const sharedRow = grantee.page.getByTestId('shared-device').filter({ hasText: station.name });
    await sharedRow.waitFor();
    await shot(grantee.page, 'mobile-authorization-shared-zh_CN-dark.png');

    // A used link is unavailable afterwards.
    await grantee.page.goto(link);
    await grantee.page.getByTestId('accept-unavailable').waitFor();

    // The owner sees who has the device (traditional Chinese), and revokes that person's access.
    await owner.page.evaluate(() => localStorage.setItem('i18n', 'zh_TW'));
    await owner.page.goto(`${base()}/apps/mobile/authorization`);
    const granted = owner.page.getByTestId('granted-device').filter({ hasText: station.name });
    await granted.waitFor();
    expect(await granted.innerText()).toContain(GRANTEE.name);
    await shot(owner.page, 'mobile-authorization-granted-zh_TW-light.png');
    await granted.locator('button', { hasText: '取消授權' }).click();
    await owner.page.locator('.adm-dialog').getByRole('button', { name: '取消授權' }).click();
    await granted.waitFor({ state: 'detached' });
    const after = (await api<{ list: ListedDevice[] }>(grantee.page, 'GET', `/apis/devices?belong=shared&page=1&size=50`)).data;
    expect(after.list.map((device) => device.sn)).not.toContain(station.sn);
  });

  test('a phone route opened in desktop mode goes to its desktop screen', async () => {
    const { page } = await loggedIn('/apps/mobile/authorization', { account: DEMO, base: base(), lang: 'en_US' });
    await page.waitForURL(/\/console\/authorization$/);
    await page.goto(`${base()}/apps/mobile/messages`);
    await page.waitForURL(/\/apps\/events$/);
  });
});
