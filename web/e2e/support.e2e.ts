import { describe, expect, test } from 'vitest';
import { baseURL, browser, deviceOf, listDevices, shot, signIn } from './browser';

const SLOW = { timeout: 30_000 };

describe('changelog, the old device address and the alert sound', () => {
  test('the changelog, newest first, in English and in Chinese dark', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await page.goto(baseURL() + '/console/release/log');
    const versions = page.getByTestId('changelog-version');
    await versions.first().waitFor(SLOW);
    expect(await versions.count()).toBeGreaterThan(1);
    expect(await versions.first().innerText()).toContain('Latest');
    expect(await versions.first().innerText()).toContain('Overview: devices by status');
    await shot(page, 'changelog-en.png', { fullPage: true });

    const zh = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(zh.context);
    await zh.page.goto(baseURL() + '/console/release/log');
    await zh.page.getByTestId('changelog-version').first().waitFor(SLOW);
    expect(await zh.page.getByTestId('changelog').innerText()).toContain('更新日志');
    expect(await zh.page.getByTestId('changelog').innerText()).toContain('概览：设备状态');
    await shot(zh.page, 'changelog-zh-dark.png', { fullPage: true });
  });

  test('an old device address goes to the device\u2019s page; an unknown one to the list', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    const valve = deviceOf(await listDevices(context), 10);
    await page.goto(`${baseURL()}/console/poi/detail?id=${valve.id}`);
    await page.waitForURL((u) => u.pathname === `/apps/poi/yun-yao/${valve.hashId}/${valve.id}`, SLOW);
    await page.getByTestId('poi-device-name').waitFor(SLOW);
    await page.goto(`${baseURL()}/console/poi/detail?id=987654321`);
    await page.waitForURL((u) => u.pathname === '/apps/devices', SLOW);
  });

  test('the alert sound test reports what the browser allowed', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await page.goto(baseURL() + '/test/audio');
    const onOpen = page.getByTestId('audio-on-open');
    await expect.poll(() => onOpen.getAttribute('data-outcome'), SLOW).toMatch(/^(allowed|blocked)$/);
    await page.getByTestId('audio-play').click();
    await expect.poll(() => page.getByTestId('audio-on-click').getAttribute('data-outcome'), SLOW).toBe('allowed');
    expect(await page.getByTestId('audio-on-click').innerText()).toBe('The browser played the sound.');
    await shot(page, 'audio-test-en.png');
  });
});
