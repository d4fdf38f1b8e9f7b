import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, eventually, fillLogin, login, PHONE, shot, type ListedDevice } from './browser';

/** A phone: 390×844, an iPhone's user agent, touch. */
const phone = (lang = 'en_US', colorScheme: 'light' | 'dark' = 'light') => browser({ ...PHONE, colorScheme, lang });

async function apiGet<T>(page: Page, url: string, method = 'GET'): Promise<T> {
  const res = await page.context().request.fetch(baseURL() + url, { method });
  const answer = (await res.json()) as { code: number; data: T };
  expect(answer.code).toBe(0);
  return answer.data;
}

const deviceRows = (page: Page) => page.getByTestId('mobile-device-row');
const rowNames = (page: Page) => page.locator('[data-testid="mobile-device-row"] .fw-m-device__name > span:first-child').allInnerTexts();
const search = (page: Page) => page.locator('.fw-m-filters__search input');
const badge = (page: Page) => page.locator('.fw-mobile-tabs__bar .adm-badge-content');

describe('phone devices tab', () => {
  test('logs in on the phone and lists, searches and filters the demo devices', async () => {
    const { page } = await phone('en_US');
    await page.goto(baseURL() + '/');
    await page.waitForURL(/\/login/);
    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL(/\/apps\/mobile\/devices/);

    const { list, total } = await apiGet<{ list: ListedDevice[]; total: number }>(page, '/apis/devices?size=100');
    expect(total).toBeGreaterThan(20);
    await deviceRows(page).first().waitFor();
    await eventually(() => page.getByTestId('mobile-device-total').innerText()).toBe(`${total} devices`);
    // 20 come first; the rest load as the list is scrolled to its end.
    expect(await deviceRows(page).count()).toBe(20);
    await shot(page, 'mobile-devices-en_US-light.png');
    for (let i = 0; i < 5 && (await deviceRows(page).count()) < total; i++) {
      await deviceRows(page).last().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
    }
    await eventually(() => deviceRows(page).count()).toBe(total);
    expect(new Set(await rowNames(page))).toEqual(new Set(list.map((d) => d.name)));

    // By name: a piece of it, in any case.
    const model = list[0].name.split('-')[0];
    await search(page).fill(model.toLowerCase());
    const byName = list.filter((d) => d.name.toLowerCase().includes(model.toLowerCase())).map((d) => d.name);
    await eventually(async () => (await rowNames(page)).sort()).toEqual(byName.sort());
    await eventually(() => new URL(page.url()).searchParams.get('nameOrSn')).toBe(model.toLowerCase());

    // By the last 5 digits of the SN.
    const target = list.find((d) => /\d{5}$/.test(d.sn) && list.filter((o) => o.sn.endsWith(d.sn.slice(-5))).length === 1)!;
    await search(page).fill(target.sn.slice(-5));
    await eventually(() => rowNames(page)).toEqual([target.name]);
    await shot(page, 'mobile-devices-sn-en_US-light.png');

    // The search box's clear button brings everyone back.
    await page.locator('.fw-m-filters__search .adm-input-clear').click();
    await eventually(() => page.getByTestId('mobile-device-total').innerText()).toBe(`${total} devices`);

    // Status: every demo device reports, so "offline" finds none and "online" all of them.
    await page.getByTestId('filter-status').click();
    await page.locator('.adm-dropdown-popup .adm-check-list-item', { hasText: /^Offline$/ }).click();
    await eventually(() => new URL(page.url()).searchParams.get('status')).toBe('offline');
    await page.getByText('No devices match these filters').waitFor();
    await shot(page, 'mobile-devices-empty-en_US-light.png');
    await page.getByTestId('filter-status').click();
    await page.locator('.adm-dropdown-popup .adm-check-list-item', { hasText: /^Online$/ }).click();
    await eventually(() => page.getByTestId('mobile-device-total').innerText()).toBe(`${list.filter((d) => (d as ListedDevice & { status: string }).status === 'online').length} devices`);
    expect(await page.locator('[data-testid="mobile-device-row"] .fw-m-status').first().innerText()).toBe('Online');

    // A row opens the device's phone screen.
    const first = (await rowNames(page))[0];
    const opened = list.find((d) => d.name === first)!;
    await deviceRows(page).first().click();
    await page.waitForURL((u) => u.pathname === `/apps/mobile/poi/${opened.hashId}/${opened.id}/realtime` || u.pathname.startsWith(`/apps/mobile/poi/${opened.hashId}/${opened.id}/realtime/`));
  });

  test("shows a device's tags and narrows the list to a tapped tag", async () => {
    const { page } = await phone('zh_CN');
    await login(page, '/apps/mobile/devices');
    const { list } = await apiGet<{ list: ListedDevice[] }>(page, '/apis/devices?size=1');
    const device = list[0];
    const name = `果园-${Date.now().toString(36).slice(-5)}`;
    const res = await page.context().request.post(baseURL() + `/apis/poi/${device.id}/tag`, { data: { tag: name } });
    const tags = ((await res.json()) as { data: { tagId: number; tag: string }[] }).data;
    const tagId = tags.find((tag) => tag.tag === name)!.tagId;
    try {
      await page.reload();
      const row = page.locator(`[data-testid="mobile-device-row"][data-device-id="${device.id}"]`);
      await row.locator('.fw-m-device__tag', { hasText: name }).waitFor();
      await shot(page, 'mobile-devices-tags-zh_CN-light.png');
      await row.locator('.fw-m-device__tag', { hasText: name }).click();
      await eventually(() => new URL(page.url()).searchParams.get('tagId')).toBe(String(tagId));
      await eventually(() => rowNames(page)).toEqual([device.name]);
      expect(await page.getByTestId('filter-tag').innerText()).toBe(name);
      // Still on the list: a tag narrows, it does not open the device.
      expect(new URL(page.url()).pathname).toBe('/apps/mobile/devices');
    } finally {
      await page.context().request.delete(baseURL() + `/apis/tag/${tagId}`);
    }
  });

  test('the map view shows the devices clustered, and a tapped device offers navigation', async () => {
    const { page } = await phone('zh_CN');
    await login(page, '/apps/mobile/devices');
    await deviceRows(page).first().waitFor();
    await page.getByTestId('view-toggle').click();
    await page.waitForURL(/view=map/);
    const map = page.getByTestId('device-map');
    await map.locator('.fw-cluster').first().waitFor();
    expect(await map.locator('canvas').count()).toBeGreaterThan(0);
    const { list } = await apiGet<{ list: { id: number; name: string; lng: number | null }[] }>(page, '/apis/map/all');
    const clustered = await map.locator('.fw-cluster span').allInnerTexts();
    expect(clustered.reduce((sum, n) => sum + Number(n), 0)).toBeLessThanOrEqual(list.length);
    await eventually(() => page.getByTestId('map-legend').innerText()).toContain(`工作中 ${list.length}`);
    // The map fills the phone down to the tab bar.
    const box = (await map.boundingBox())!;
    const bar = (await page.locator('.fw-mobile-tabs__bar').boundingBox())!;
    expect(Math.abs(box.y + box.height - bar.y)).toBeLessThanOrEqual(2);
    await shot(page, 'mobile-devices-map-zh_CN-light.png');

    // A device named in the address: centred, close up, its card open.
    const device = list.find((d) => d.lng !== null)!;
    await page.goto(baseURL() + `/apps/mobile/devices?view=map&focus=${device.id}`);
    const card = page.getByTestId('mobile-device-card');
    await eventually(() => card.locator('.fw-m-card__name').innerText()).toBe(device.name);
    const amap = card.getByRole('link', { name: '高德地图' });
    const baidu = card.getByRole('link', { name: '百度地图' });
    expect(await amap.getAttribute('href')).toMatch(/^https:\/\/uri\.amap\.com\/marker\?position=116\.\d+,37\.\d+&name=/);
    expect(await baidu.getAttribute('href')).toMatch(/^https:\/\/api\.map\.baidu\.com\/marker\?location=37\.\d+,116\.\d+&title=.+&output=html$/);
    await shot(page, 'mobile-devices-map-card-zh_CN-light.png');

    // Closed, then the marker at the centre tapped: the same card again.
    await page.locator('.adm-popup-close-icon').click();
    await card.waitFor({ state: 'detached' });
    const mapBox = (await map.boundingBox())!;
    await page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2);
    await eventually(() => card.locator('.fw-m-card__name').first().innerText()).toBe(device.name);

    // Open goes to the device's phone screen.
    await card.first().getByRole('button').click();
    await page.waitForURL(new RegExp(`/apps/mobile/poi/[^/]+/${device.id}/realtime`));
  });

  for (const [lang, scheme] of [
    ['zh_TW', 'dark'],
    ['zh_CN', 'dark'],
  ] as const) {
    test(`shows the list and the map in ${lang}, ${scheme}`, async () => {
      const { page } = await phone(lang, scheme);
      await login(page, '/apps/mobile/devices');
      await deviceRows(page).first().waitFor();
      await shot(page, `mobile-devices-${lang}-${scheme}.png`);
      await page.getByTestId('view-toggle').click();
      await page.getByTestId('device-map').locator('.fw-cluster').first().waitFor();
      await shot(page, `mobile-devices-map-${lang}-${scheme}.png`);
    });
  }
});

interface Message {
  messageId: number;
  ruleDeviceId: number;
  read: boolean;
  ruleName: string;
}

describe('phone messages tab', () => {
  test('lists the messages with the unread badge; opening one marks it read and goes to its device', async () => {
    const { page } = await phone('en_US');
    await login(page, '/apps/mobile/devices');
    const { unread } = await apiGet<{ unread: number }>(page, '/apis/event/messages', 'OPTIONS');
    expect(unread).toBeGreaterThan(1);
    await eventually(() => badge(page).innerText()).toBe(unread > 99 ? '99+' : String(unread));

    await page.locator('.adm-tab-bar-item', { hasText: 'Messages' }).click();
    await page.waitForURL(/\/apps\/mobile\/messages/);
    const rows = page.getByTestId('mobile-message-row');
    await rows.first().waitFor();
    const { list } = await apiGet<{ list: Message[] }>(page, '/apis/event/messages?size=20');
    expect(await rows.count()).toBe(list.length);
    expect(await rows.first().innerText()).toContain(list[0].ruleName);
    await shot(page, 'mobile-messages-en_US-light.png');

    // Unread only, then alarms only: the address and the list follow.
    await page.getByTestId('filter-read').click();
    await page.locator('.adm-dropdown-popup .adm-check-list-item', { hasText: 'Unread only' }).click();
    await eventually(() => new URL(page.url()).searchParams.get('unread')).toBe('true');
    await eventually(() => page.locator('[data-testid="mobile-message-row"][data-read="true"]').count()).toBe(0);
    await page.getByTestId('filter-level').click();
    await page.locator('.adm-dropdown-popup .adm-check-list-item', { hasText: /^Alarm$/ }).click();
    await eventually(() => new URL(page.url()).searchParams.get('level')).toBe('alarm');
    await eventually(async () => (await rows.allInnerTexts()).every((text) => text.includes('Alarm'))).toBe(true);
    await page.getByTestId('filter-level').click();
    await page.locator('.adm-dropdown-popup .adm-check-list-item', { hasText: 'All levels' }).click();
    await eventually(() => new URL(page.url()).searchParams.get('level')).toBeNull();
    // Settled on the unread messages again.
    const unreadList = (await apiGet<{ list: Message[] }>(page, '/apis/event/messages?unread=true&size=20')).list;
    const shownIds = () => rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-message-id'))));
    await eventually(shownIds).toEqual(unreadList.map((m) => m.messageId));

    // Opening an unread message: it is read, the badge drops by one, its device opens.
    const first = page.locator('[data-testid="mobile-message-row"][data-read="false"]').first();
    const id = Number(await first.getAttribute('data-message-id'));
    const message = (await apiGet<{ list: Message[] }>(page, '/apis/event/messages?size=100')).list.find((m) => m.messageId === id)!;
    const devices = await apiGet<{ list: { id: number; hashId: string }[] }>(page, '/apis/map/all');
    const device = devices.list.find((d) => d.id === message.ruleDeviceId)!;
    const read = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname === '/apis/event/messages/read');
    await first.click();
    expect((await read).postDataJSON()).toEqual({ ids: [id] });
    await page.waitForURL((u) => u.pathname.startsWith(`/apps/mobile/poi/${device.hashId}/${device.id}/realtime`));
    await eventually(async () => (await apiGet<{ unread: number }>(page, '/apis/event/messages', 'OPTIONS')).unread).toBe(unread - 1);

    await page.goto(baseURL() + '/apps/mobile/messages');
    await eventually(() => badge(page).innerText()).toBe(unread - 1 > 99 ? '99+' : String(unread - 1));
    expect(await page.locator(`[data-message-id="${id}"]`).getAttribute('data-read')).toBe('true');
  });

  for (const [lang, scheme] of [
    ['zh_CN', 'light'],
    ['zh_TW', 'light'],
    ['en_US', 'dark'],
  ] as const) {
    test(`shows the messages in ${lang}, ${scheme}`, async () => {
      const { page } = await phone(lang, scheme);
      await login(page, '/apps/mobile/messages');
      await page.getByTestId('mobile-message-row').first().waitFor();
      await shot(page, `mobile-messages-${lang}-${scheme}.png`);
    });
  }
});
