// What a phone downloads to open the devices tab (logged in, empty cache), by encoding: every
// response until the network is idle, the scripts apart, and the first contentful paint.
//
//   node scripts/mobile-bytes.mjs [--slow] http://127.0.0.1:8080
//
// CHROMIUM_PATH names the browser (default /usr/bin/chromium).
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
// --slow: the phone on slow 4G with a 4× slower CPU, so what arrives before the first paint is
// told apart from what arrives after it (on loopback everything has arrived before it).
const slow = args.includes('--slow');
const [base] = args.filter((a) => !a.startsWith('--'));
if (!base) {
  console.error('usage: node scripts/mobile-bytes.mjs BASE_URL');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
for (const enc of ['gzip, deflate', 'gzip, deflate, br, zstd']) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: UA, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // Logged in through the API first (the cookie), so what is measured is the devices tab itself.
  await context.request.post(base + '/apis/account/login', { data: { accountNumber: 'demo01', password: 'demo123456' } });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': enc } });
  if (slow) {
    // Lighthouse's mobile preset: slow 4G (150 ms, 1.6 Mbit/s down, 750 kbit/s up), 4× slower CPU.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  const types = new Map(); const rows = [];
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, { url: e.response.url, type: e.type }));
  cdp.on('Network.loadingFinished', (e) => { const r = types.get(e.requestId); if (r) rows.push({ ...r, bytes: e.encodedDataLength }); });
  await page.goto(base + '/apps/mobile/devices', { waitUntil: 'networkidle' });
  await page.waitForSelector('.adm-list-item, [data-testid]', { timeout: 30000 }).catch(() => {});
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  // Scripts that had arrived when the first contentful paint happened (resource timing: bytes as
  // transferred, headers included).
  const early = await page.evaluate((paint) => {
    const scripts = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
    const before = scripts.filter((r) => paint !== null && r.responseEnd <= paint);
    return { bytes: before.reduce((n, r) => n + r.transferSize, 0), files: before.length };
  }, fcp);
  const js = rows.filter((r) => r.type === 'Script');
  const sum = (a) => a.reduce((n, r) => n + r.bytes, 0);
  console.log(
    `${enc}: ${page.url()} JS ${sum(js)} B in ${js.length} files (${early.bytes} B in ${early.files} before the first paint); ` +
      `all ${sum(rows)} B in ${rows.length}; FCP ${fcp && Math.round(fcp)} ms`,
  );
  await context.close();
}
await browser.close();
