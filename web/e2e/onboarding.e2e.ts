import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, DEMO, eventually, loggedIn, login, PHONE, shot, type Account } from './browser';
import { startOwnServer, type OwnServer } from './own-server';

// Onboarding needs devices nobody owns, with labels this file knows: it registers them with
// `fieldwatch device add` (no owner) before its own demo server starts, and a second account to
// meet a device that is someone else's.
const NEIGHBOUR = { accountNumber: 'grower03', password: 'grower123', name: 'Zhao Min' };
const PROBE = 'ZS0000770001';
const STATION = 'TQ0000770002';
const THEIRS = 'ZS0000770003';

let server: OwnServer | null = null;
const base = () => server!.base;

beforeAll(async () => {
  server = await startOwnServer({
    name: 'onboarding',
    users: [NEIGHBOUR],
    devices: [
      { sn: PROBE, type: 2 },
      { sn: STATION, type: 5 },
      { sn: THEIRS, type: 2, owner: NEIGHBOUR.accountNumber },
    ],
  });
});
afterAll(async () => {
  await server?.stop();
});

const as = (account: Account, start: string, colorScheme: 'light' | 'dark' = 'light', lang = 'en_US') =>
  loggedIn(start, { account, base: base(), colorScheme, lang });

/** The page a device label opens. */
const labelPage = (sn: string) => `/apps/info?code=${encodeURIComponent(server!.labels[sn])}`;

/** The SN and check code printed on a label, as a person would type them. */
function printed(sn: string) {
  const [, labelSn, check] = server!.labels[sn].split(':');
  return { sn: labelSn, check };
}

/** Reports a battery reading over HTTP with the key given; answers the HTTP status. */
async function report(sn: string, key: string): Promise<number> {
  const res = await fetch(`${base()}/ingest/v1/status`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${sn}:${key}`).toString('base64')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ values: { battery: 3.9 } }),
  });
  return res.status;
}

async function listedSNs(page: Page, sn: string): Promise<string[]> {
  await page.goto(`${base()}/apps/devices?nameOrSn=${sn.slice(-5)}`);
  await page.waitForLoadState('networkidle');
  return page.locator('.fw-device-table tr.ant-table-row').allInnerTexts();
}

describe('onboarding', () => {
  test('scan page → bind → listed; credentials and a rotated key; remove', async () => {
    const { page } = await as(DEMO, labelPage(PROBE));
    const panel = page.getByTestId('label-free');
    await panel.waitFor();
    expect(await panel.innerText()).toContain(PROBE);
    await shot(page, 'onboarding-label-free-light.png');

    // The name is checked as the server checks it, in the user's language.
    await panel.getByTestId('bind-device').click();
    await page.getByText('Name cannot be empty').waitFor();
    await panel.getByPlaceholder('e.g. North field probe').fill('North probe');
    await panel.getByTestId('bind-device').click();
    await page.getByTestId('label-bound').waitFor();
    expect(await page.getByTestId('label-bound').innerText()).toContain('North probe is now in your account');
    await shot(page, 'onboarding-label-bound-light.png');

    // The device is in the list, and its label now says it is the caller's.
    await page.getByRole('button', { name: 'Device list' }).click();
    await page.waitForURL((u) => u.pathname === '/apps/devices');
    await eventually(() => listedSNs(page, PROBE)).toEqual([expect.stringContaining('North probe')]);
    await page.goto(base() + labelPage(PROBE));
    await page.getByTestId('label-mine').waitFor();

    // Its page shows the owner the credentials; a new key stops the old one at once.
    await page.getByTestId('label-mine').getByRole('button', { name: 'Open device' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/apps/poi/zhi-shang/'));
    const access = page.getByTestId('poi-access');
    await access.getByTestId('show-credentials').click();
    const creds = page.getByTestId('poi-credentials');
    await creds.waitFor();
    const keyOf = async () => (await creds.locator('.ant-descriptions-item-content').nth(1).innerText()).trim();
    const oldKey = await keyOf();
    expect(oldKey).toMatch(/^[0-9a-f]{32}$/);
    expect(await report(PROBE, oldKey)).toBe(200);
    await access.scrollIntoViewIfNeeded();
    await shot(page, 'onboarding-credentials-light.png', { clip: access });

    await access.getByTestId('rotate-key').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await page.getByTestId('key-rotated').waitFor();
    await eventually(keyOf).not.toBe(oldKey);
    const newKey = await keyOf();
    expect(await report(PROBE, oldKey)).toBe(401);
    expect(await report(PROBE, newKey)).toBe(200);

    // Removing it asks first, then the device is gone from the list and free for the next owner.
    await access.getByTestId('remove-device').click();
    const confirm = page.getByRole('dialog');
    expect(await confirm.innerText()).toContain('Remove North probe from your account?');
    await shot(page, 'onboarding-remove-confirm-light.png');
    await page.getByTestId('confirm-remove').click();
    await page.waitForURL((u) => u.pathname === '/apps/devices');
    await eventually(() => listedSNs(page, PROBE)).toEqual([]);
    await page.goto(base() + labelPage(PROBE));
    await page.getByTestId('label-free').waitFor();
  });

  test('add device from the desktop list by typing the SN and check code (dark, Chinese)', async () => {
    const { page } = await as(DEMO, '/apps/devices', 'dark', 'zh_CN');
    await page.getByTestId('add-device').click();
    const dialog = page.getByTestId('add-device-modal');
    const { sn, check } = printed(STATION);
    await dialog.locator('#device-label_sn').fill(sn);
    await dialog.getByTestId('label-look-up').click();
    await dialog.getByText('请输入标签上印的校验码').waitFor();
    await dialog.locator('#device-label_check').fill(check.toLowerCase());
    await dialog.getByTestId('label-look-up').click();
    await dialog.getByTestId('label-free').waitFor();
    await shot(page, 'onboarding-add-dialog-dark.png');
    await dialog.locator('#bind-device_name').fill('气象站 2 号');
    await dialog.getByTestId('bind-device').click();
    await dialog.getByTestId('label-bound').waitFor();
    await dialog.getByRole('button', { name: '设备列表' }).click();
    await eventually(() => listedSNs(page, STATION)).toEqual([expect.stringContaining('气象站 2 号')]);

    // Its owner's connection card, in the dark theme.
    await page.locator('.fw-device-table tr.ant-table-row', { hasText: STATION }).getByRole('link', { name: '气象站 2 号' }).click();
    const access = page.getByTestId('poi-access');
    await access.getByTestId('show-credentials').click();
    await page.getByTestId('poi-credentials').waitFor();
    await access.scrollIntoViewIfNeeded();
    await shot(page, 'onboarding-credentials-dark.png', { clip: access });
  });

  test("another account's device and an unknown code", async () => {
    const { page } = await as(DEMO, labelPage(THEIRS));
    const other = page.getByTestId('label-other');
    await other.waitFor();
    const text = await other.innerText();
    expect(text).toContain('This device belongs to another account');
    expect(text).not.toContain(NEIGHBOUR.name);
    await shot(page, 'onboarding-label-other-light.png');
    await page.goto(`${base()}/apps/info?code=${encodeURIComponent(`fw:${THEIRS}:AAAAAAAA`)}`);
    await page.getByTestId('label-not-found').waitFor();
  });

  test('phone: the devices tab adds a device by its typed label, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await browser({ ...PHONE, deviceScaleFactor: 2, colorScheme, lang: 'en_US' });
      await login(page, '/apps/mobile/devices', { account: NEIGHBOUR, base: base() });
      await page.getByTestId('m-add-device').click();
      const { sn, check } = printed(PROBE);
      await page.locator('.fw-m-add-sheet input').nth(0).fill(sn);
      await page.locator('.fw-m-add-sheet input').nth(1).fill(check);
      await shot(page, `onboarding-phone-type-${colorScheme}.png`);
      await page.getByTestId('m-label-look-up').click();
      await page.waitForURL((u) => u.pathname === '/apps/info');
      await page.getByTestId(colorScheme === 'light' ? 'label-free' : 'label-mine').waitFor();
      await shot(page, `onboarding-phone-label-${colorScheme}.png`);
      if (colorScheme === 'light') {
        await page.locator('#bind-device_name').fill('Orchard probe');
        await page.getByTestId('bind-device').click();
        await page.getByTestId('label-bound').getByRole('button', { name: 'Open device' }).click();
        await page.waitForURL((u) => u.pathname.startsWith('/apps/mobile/poi/'));
      }
    }
  });
});
