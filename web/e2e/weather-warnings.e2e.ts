import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { baseURL, browser, detailPath, deviceOf, listDevices, screenshotDir, settle, signIn } from './browser';
import { startOwnServer, type OwnServer } from './own-server';
import path from 'node:path';

const SLOW = { timeout: 20_000 };

/** A CAP 1.2 alert, shaped as the specification's examples, whose circle covers mainland China. */
function capAlert(id: string, event: string, headline: string, severity: string, expires: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>${id}</identifier>
  <sender>warnings@12379.example</sender>
  <sent>${new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00')}</sent>
  <status>Actual</status>
  <msgType>Alert</msgType>
  <scope>Public</scope>
  <info>
    <language>zh-CN</language>
    <category>Met</category>
    <event>${event}</event>
    <urgency>Expected</urgency>
    <severity>${severity}</severity>
    <certainty>Likely</certainty>
    <expires>${expires}</expires>
    <senderName>省气象台</senderName>
    <headline>${headline}</headline>
    <area>
      <areaDesc>华北平原</areaDesc>
      <circle>36.0,115.0 3000</circle>
    </area>
  </info>
</alert>`;
}

let feed: Server;
let own: OwnServer;

beforeAll(async () => {
  const expires = new Date(Date.now() + 6 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
  const docs: Record<string, string> = {
    '/cap/typhoon.xml': capAlert('typhoon-1', '台风', '省气象台发布台风橙色预警信号', 'Severe', expires),
    '/cap/hail.xml': capAlert('hail-1', '冰雹', '省气象台发布冰雹黄色预警信号', 'Moderate', expires),
  };
  feed = createServer((req, res) => {
    if (req.url === '/feed') {
      res.setHeader('Content-Type', 'application/atom+xml');
      res.end(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:warnings</id><title>预警</title><updated>${new Date().toISOString()}</updated>
<entry><id>1</id><title>台风</title><link rel="alternate" type="application/cap+xml" href="/cap/typhoon.xml"/></entry>
<entry><id>2</id><title>冰雹</title><link rel="alternate" type="application/cap+xml" href="/cap/hail.xml"/></entry></feed>`);
      return;
    }
    const doc = docs[req.url ?? ''];
    if (!doc) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('Content-Type', 'application/cap+xml');
    res.end(doc);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const port = (feed.address() as AddressInfo).port;
  own = await startOwnServer({ name: 'warnings', args: ['--warning-feed', `http://127.0.0.1:${port}/feed`] });
});

afterAll(async () => {
  await own?.stop();
  await new Promise((resolve) => feed?.close(resolve));
});

async function openStation(page: Page, base: string) {
  const station = deviceOf(await listDevices(page.context(), base), 7);
  await page.goto(base + detailPath(station));
  const card = page.getByTestId('poi-weather-alerts');
  await expect.poll(() => card.count(), SLOW).toBe(1);
  return { station, card };
}

async function shotOfCard(page: Page, name: string) {
  const card = page.getByTestId('poi-weather-analyses');
  await card.scrollIntoViewIfNeeded();
  await settle(page);
  await card.screenshot({ path: path.join(screenshotDir, name) });
}

const LANGS = [
  { lang: 'zh_CN', typhoon: '台风03（橙色）', feedSource: '预警发布', all: '全部16类', needFeed: '需要配置上游预警发布' },
  { lang: 'zh_TW', typhoon: '颱風03（橙色）', feedSource: '預警發布', all: '全部16類', needFeed: '需要設定上游預警發布' },
  { lang: 'en_US', typhoon: 'Typhoon 03 (orange)', feedSource: 'Warning feed', all: 'all 16 types', needFeed: 'Shown only with an upstream warning feed' },
];

describe('weather warnings', () => {
  for (const l of LANGS) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`a CAP feed's typhoon and hail on the station's card (${l.lang}, ${scheme})`, async () => {
        const { page } = await browser({ colorScheme: scheme, lang: l.lang });
        await signIn(page.context(), { base: own.base });
        const { card } = await openStation(page, own.base);
        const typhoon = card.getByTestId('poi-weather-alert-typhoon-feed');
        await expect.poll(() => typhoon.innerText(), SLOW).toContain(l.typhoon);
        expect(await typhoon.innerText()).toContain(l.feedSource);
        expect(await typhoon.innerText()).toContain('省气象台发布台风橙色预警信号 · 华北平原');
        expect(await card.getByTestId('poi-weather-alert-hail-feed').count()).toBe(1);
        expect(await card.getByTestId('poi-weather-alerts-checks').innerText()).toContain(l.all);
        expect(await card.innerText()).not.toMatch(/NaN|undefined|weatherAlerts\./);
        await shotOfCard(page, `weather-warnings-feed-${l.lang}-${scheme}.png`);
      });
    }
    test(`without a feed the card names the types that need one (${l.lang})`, async () => {
      const { page } = await browser({ colorScheme: 'light', lang: l.lang });
      await signIn(page.context());
      const { station, card } = await openStation(page, baseURL());
      const answer = await page.evaluate(async (id) => (await (await fetch(`/apis/qi/weather/alert?id=${id}`)).json()).data, station.id);
      expect(answer.feed).toBe('none');
      expect(answer.needFeed).toContain('typhoon');
      await expect.poll(() => card.getByTestId('poi-weather-alerts-checks').innerText(), SLOW).toContain(l.needFeed);
      expect(await card.innerText()).not.toMatch(/NaN|undefined|weatherAlerts\./);
      await shotOfCard(page, `weather-warnings-nofeed-${l.lang}-light.png`);
    });
  }
});
