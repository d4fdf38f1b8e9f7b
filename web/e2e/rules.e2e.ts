import type { BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { apiCall, baseURL, beforeClosing, browser, login, shot } from './browser';

/** Names of the rules a test made, deleted after it. */
const made = new Set<string>();
beforeClosing(deleteRules);

/** Logs in with a language and theme chosen, and opens a page. */
async function open(lang: string, start: string, colorScheme: 'light' | 'dark' = 'light') {
  const { context, page } = await browser({ colorScheme, lang });
  await login(page, `/login?redirect=${encodeURIComponent(start)}`);
  return { context, page };
}

interface RuleRow {
  id: number;
  name: string;
  enabled: boolean;
  deviceIds: number[];
  expressions: unknown[];
}

async function listRules(context: BrowserContext): Promise<RuleRow[]> {
  const answer = await apiCall(context, 'GET', '/apis/rules?page=1&size=100');
  return answer.code === 0 ? (answer.data as { list: RuleRow[] }).list : [];
}

/** Leaves the demo account without the rules this file made. */
async function deleteRules(context: BrowserContext) {
  try {
    for (const rule of await listRules(context)) {
      if (made.has(rule.name)) await apiCall(context, 'DELETE', `/apis/rule/${rule.id}`);
    }
  } catch {
    // The browser never logged in: nothing was made.
  }
}

interface MessageRow {
  ruleName: string;
  description: string;
}

async function messages(context: BrowserContext): Promise<MessageRow[]> {
  return ((await apiCall(context, 'GET', '/apis/event/messages?page=1&size=100')).data as { list: MessageRow[] }).list;
}

/** Sends a report as the device itself, through HTTP ingest with its own key. */
async function report(context: BrowserContext, deviceId: number, values: Record<string, number>, ahead = 20) {
  const cred = (await apiCall(context, 'GET', `/apis/poi/encryption?id=${deviceId}`)).data as { username: string; key: string };
  // Seconds ahead of the fleet's own reports, so this is the device's newest reading.
  // Milliseconds keep it off the fleet's whole-second report times (one at the same time would be a redelivery).
  const ts = Date.now() / 1000 + ahead;
  const res = await fetch(`${baseURL()}/ingest/v1/telemetry`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${cred.username}:${cred.key}`).toString('base64')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ ts, values }),
  });
  expect(await res.json()).toMatchObject({ code: 0 });
}

/** The demo's automatic weather stations (type 5), as the rule form offers them. */
async function weatherStations(context: BrowserContext) {
  const types = (await apiCall(context, 'GET', '/apis/rule/types')).data as { typeId: number; typeName: string }[];
  const type = types.find((t) => t.typeName === 'Automatic weather station');
  expect(type).toBeDefined();
  const devices = (await apiCall(context, 'GET', `/apis/rule/devices?typeId=${type!.typeId}`)).data as { id: number; name: string }[];
  return { typeId: type!.typeId, devices };
}

const drawer = (page: Page) => page.locator('.fw-rule-drawer');
const errors = (page: Page) => drawer(page).locator('.ant-form-item-explain-error').allInnerTexts();
const rows = (page: Page) => page.locator('.fw-rule-table tr.ant-table-row');

/**
 * Picks an option of an antd Select by its text. A multiple select's list stays open; a single
 * select's closes, and the select then shows the option.
 */
async function choose(page: Page, select: string, option: string | RegExp, { multiple = false } = {}) {
  await page.locator(select).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
  if (multiple) return;
  const field = page.locator(select).locator(`xpath=ancestor-or-self::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]`);
  await expect.poll(() => field.innerText()).toMatch(option);
}

/** Picks an option of a Select inside the last condition row. */
async function chooseInRow(page: Page, control: string, option: string | RegExp) {
  await choose(page, `.fw-expression >> nth=-1 >> ${control}`, option);
}

function isRuleWrite(request: Request) {
  return ['POST', 'PUT'].includes(request.method()) && /\/apis\/rule(\/|$|\?)/.test(new URL(request.url()).pathname);
}

describe('alert rules', () => {
  test('the form shows every SPEC message, then a frost rule from the template is saved, listed and switched off', async () => {
    const { context, page } = await open('en_US', '/apps/rules');
    await page.locator('.fw-rule-table').waitFor();
    made.add('Frost risk');

    let writes = 0;
    page.on('request', (request) => {
      if (isRuleWrite(request)) writes += 1;
    });

    // An empty form: nothing is sent, every required part says what is missing.
    await page.getByTestId('rule-add').click();
    await drawer(page).getByText('Add rule').waitFor();
    await page.getByTestId('rule-save').click();
    await expect.poll(() => errors(page)).toEqual([
      'Please choose a device type',
      'Please enter the rule name',
      'Select at least one device!',
      'Please add rule expression...',
    ]);

    // A condition left half-done, then a range the wrong way round.
    await choose(page, '#rule_typeId', 'Automatic weather station');
    await drawer(page).getByRole('button', { name: 'Add condition' }).click();
    await page.getByTestId('rule-save').click();
    await expect.poll(() => errors(page)).toContain('Please complete the rule expression...');
    await chooseInRow(page, '.fw-expression__param', /^Air humidity/);
    await chooseInRow(page, '.fw-expression__aggregation', 'Average');
    await chooseInRow(page, '.fw-expression__operator', /^in range$/);
    await page.locator('.fw-expression').last().getByLabel('From').fill('80');
    await page.locator('.fw-expression').last().getByLabel('To').fill('20');
    await page.getByTestId('rule-save').click();
    await expect
      .poll(() => errors(page))
      .toContain('The first value of the threshold input must be less than the second value!');
    await shot(page, 'rules-form-errors-en_US-light.png');
    expect(writes).toBe(0);

    // Start again from the frost template on one weather station.
    await drawer(page).getByRole('button', { name: 'Remove condition' }).click();
    await drawer(page).locator('.fw-rule-form__templates label', { hasText: 'Frost risk' }).click();
    await expect.poll(() => drawer(page).locator('#rule_name').inputValue()).toBe('Frost risk');
    await expect.poll(() => drawer(page).locator('.fw-expression').count()).toBe(1);
    await choose(page, '#rule_deviceIds', /.+/, { multiple: true });
    await page.keyboard.press('Escape');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/apis/rule');
    await page.getByTestId('rule-save').click();
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Frost risk',
      enabled: true,
      level: 'alarm',
      template: 'frost',
      notify: ['email'],
      silentHours: 0,
      expressions: [{ expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0 }],
    });
    expect(body.deviceIds).toHaveLength(1);
    await drawer(page).waitFor({ state: 'hidden' });

    // Listed with its conditions in words.
    const row = rows(page).filter({ hasText: 'Frost risk' });
    await expect.poll(() => row.innerText()).toContain('Air temperature min ≤ 0 °C');
    const stationId = (body.deviceIds as number[])[0];
    const station = (await weatherStations(context)).devices.find((d) => d.id === stationId)!;
    expect(await row.innerText()).toMatch(new RegExp(`Automatic weather station\\s+${station.name}`));
    expect(await row.innerText()).toContain('Alarm');
    expect(await row.innerText()).toContain('E-mail');

    // A report below 0 °C from that station raises an event: a message, and the unread badge.
    await report(context, stationId, { airTemp: -5 });
    await expect
      .poll(async () => (await messages(context)).find((m) => m.ruleName === 'Frost risk')?.description ?? '', { timeout: 30_000 })
      .toBe('Rule triggered: Air temperature -5 °C');

    // Switched off from the table, and still off after a reload.
    const toggle = row.getByRole('switch');
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    const switched = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('includes=enabled'));
    await toggle.click();
    expect((await switched).postDataJSON()).toEqual({ enabled: false });
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await page.reload();
    await expect.poll(() => rows(page).filter({ hasText: 'Frost risk' }).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    const stored = (await listRules(context)).find((rule) => rule.name === 'Frost risk');
    expect(stored).toMatchObject({ name: 'Frost risk', enabled: false });
    await shot(page, 'rules-list-en_US-light.png');

    // The Event menu carries the unread count; the inbox shows the message in bold until read.
    const unreadBefore = (await apiCall(context, 'OPTIONS', '/apis/event/messages')).data as { unread: number };
    expect(unreadBefore.unread).toBeGreaterThan(0);
    const menu = page.getByRole('navigation').first();
    await expect.poll(() => menu.getByTestId('unread-badge').innerText()).toContain(String(unreadBefore.unread));
    await menu.getByRole('link', { name: 'Event' }).click();
    await page.waitForURL(/\/apps\/events/);
    const message = page.locator('.fw-event-table tr.ant-table-row', { hasText: 'Frost risk' }).first();
    await expect.poll(() => message.innerText()).toContain('Rule triggered: Air temperature -5 °C');
    expect(await message.innerText()).toContain('Triggered');
    expect(await message.getAttribute('class')).toContain('fw-event-row--unread');
    await shot(page, 'events-en_US-light.png');

    const marked = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname === '/apis/event/messages/read');
    await message.getByRole('button', { name: 'Mark as read' }).click();
    expect(((await marked).postDataJSON() as { ids: number[] }).ids).toHaveLength(1);
    await expect.poll(() => message.getAttribute('class')).not.toContain('fw-event-row--unread');
    const unreadAfter = unreadBefore.unread - 1;
    await expect
      .poll(() => menu.getByTestId('unread-badge').innerText())
      .toEqual(unreadAfter > 0 ? expect.stringContaining(String(unreadAfter)) : '');

    // All events, with the filters.
    await page.getByTestId('events-tabs').getByText('All events').click();
    await page.locator('.fw-event-filters').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('events');
    await expect.poll(() => page.locator('.fw-event-table tr.ant-table-row', { hasText: 'Frost risk' }).count()).toBeGreaterThan(0);
  });

  test('a condition with depths and a range stays on one line at desktop width', async () => {
    const { page } = await open('en_US', '/apps/rules');
    await page.locator('.fw-rule-table').waitFor();
    await page.getByTestId('rule-add').click();
    await drawer(page).getByText('Add rule').waitFor();
    await choose(page, '#rule_typeId', /^3-depth soil moisture probe/);
    await drawer(page).getByRole('button', { name: 'Add condition' }).click();
    await chooseInRow(page, '.fw-expression__param', /^Soil moisture/);
    await chooseInRow(page, '.fw-expression__operator', /^in range$/);
    const row = page.locator('.fw-expression').last().locator('.fw-expression__row');
    await row.getByLabel('To').waitFor();
    // Parameter, depths, aggregation, comparison, from and to, side by side.
    const controls = await row.locator('.ant-select, .ant-input-number').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(controls).toHaveLength(6);
    expect(new Set(controls).size).toBe(1);
    await shot(page, 'rules-form-range-row-en_US-light.png');
  });

  test('an existing rule is listed, raises and ends events, is edited in the same form and deleted, in Simplified Chinese and the dark theme', async () => {
    const { context, page } = await open('zh_CN', '/apps/rules', 'dark');
    made.add('东区霜冻').add('东区果园霜冻与降雨联合预警规则');
    const { typeId, devices } = await weatherStations(context);
    const created = await apiCall(context, 'POST', '/apis/rule', {
      name: '东区霜冻',
      enabled: true,
      typeId,
      deviceIds: devices.map((d) => d.id),
      level: 'alarm',
      expressions: [
        { expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 2 },
        { expressionId: 2, nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'gte', threshold: 30, windowMinutes: 1440 },
      ],
      notify: ['email', 'wechat'],
      silentHours: 24,
      description: '',
    });
    expect(created.code).toBe(0);

    // Cold and wet, then warm: the rule fires, then its condition ends.
    await report(context, devices[0].id, { airTemp: -3, rainfall: 35 }, 20);
    await report(context, devices[0].id, { airTemp: 8, rainfall: 0 }, 40);
    await expect
      .poll(async () => (await messages(context)).filter((m) => m.ruleName === '东区霜冻').length, { timeout: 30_000 })
      .toBe(2);
    await page.goto(baseURL() + '/apps/events?tab=events');
    const events = page.locator('.fw-event-table tr.ant-table-row', { hasText: '东区霜冻' });
    await expect.poll(() => events.count()).toBe(2);
    expect(await events.first().innerText()).toContain('恢复正常');
    expect(await events.last().innerText()).toContain('触发');
    await shot(page, 'events-zh_CN-dark.png');

    // Filtered by level: nothing of this rule is a notice.
    await choose(page, '.fw-event-filters__level', '普通');
    await expect.poll(() => new URL(page.url()).searchParams.get('level')).toBe('normal');
    await expect.poll(() => events.count()).toBe(0);

    await page.goto(baseURL() + '/apps/rules');
    const row = rows(page).filter({ hasText: '东区霜冻' });
    await expect.poll(() => row.innerText()).toContain('空气温度最小值 ≤ 2 °C');
    expect(await row.innerText()).toContain('降雨量近 24 小时累计值 ≥ 30 mm');
    expect(await row.innerText()).toContain('邮件、微信');
    expect(await row.innerText()).toContain('静默期：24 小时');
    expect(await row.innerText()).toContain(devices.map((d) => d.name).join('、'));
    await shot(page, 'rules-list-zh_CN-dark.png');

    // Edit: the stored rule fills the form; clearing the name shows the message in Chinese.
    await row.getByRole('button', { name: '编辑' }).click();
    await expect.poll(() => drawer(page).locator('#rule_name').inputValue()).toBe('东区霜冻');
    await expect.poll(() => drawer(page).locator('.fw-expression').count()).toBe(2);
    await drawer(page).locator('#rule_name').fill('');
    await page.getByTestId('rule-save').click();
    await expect.poll(() => errors(page)).toEqual(['请输入规则名称']);
    await shot(page, 'rules-form-errors-zh_CN-dark.png');

    // The name is cut at 15 characters; the whole rule goes back with PUT.
    await drawer(page).locator('#rule_name').fill('东区果园霜冻与降雨联合预警规则超长');
    expect(Array.from(await drawer(page).locator('#rule_name').inputValue())).toHaveLength(15);
    const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/apis\/rule\/\d+$/.test(new URL(r.url()).pathname));
    await page.getByTestId('rule-save').click();
    const body = (await put).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ name: '东区果园霜冻与降雨联合预警规则', silentHours: 24, notify: ['email', 'wechat'] });
    expect(body.expressions).toEqual([
      { expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 2 },
      { expressionId: 2, nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'gte', threshold: 30, windowMinutes: 1440 },
    ]);
    await drawer(page).waitFor({ state: 'hidden' });
    const edited = rows(page).filter({ hasText: '东区果园霜冻与降雨联合预警规则' });
    await edited.waitFor();

    // Deleted after a confirmation.
    await edited.getByRole('button', { name: '删除' }).click();
    // antd spaces out a two-character Chinese button label.
    await page.locator('.ant-popconfirm:not(.ant-popover-hidden)').getByRole('button', { name: /删\s*除/ }).click();
    await edited.waitFor({ state: 'detached' });
    expect((await listRules(context)).map((rule) => rule.name)).not.toContain('东区果园霜冻与降雨联合预警规则');
  });
});
