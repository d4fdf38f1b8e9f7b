// Bytes a page costs to load in Chromium: every response until the network is
// idle, as transferred (headers and the body as encoded on the wire) and as
// decoded, with identity only, with gzip but not brotli, and with Accept-Encoding as
// Chromium sends it (gzip, deflate, br, zstd).
//
//   node scripts/page-bytes.mjs http://127.0.0.1:8080/login
//
// CHROMIUM_PATH names the browser (default /usr/bin/chromium).
import { chromium } from 'playwright-core';

const url = process.argv[2];
if (!url) {
  console.error('usage: node scripts/page-bytes.mjs URL');
  process.exit(2);
}

async function measure(browser, acceptEncoding) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (acceptEncoding) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
  const responses = new Map();
  cdp.on('Network.responseReceived', (e) => {
    responses.set(e.requestId, { url: e.response.url, encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? '' });
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = responses.get(e.requestId);
    if (r) r.decoded = (r.decoded ?? 0) + e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = responses.get(e.requestId);
    if (r) r.transferred = e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await context.close();
  const rows = [...responses.values()].filter((r) => r.transferred !== undefined);
  const sum = (key) => rows.reduce((n, r) => n + (r[key] ?? 0), 0);
  const encodings = {};
  for (const r of rows) encodings[r.encoding || 'identity'] = (encodings[r.encoding || 'identity'] ?? 0) + 1;
  return { requests: rows.length, transferred: sum('transferred'), decoded: sum('decoded'), encodings };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
try {
  for (const [label, accept] of [['identity', 'identity'], ['gzip only', 'gzip, deflate'], ['browser default', '']]) {
    console.log(label.padEnd(16), JSON.stringify(await measure(browser, accept)));
  }
} finally {
  await browser.close();
}
