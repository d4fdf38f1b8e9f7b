import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, baseURL, loggedIn, shot, type Envelope } from './browser';

// Data push and open-API applications against the real binary. The server runs with
// --push-allow-private (global-setup.ts), so a channel may deliver to the receiver below.

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/** A receiving server on loopback that answers 200, or 500 while `failing`. */
const receiver = {
  server: null as Server | null,
  failing: false,
  received: [] as Received[],
  url: '',
};

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = receiver.failing ? 500 : 200;
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end(receiver.failing ? 'broken' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.server = server;
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fieldwatch/in`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.server?.close(resolve));
});

/** A logged-in English browser, on the page given (the start page unless told). */
async function signedIn(colorScheme: 'light' | 'dark' = 'light', start = '/login') {
  return (await loggedIn(start, { colorScheme, lang: 'en_US' })).page;
}

/** A report from the device itself, over HTTP with its own key (docs/device-protocol.md). */
async function report(page: Page, poiId: number, airTemp: number) {
  const cred = await api<{ sn: string; key: string }>(page, 'GET', `/apis/poi/encryption?id=${poiId}`);
  expect(cred.code).toBe(0);
  const res = await fetch(`${baseURL()}/ingest/v1/telemetry`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${cred.data.sn}:${cred.data.key}`).toString('base64')}`, 'Content-Type': 'application/json' },
    // Milliseconds: the fleet's own reports are on whole seconds, and one at the same time would make this a redelivery.
    body: JSON.stringify({ ts: Date.now() / 1000, values: { airTemp } }),
  });
  expect((await res.json()).code).toBe(0);
}

/** The receiver's check, as the data-push guide describes it. */
function signatureValid(secret: string, delivery: Received): boolean {
  const header = String(delivery.headers['x-fieldwatch-signature'] ?? '');
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const expected = createHmac('sha256', secret).update(`${fields.t}.${delivery.body}`).digest('hex');
  return fields.v1 === expected && Math.abs(Date.now() / 1000 - Number(fields.t)) < 300;
}

const SLOW = { timeout: 30_000, interval: 500 };
const rows = (page: Page) => page.locator('.fw-push-log tr.ant-table-row');

describe('data push', () => {
  test(
    'a channel to a local receiver: secret once, signed deliveries, failures with their error, a retry from the log',
    { timeout: 600_000 },
    async () => {
      const page = await signedIn('light', '/console/data/push/');
      // The demo farm's own channel, delivering to the receiver inside the server.
      const demoRow = page.locator('.fw-push-table tr.ant-table-row', { hasText: '示范数据推送' });
      await expect.poll(() => demoRow.getByTestId('success-rate').innerText(), SLOW).toBe('100%');
      await shot(page, 'integration-channels-demo-light.png');

      // A demo weather station, chosen in the picker by its SN.
      const selector = await api<{ poiId: number; name: string; sn: string; typeId: number }[]>(page, 'GET', '/apis/integration/channel/selector');
      const station = selector.data.find((d) => d.typeId === 5);
      expect(station).toBeDefined();

      await page.getByTestId('channel-new').click();
      await page.waitForURL(/\/console\/data\/push\/config$/);
      // The form says what is missing before anything is sent.
      await page.getByTestId('channel-save').click();
      await page.getByText('Please enter the channel name').waitFor();
      await page.getByText('Please select devices').waitFor();
      await page.getByLabel('Push address').fill('localhost:3000');
      await page.getByText('Please enter a valid http or https address').waitFor();

      await page.getByLabel('Channel name').fill('Farm ERP receiver');
      await page.getByLabel('Push address').fill(receiver.url);
      await page.getByPlaceholder('Search by name or SN').fill(station!.sn);
      await page.getByTestId('device-picker').getByText(station!.name, { exact: true }).click();
      await expect.poll(() => page.getByTestId('device-picker-count').innerText()).toBe('1 device selected');
      await shot(page, 'integration-config-light.png');
      await page.getByTestId('channel-save').click();

      // The signing secret, once, with the warning.
      const box = page.getByTestId('secret-box');
      await box.waitFor();
      const secret = await page.getByTestId('secret-value').inputValue();
      expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
      expect(await box.innerText()).toContain('it will not be shown again');
      await shot(page, 'integration-config-secret-light.png');

      const channels = await api<{ list: { id: number; name: string }[] }>(page, 'GET', '/apis/integration/channel/list');
      const channel = channels.data.list.find((c) => c.name === 'Farm ERP receiver')!;
      // Editing the channel later shows no secret, only the offer to reset it.
      await page.goto(`${baseURL()}/console/data/push/config?id=${channel.id}`);
      await page.getByTestId('secret-reset').waitFor();
      expect(await page.getByTestId('secret-box').count()).toBe(0);
      expect(await page.content()).not.toContain(secret);

      // A report of the station reaches the receiver, signed with that secret.
      await report(page, station!.poiId, 41.25);
      await expect.poll(() => receiver.received.some((r) => r.body.includes('"airTemp":41.25')), SLOW).toBe(true);
      const delivered = receiver.received.find((r) => r.body.includes('"airTemp":41.25'))!;
      expect(signatureValid(secret, delivered)).toBe(true);
      expect(delivered.headers['x-fieldwatch-channel']).toBe(String(channel.id));
      expect(JSON.parse(delivered.body)).toMatchObject({ channelId: channel.id, device: { id: station!.poiId, sn: station!.sn } });

      // The list shows it live: last push, response time, success rate.
      await page.goto(`${baseURL()}/console/data/push/`);
      const listRow = page.locator('.fw-push-table tr.ant-table-row', { hasText: 'Farm ERP receiver' });
      await expect.poll(() => listRow.getByTestId('success-rate').innerText(), SLOW).toBe('100%');
      await shot(page, 'integration-channels-light.png');

      // The log, from the channel's Log action: the delivery with the station's name and SN.
      await listRow.getByRole('button', { name: 'Log' }).click();
      await page.waitForURL(/\/console\/data\/push\/log\?channelId=/);
      await page.getByTestId('channel-stats').waitFor();
      await expect.poll(() => rows(page).filter({ hasText: station!.sn }).filter({ hasText: 'Delivered' }).count(), SLOW).toBeGreaterThan(0);
      await rows(page).filter({ hasText: 'Delivered' }).first().click();
      await page.getByTestId('log-detail').first().waitFor();
      expect(await page.getByTestId('log-body').first().innerText()).toContain('"deliveryId"');
      await shot(page, 'integration-log-light.png');

      // The receiver breaks: the next report is retried, each attempt's error shown. (The demo
      // station keeps reporting every minute; whichever of its reports comes first is retried
      // and the later ones wait behind it, so the device's order is kept.)
      receiver.failing = true;
      await report(page, station!.poiId, -31.75);
      const broken = () => rows(page).filter({ hasText: 'HTTP 500' });
      await expect.poll(() => broken().count(), SLOW).toBeGreaterThan(0);
      await expect.poll(() => broken().first().getByTestId('status-detail').innerText(), SLOW).toMatch(/attempts? failed, next at \d\d:\d\d:\d\d/);
      expect(await broken().first().getByTestId('status-pending').count()).toBe(1);
      await shot(page, 'integration-log-retrying-light.png');

      // Pending entries through the status filter, over a week: the address bar and the call agree.
      const filtered = page.waitForRequest((r) => r.url().includes('/pushLogList') && new URL(r.url()).searchParams.get('status') === 'pending');
      await page.getByTestId('log-status').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Pending').click();
      await filtered;
      await page.waitForURL(/status=pending/);
      await expect.poll(() => rows(page).filter({ hasText: 'Delivered' }).count()).toBe(0);
      const weekly = page.waitForRequest((r) => r.url().includes('/pushLogList') && new URL(r.url()).searchParams.get('window') === '1w');
      await page.getByTestId('window-selector').getByText('1 week').click();
      await weekly;
      await page.waitForURL(/window=1w/);

      // The server under test retries twice (--push-retries 5s,10s in global-setup.ts): well
      // within a minute of the first failure the entry is marked failed and kept.
      await page.goto(`${baseURL()}/console/data/push/log?channelId=${channel.id}&status=fail&window=1h`);
      const gaveUp = () => rows(page).filter({ hasText: 'Gave up after 3 attempts' });
      await expect.poll(() => gaveUp().count(), { timeout: 120_000, interval: 500 }).toBeGreaterThan(0);
      const failed = gaveUp().first();
      expect(await failed.innerText()).toContain('HTTP 500');
      await failed.click();
      const detail = await page.getByTestId('log-detail').first().innerText();
      const id = Number(/Delivery id\s*(\d+)/.exec(detail)?.[1]);
      expect(id).toBeGreaterThan(0);
      await shot(page, 'integration-log-failed-light.png');

      // Fixed: Retry from the log sends it again with the same delivery id, and it is delivered.
      receiver.failing = false;
      const retried = page.waitForResponse((r) => r.url().endsWith('/apis/integration/channel/retry'));
      await failed.getByTestId('log-retry').click();
      expect((await (await retried).json()).code).toBe(0);
      const attemptsOf = () => receiver.received.filter((r) => r.headers['x-fieldwatch-delivery'] === String(id));
      await expect.poll(() => attemptsOf().some((r) => r.status === 200), SLOW).toBe(true);
      // Three refused attempts, then the accepted one: a receiver can drop duplicates by this id.
      expect(attemptsOf().filter((r) => r.status === 500)).toHaveLength(3);
      expect(signatureValid(secret, attemptsOf().find((r) => r.status === 200)!)).toBe(true);
      const entryStatus = async () =>
        (await api<{ list: { id: number; status: string }[] }>(page, 'GET', `/apis/integration/channel/pushLogList?channelId=${channel.id}&size=100`)).data.list.find(
          (e) => e.id === id,
        )?.status;
      await expect.poll(entryStatus, SLOW).toBe('success');
      // The failed filter empties by itself: the log refreshes.
      await expect.poll(() => gaveUp().count(), SLOW).toBe(0);

      // The guide, with the channel's own address.
      await page.goto(`${baseURL()}/console/data/push/help?id=${channel.id}`);
      await page.getByText(receiver.url).first().waitFor();
      expect(await page.getByTestId('help-example').innerText()).toContain(`"channelId": ${channel.id}`);
      await shot(page, 'integration-help-light.png', { fullPage: true });
    },
  );

  test('the same screens in the dark theme', async () => {
    const page = await signedIn('dark');
    const channels = await api<{ list: { id: number }[] }>(page, 'GET', '/apis/integration/channel/list');
    const id = channels.data.list[0]?.id;
    await page.goto(`${baseURL()}/console/data/push/`);
    await page.locator('.fw-push-table, [data-testid="push-empty"]').first().waitFor();
    await shot(page, 'integration-channels-dark.png');
    await page.goto(`${baseURL()}/console/data/push/config`);
    await page.getByTestId('device-picker').getByRole('group').first().waitFor();
    await shot(page, 'integration-config-dark.png');
    await page.goto(`${baseURL()}/console/data/push/log${id ? `?channelId=${id}&window=1d` : ''}`);
    await page.locator('.fw-push-log').waitFor();
    await shot(page, 'integration-log-dark.png');
    await page.goto(`${baseURL()}/console/data/push/help`);
    await page.getByTestId('snippet-node').waitFor();
    await shot(page, 'integration-help-dark.png');
  });
});

/** Signs an open-API request exactly as docs/open-api.md says. */
function signedHeaders(key: string, secret: string, method: string, pathname: string, query: string, body = '') {
  const ts = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const bodySha = createHash('sha256').update(body).digest('hex');
  const toSign = [method, pathname, query, ts, nonce, bodySha].join('\n');
  return {
    'X-App-Key': key,
    'X-Timestamp': ts,
    'X-Nonce': nonce,
    'X-Signature': createHmac('sha256', secret).update(toSign).digest('hex'),
  };
}

describe('open API', () => {
  test('an application: secret shown once and gone after a reload, a signed request reads the devices', async () => {
    const page = await signedIn('light', '/console/api');
    await page.getByTestId('app-new').click();
    const drawer = page.locator('.fw-app-drawer');
    await drawer.getByLabel('Application name').fill('Irrigation controller 2');
    // The input stops at 20 characters (SPEC §5).
    expect(await drawer.getByLabel('Application name').inputValue()).toBe('Irrigation controlle');
    await drawer.getByLabel('Push address (optional)').fill('not an address');
    await drawer.getByTestId('app-save').click();
    await drawer.getByText('Please enter a valid http or https address').waitFor();
    await drawer.getByLabel('Push address (optional)').fill('');
    await shot(page, 'integration-open-api-form-light.png');
    await drawer.getByTestId('app-save').click();

    await drawer.getByTestId('secret-box').waitFor();
    const secret = await drawer.getByTestId('secret-value').inputValue();
    const key = (await drawer.getByTestId('created-app-key').innerText()).trim();
    expect(secret.length).toBeGreaterThan(20);
    expect(await drawer.getByTestId('secret-box').innerText()).toContain('it will not be shown again');
    await shot(page, 'integration-open-api-secret-light.png');
    // A new application is not published: its key is refused until it is.
    const early = await fetch(`${baseURL()}/openapi/v1/devices?page=1&size=20`, {
      headers: signedHeaders(key, secret, 'GET', '/openapi/v1/devices', 'page=1&size=20'),
    });
    expect(early.status).toBe(401);
    await drawer.getByTestId('app-publish-now').click();
    await drawer.getByText('Application published: its key works now').waitFor();
    await drawer.getByTestId('app-done').click();

    // The list shows it published; after a reload the secret is nowhere on the page.
    const row = page.locator('.fw-push-table tr.ant-table-row', { hasText: 'Irrigation controlle' });
    await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await row.getByText('Edit').click();
    await page.getByTestId('secret-reset').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.locator('.fw-app-drawer').getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.fw-app-drawer').waitFor({ state: 'hidden' });
    await shot(page, 'integration-open-api-light.png');

    // A request signed as docs/open-api.md says reads the devices in range.
    const pathname = '/openapi/v1/devices';
    const query = 'page=1&size=20';
    const res = await fetch(`${baseURL()}${pathname}?${query}`, { headers: signedHeaders(key, secret, 'GET', pathname, query) });
    const answer = (await res.json()) as Envelope<{ list: { sn: string }[]; total: number }>;
    expect(answer.code, answer.message).toBe(0);
    expect(answer.data.total).toBeGreaterThan(0);
    // A wrong secret is refused with a reason.
    const bad = await fetch(`${baseURL()}${pathname}?${query}`, { headers: signedHeaders(key, `${secret}x`, 'GET', pathname, query) });
    expect(bad.status).toBe(401);

    // The reference, rendered from the OpenAPI document.
    await page.getByRole('tab', { name: 'API reference' }).click();
    await page.getByTestId('api-reference').waitFor();
    await page.getByText('/openapi/v1/devices/{sn}/history').click();
    await page.getByText('Parameters').first().waitFor();
    await shot(page, 'integration-open-api-reference-light.png', { fullPage: true });

    // Leave the demo account as it was.
    const apps = await api<{ list: { id: number; name: string }[] }>(page, 'GET', '/apis/openapi/applications');
    for (const app of apps.data.list.filter((a) => a.name === 'Irrigation controlle')) {
      expect((await api(page, 'DELETE', `/apis/openapi/application/${app.id}`)).code).toBe(0);
    }
  });

  test('the open API screens in the dark theme', async () => {
    const page = await signedIn('dark', '/console/api');
    await page.getByTestId('app-new').waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, 'integration-open-api-dark.png');
    await page.getByTestId('app-new').click();
    await page.locator('.fw-app-drawer').getByLabel('Application name').waitFor();
    await shot(page, 'integration-open-api-form-dark.png');
    await page.locator('.fw-app-drawer').getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`${baseURL()}/console/api?tab=reference`);
    await page.getByTestId('api-reference').waitFor();
    await shot(page, 'integration-open-api-reference-dark.png');
  });
});
