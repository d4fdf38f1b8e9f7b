import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { apiCall, browser, closeBrowser, eventually, login, openBrowser, shot } from './browser';

/** Logs in with a language and theme chosen, and opens the device list (or another address). */
async function open(lang: string, start = '/apps/devices', colorScheme: 'light' | 'dark' = 'light') {
  const { context, page } = await browser({ colorScheme, lang });
  await login(page, `/login?redirect=${encodeURIComponent(start)}`);
  await (start.includes('view=map') ? page.locator('.fw-device-map .leaflet-container') : rows(page)).first().waitFor();
  return { context, page };
}

/** Screenshots with no hover tooltip over the table. */
const NO_HOVER = { mouseAway: true };

const rows = (page: Page) => page.locator('.fw-device-table tr.ant-table-row');
const row = (page: Page, sn: string) => page.locator('.fw-device-table tr.ant-table-row', { hasText: sn });
const search = (page: Page) => page.locator('.fw-device-filters__search input');
const snColumn = (page: Page) => page.locator('.fw-device-table tr.ant-table-row .fw-sn').allInnerTexts();
const query = (page: Page) => new URL(page.url()).searchParams;

/** Picks an option of an antd Select. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** The GET /apis/devices the page sends next, as its query parameters. */
function nextListCall(page: Page) {
  return page
    .waitForRequest((r) => new URL(r.url()).pathname === '/apis/devices')
    .then((r) => new URL(r.url()).searchParams);
}

describe('device list', () => {
  test('shows the demo devices with their status, power, signal and last report', async () => {
    const { page } = await open('zh_CN');
    await eventually(() => page.locator('.ant-pagination-total-text').innerText()).toMatch(/共 \d+ 台设备/);
    expect(await rows(page).count()).toBe(20);
    const first = row(page, 'DM01000001');
    await eventually(() => first.innerText()).toMatch(/三层土壤墒情探头/);
    expect(await first.locator('.fw-status-tag').innerText()).toBe('在线');
    // Values appear once the device has reported: two decimals at most, or '--'.
    expect(await first.locator('.fw-power').innerText()).toMatch(/^(\d+(\.\d{1,2})? V|--)\s+(-\d+ dBm|--)$/);
    expect(await first.locator('.fw-report-time').innerText()).toMatch(/^\d\d:\d\d|^\d\d\.\d\d \d\d:\d\d/);
  });

  // After the first test: by then the demo fleet has caught up on its history.
  for (const [lang, scheme] of [
    ['zh_CN', 'light'],
    ['zh_CN', 'dark'],
    ['en_US', 'light'],
    ['en_US', 'dark'],
    ['zh_TW', 'light'],
  ] as const) {
    test(`reads well in ${lang}, ${scheme}`, async () => {
      const { page } = await open(lang, '/apps/devices', scheme);
      await eventually(() => page.locator('html').getAttribute('data-theme')).toBe(scheme);
      const header = await page.locator('.fw-device-table thead').innerText();
      expect(header).toContain({ zh_CN: '最后上报', zh_TW: '最後上報', en_US: 'Last report' }[lang]);
      await shot(page, `devices-list-${lang}-${scheme}.png`, NO_HOVER);
    });
  }

  // The table fits the window without sideways scrolling; narrower windows drop the less important
  // columns (place, SN, type, last report) and keep status, battery, tags and the actions in view.
  for (const [width, lang, columns] of [
    [1024, 'en_US', ['Name', 'Status', 'Battery / Signal', 'Tags', 'Actions']],
    [1024, 'zh_CN', ['设备名称', '状态', '电量 / 信号', '标签', '操作']],
    [1440, 'en_US', ['Name', 'SN', 'Type', 'Status', 'Last report', 'Battery / Signal', 'Tags', 'Actions']],
    [1440, 'zh_TW', ['設備名稱', 'SN', '設備類型', '狀態', '最後上報', '電量 / 訊號', '標籤', '操作']],
  ] as const) {
    test(`fits ${width} px in ${lang} with the important columns in view`, async () => {
      const { page } = await browser({ viewport: { width, height: 900 }, lang });
      await login(page, '/apps/devices');
      await rows(page).first().waitFor();
      await eventually(() => page.locator('.fw-device-table thead th').allInnerTexts()).toEqual(['', ...columns]);
      const overflow = await page.evaluate(() => {
        const doc = document.documentElement;
        const content = document.querySelector('.fw-device-table .ant-table-content, .fw-device-table .ant-table-body');
        return { page: doc.scrollWidth - doc.clientWidth, table: content ? content.scrollWidth - content.clientWidth : -1 };
      });
      expect(overflow).toEqual({ page: 0, table: 0 });
      const card = await page.locator('.fw-devices__card').boundingBox();
      for (const header of await page.locator('.fw-device-table thead th').all()) {
        const box = await header.boundingBox();
        expect(box && card && box.x + box.width <= card.x + card.width).toBe(true);
      }
      // A long English type name ends in an ellipsis; hovering shows it whole.
      if (columns.length > 5 && lang === 'en_US') {
        const type = row(page, 'DM01000001').locator('.fw-device-type');
        await type.hover();
        await eventually(() => page.getByRole('tooltip').innerText()).toContain('SMP003');
      }
      await shot(page, `devices-list-${width}-${lang}.png`, NO_HOVER);
    });
  }

  test('filters by status and by the last 5 digits of the SN, in the address', async () => {
    const { page } = await open('en_US');

    let call = nextListCall(page);
    await choose(page, page.getByTestId('filter-status'), 'Offline');
    expect((await call).get('status')).toBe('offline');
    expect(query(page).get('status')).toBe('offline');
    // Every demo device reports, so none is offline.
    await eventually(() => page.locator('.fw-device-table').innerText()).toContain('No devices match these filters');

    call = nextListCall(page);
    await choose(page, page.getByTestId('filter-status'), 'Online');
    expect((await call).get('status')).toBe('online');
    await eventually(() => rows(page).count()).toBe(20);

    call = nextListCall(page);
    await search(page).fill('00003');
    await search(page).press('Enter');
    expect((await call).get('nameOrSn')).toBe('00003');
    await eventually(() => snColumn(page)).toEqual(['DM02000003']);
    expect(Object.fromEntries(query(page))).toEqual({ status: 'online', nameOrSn: '00003' });

    // The address holds the filters: a reload shows the same list.
    await page.reload();
    await eventually(() => snColumn(page)).toEqual(['DM02000003']);
    expect(await search(page).inputValue()).toBe('00003');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await eventually(() => rows(page).count()).toBe(20);
    expect(page.url()).toMatch(/\/apps\/devices$/);
  });

  test('sorts on the server by a column, and pages', async () => {
    const { page } = await open('en_US');
    const snHeader = page.locator('.fw-device-table th', { hasText: /^SN$/ });

    let call = nextListCall(page);
    await snHeader.click();
    expect(Object.fromEntries(await call)).toMatchObject({ sort: 'sn', order: 'asc' });
    call = nextListCall(page);
    await snHeader.click();
    expect(Object.fromEntries(await call)).toMatchObject({ sort: 'sn', order: 'desc' });
    await eventually(async () => (await snColumn(page))[0]).toBe('DM22000032');
    const sns = await snColumn(page);
    expect(sns).toEqual([...sns].sort().reverse());

    call = nextListCall(page);
    await page.locator('.ant-pagination-item-2').click();
    expect(Object.fromEntries(await call)).toMatchObject({ sort: 'sn', order: 'desc', page: '2' });
    await eventually(async () => (await snColumn(page))[0]).not.toBe('DM22000032');
    expect(Object.fromEntries(query(page))).toEqual({ sort: 'sn', order: 'desc', page: '2' });

    // Back returns to the first page with the same sort.
    await page.goBack();
    await eventually(async () => (await snColumn(page))[0]).toBe('DM22000032');
  });

  test('renames a device, refusing an empty name before asking the server', async () => {
    const { context, page } = await open('en_US');
    const target = row(page, 'DM01000001');
    const original = await target.locator('.fw-device-name__link').innerText();
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/profile')) puts += 1;
    });

    await target.getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog');
    const name = dialog.locator('#rename-device_name');
    await eventually(() => name.inputValue()).toBe(original);
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dialog.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual(['Name cannot be empty']);
    await name.fill('x'.repeat(17));
    await eventually(() => dialog.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual([
      'Name must be at most 16 characters',
    ]);
    expect(puts).toBe(0);
    await shot(page, 'devices-rename-error-en_US.png', NO_HOVER);

    await name.fill('North probe 1');
    const saved = page.waitForResponse((r) => r.url().endsWith('/profile') && r.request().method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const answer = await saved;
    expect((await answer.json()).code).toBe(0);
    // The whole profile goes back, with the new name.
    expect(Object.keys(JSON.parse(answer.request().postData() ?? '{}')).sort()).toEqual(
      ['altitude', 'installTime', 'lat', 'lng', 'location', 'name'].sort(),
    );
    await eventually(() => target.locator('.fw-device-name__link').innerText()).toBe('North probe 1');

    const id = Number(new URL(answer.url()).pathname.split('/')[3]);
    const profile = (await apiCall(context, 'GET', `/apis/poi/${id}/profile`)).data as Record<string, unknown>;
    expect((await apiCall(context, 'PUT', `/apis/poi/${id}/profile`, { ...profile, name: original })).code).toBe(0);
  });

  describe('tags', () => {
    const created: string[] = [];
    let cleanup: BrowserContext | null = null;
    afterAll(async () => {
      if (!cleanup) return;
      // After the tests: a context of its own, closed here.
      const context = await openBrowser();
      await login(context.pages()[0] ?? (await context.newPage()));
      const tags = (await apiCall(context, 'GET', '/apis/tags')).data as { tagId: number; tag: string }[];
      for (const tag of tags.filter((t) => created.includes(t.tag))) await apiCall(context, 'DELETE', `/apis/tag/${tag.tagId}`);
      await closeBrowser(context);
    });

    test('adds three tags to a device, shows the server refusing a fourth, filters by tag and removes one', async () => {
      const { context, page } = await open('en_US');
      cleanup = context;
      const stamp = Date.now().toString(36).slice(-5);
      const names = ['Irrigated', 'North', 'Orchard', 'Spare'].map((n) => `${n}-${stamp}`);
      created.push(...names);
      const target = row(page, 'DM03000005');
      const tagsOf = () => target.locator('.fw-device-tag').allInnerTexts();

      await target.locator('.fw-device-tags__add').click();
      const picker = page.getByTestId('tag-picker');
      const input = picker.getByPlaceholder('New tag name');
      // The picker opens ready to type a new tag.
      await eventually(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      const createButton = picker.getByRole('button', { name: 'Create and add' });
      for (const [i, name] of names.slice(0, 3).entries()) {
        await input.fill(name);
        await createButton.click();
        await eventually(tagsOf).toHaveLength(i + 1);
        await eventually(() => createButton.getAttribute('class')).not.toContain('ant-btn-loading');
      }
      expect(await tagsOf()).toEqual(names.slice(0, 3));

      const refused = page.waitForResponse((r) => /\/apis\/poi\/\d+\/tag$/.test(r.url()));
      await input.fill(names[3]);
      await createButton.click();
      expect((await refused).status()).toBe(409);
      await eventually(() => picker.getByRole('alert').innerText()).toContain('Up to 3 tags can be added per device!');
      expect(await tagsOf()).toEqual(names.slice(0, 3));
      // The refused tag was not made either: the account's tags do not hold it.
      const accountTags = (await apiCall(context, 'GET', '/apis/tags')).data as { tag: string }[];
      expect(accountTags.map((tag) => tag.tag)).not.toContain(names[3]);
      // The clicks above may have scrolled the page: frame the row and its picker for the picture.
      await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))); // the picker follows the row
      await shot(page, 'devices-tags-limit-en_US.png', NO_HOVER);
      await page.locator('.fw-devices__title').click();
      await picker.waitFor({ state: 'detached' });

      const call = nextListCall(page);
      await choose(page, page.getByTestId('filter-tag'), names[1]);
      expect((await call).get('tagId')).toMatch(/^\d+$/);
      await eventually(() => snColumn(page)).toEqual(['DM03000005']);

      await target.getByRole('button', { name: `Remove tag ${names[1]}` }).click();
      await eventually(() => page.locator('.fw-device-table').innerText()).toContain('No devices match these filters');
    });
  });

  test('exports the list as an Excel workbook', async () => {
    const { page } = await open('en_US');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Excel' }).click();
    expect((await download).suggestedFilename()).toMatch(/^devices-\d{8}\.xlsx$/);
  });

  test('opens a device detail page from the list', async () => {
    const { page } = await open('en_US');
    const gauge = row(page, 'DM06000011');
    await eventually(() => gauge.locator('.fw-device-name__link').getAttribute('href')).toMatch(/^\/apps\/poi\/pluviometer\/[0-9a-f]+$/);
    const probe = row(page, 'DM01000001');
    const href = await probe.locator('.fw-detail-link').getAttribute('href');
    expect(href).toMatch(/^\/apps\/poi\/moisture\/[0-9a-f]+\/1$/);
    await probe.locator('.fw-detail-link').click();
    await page.waitForURL((url) => url.pathname === href);
  });
});

describe('device map', () => {
  const map = (page: Page) => page.getByTestId('device-map');

  test('switches to the map, keeps it in the address, and shows clusters and a legend', async () => {
    const { page } = await open('zh_CN');
    await page.locator('.ant-segmented-item', { hasText: '地图' }).click();
    await page.waitForURL(/view=map/);
    await map(page).locator('.fw-cluster').first().waitFor();
    expect(await map(page).locator('canvas').count()).toBeGreaterThan(0);
    const clustered = await map(page)
      .locator('.fw-cluster span')
      .allInnerTexts()
      .then((counts) => counts.reduce((sum, n) => sum + Number(n), 0));
    expect(clustered).toBeGreaterThan(1);
    const legend = page.getByTestId('map-legend');
    await eventually(() => legend.innerText()).toMatch(/工作中\s*34/);
    expect(await legend.innerText()).toMatch(/故障\s*0/);
    expect(await legend.innerText()).toMatch(/未部署\s*0/);
    // No tiles load here: the map says so and still shows every device.
    await page.getByTestId('tiles-unavailable').waitFor();
    await shot(page, 'devices-map-zh_CN-light.png', NO_HOVER);

    await page.reload();
    await map(page).locator('.fw-cluster').first().waitFor();

    // A cluster zooms in when clicked.
    const scale = () => map(page).locator('.leaflet-control-scale-line').innerText();
    const before = await scale();
    await map(page).locator('.leaflet-marker-icon.fw-cluster-icon').first().click();
    await eventually(scale).not.toBe(before);

    await page.goBack();
    await rows(page).first().waitFor();
    expect(query(page).get('view')).toBeNull();
  });

  test('filters the map by type', async () => {
    const { page } = await open('en_US', '/apps/devices?view=map');
    await choose(page, page.getByTestId('filter-type'), 'Rain gauge (2nd generation)');
    await eventually(() => page.getByTestId('map-legend').innerText()).toMatch(/Working\s*2/);
    expect(query(page).get('typeId')).toBe('9');
  });

  test('stays light with ten thousand devices: only clusters in view become markers', async () => {
    // Ten thousand devices spread over eastern China, a tenth of them faulty, a twentieth not deployed.
    const list = Array.from({ length: 10_000 }, (_, i) => {
      const group = i % 10 === 0 ? 'fault' : i % 20 === 1 ? 'notDeployed' : 'working';
      return {
        id: 100_000 + i,
        hashId: `h${i}`,
        sn: `BULK${String(i).padStart(6, '0')}`,
        name: `Bulk ${i}`,
        typeId: 1,
        page: 'moisture',
        status: group === 'fault' ? 'fault' : group === 'notDeployed' ? 'idle' : 'online',
        group,
        lng: 105 + ((i * 7919) % 10_000) / 500,
        lat: 25 + ((i * 104_729) % 10_000) / 500,
        lastReportTime: null,
      };
    });
    const groups = { working: 0, fault: 0, notDeployed: 0 } as Record<string, number>;
    for (const d of list) groups[d.group] += 1;
    const { page } = await browser({ lang: 'en_US' });
    await page.route('**/apis/map/all', (route) => route.fulfill({ json: { code: 0, message: '', data: { list, groups } } }));
    await login(page, `/login?redirect=${encodeURIComponent('/apps/devices?view=map')}`);
    const legend = page.getByTestId('map-legend');
    await eventually(() => legend.innerText()).toMatch(new RegExp(`${groups.working}[\\s\\S]*${groups.fault}[\\s\\S]*${groups.notDeployed}`));
    // Clusters merge everything within 60 px, so a view holds a few hundred markers at most,
    // however many devices there are.
    const bound = 500;
    const markers = () => map(page).locator('.leaflet-marker-icon').count();
    await eventually(markers).toBeGreaterThan(0);
    expect(await markers()).toBeLessThan(bound);
    const total = await map(page)
      .locator('.fw-cluster span')
      .allInnerTexts()
      .then((counts) => counts.reduce((sum, n) => sum + Number(n), 0));
    expect(total).toBeGreaterThan(9_000); // nearly all in clusters at this zoom; the rest drawn singly on the canvas

    // Zooming in four levels keeps the marker count bounded by the view, not the fleet.
    const seen: number[] = [await markers()];
    for (let i = 0; i < 4; i += 1) {
      await map(page).locator('.leaflet-control-zoom-in').click();
      await page.waitForTimeout(400);
      seen.push(await markers());
    }
    expect(Math.max(...seen), seen.join(', ')).toBeLessThan(bound);
    await shot(page, 'devices-map-10k-en_US-light.png', NO_HOVER);
  });

  for (const [lang, scheme] of [
    ['zh_CN', 'dark'],
    ['en_US', 'light'],
  ] as const) {
    test(`shows the map in ${lang}, ${scheme}`, async () => {
      const { page } = await open(lang, '/apps/devices?view=map', scheme);
      await map(page).locator('.fw-cluster').first().waitFor();
      await shot(page, `devices-map-${lang}-${scheme}.png`, NO_HOVER);
    });
  }

  test('a device opens in a popup with navigation and a detail link, from the list or by clicking it', async () => {
    const { page } = await open('en_US');
    const target = row(page, 'DM05000009');
    const name = await target.locator('.fw-device-name__link').innerText();
    const status = await target.locator('.fw-status-tag').innerText();
    await target.locator('.fw-device-location').click();
    await page.waitForURL(/view=map&focus=\d+/);

    const popup = page.locator('.leaflet-popup');
    await eventually(() => popup.locator('.fw-map-popup__name').innerText()).toBe(name);
    await eventually(() => popup.locator('.fw-status-tag').innerText()).toBe(status);
    await eventually(() => popup.innerText()).toContain('SN DM05000009');
    await eventually(() => popup.innerText()).toMatch(/Last report\s*(\d\d\.\d\d )?\d\d:\d\d · /);
    const amap = popup.getByRole('link', { name: '高德地图' });
    const baidu = popup.getByRole('link', { name: '百度地图' });
    expect(await amap.getAttribute('href')).toMatch(/^https:\/\/uri\.amap\.com\/marker\?position=116\.\d+,37\.\d+&name=/);
    expect(await baidu.getAttribute('href')).toMatch(/^https:\/\/api\.map\.baidu\.com\/marker\?location=37\.\d+,116\.\d+&title=.+&output=html$/);
    expect(await amap.getAttribute('target')).toBe('_blank');
    expect(await baidu.getAttribute('target')).toBe('_blank');
    await shot(page, 'devices-map-popup-en_US-light.png', NO_HOVER);

    // Where the popup points is where the device is drawn: close it and click there.
    const tip = (await popup.locator('.leaflet-popup-tip-container').boundingBox())!;
    const point = { x: tip.x + tip.width / 2, y: tip.y + tip.height };
    await popup.locator('.leaflet-popup-close-button').click();
    await popup.waitFor({ state: 'detached' });
    await page.waitForURL((url) => !url.searchParams.has('focus'));
    await page.mouse.click(point.x, point.y);
    await eventually(() => popup.innerText()).toContain(name);

    const detail = popup.getByRole('link', { name: 'Open details' });
    const href = await detail.getAttribute('href');
    expect(href).toMatch(/^\/apps\/poi\/tianqi\/[0-9a-f]+\/\d+$/);
    await detail.click();
    await page.waitForURL((url) => url.pathname === href);
  });
});
