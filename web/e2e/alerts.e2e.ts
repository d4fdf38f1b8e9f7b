import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { api, baseURL, loggedIn, screenshotDir } from './browser';

const run = promisify(execFile);

interface Summary {
  to: string;
  subject: string;
  text: string;
}

function mails(dir: string): Summary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Summary);
}

describe('alerts', () => {
  test('a frost rule fires on a report published with mosquitto_pub: event, unread badge and e-mail', async () => {
    const { page } = await loggedIn('/login', { colorScheme: 'light', lang: 'en_US' });

    // A demo weather station and the frost template for its type.
    const list = await api<{ list: { id: number; typeId: number; name: string }[] }>(page, 'GET', '/apis/devices?typeId=5&size=10');
    expect(list.code).toBe(0);
    const station = list.data.list[0];
    const templates = await api<{ id: string; rule: Record<string, unknown> & { expressions: { threshold: number }[] } }[]>(
      page,
      'GET',
      '/apis/rule/templates?typeId=5',
    );
    const frost = templates.data.find((t) => t.id === 'frost');
    expect(frost).toBeDefined();
    // A threshold far below what the live demo weather reaches, so only the test's report crosses it.
    const name = `Deep frost ${Date.now() % 10000}`;
    const rule = { ...frost!.rule, name, deviceIds: [station.id], notify: ['email'] };
    rule.expressions[0].threshold = -20;
    const created = await api<{ id: number }>(page, 'POST', '/apis/rule', rule);
    expect(created.code, created.message).toBe(0);

    // The station's own credentials, and a report of -25 °C through the embedded broker.
    const cred = await api<{ username: string; key: string; topic: string }>(page, 'GET', `/apis/poi/encryption?id=${station.id}`);
    expect(cred.code).toBe(0);
    const [host, port] = inject('mqttAddr').split(':');
    // Milliseconds keep it off the fleet's whole-second report times (one at the same time would be a redelivery).
    const ts = Date.now() / 1000 + 20;
    await run('mosquitto_pub', [
      '-h', host, '-p', port, '-V', 'mqttv311', '-q', '1', '-i', `e2e-${Date.now()}`,
      '-u', cred.data.username, '-P', cred.data.key, '-t', cred.data.topic,
      '-m', JSON.stringify({ ts, values: { airTemp: -25 } }),
    ]);

    // The event, as a message.
    await expect
      .poll(
        async () => {
          const m = await api<{ list: { ruleName: string; kind: string; description: string }[] }>(page, 'GET', '/apis/event/messages?size=50');
          return m.data.list.find((x) => x.ruleName === name)?.description ?? '';
        },
        { timeout: 20_000 },
      )
      .toBe('Rule triggered: Air temperature -25 °C');

    // The unread badge on the Event menu, and the events page.
    await page.goto(baseURL() + '/apps/events');
    await expect.poll(() => page.locator('.ant-badge-count').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText(name).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(screenshotDir, 'alerts-events-en_US-light.png') });

    // The e-mail, at the SMTP server on loopback.
    const dir = inject('mailDir');
    await expect.poll(() => mails(dir).filter((m) => m.subject.includes(name)).length, { timeout: 30_000 }).toBe(1);
    const mail = mails(dir).find((m) => m.subject.includes(name))!;
    expect(mail.to).toContain('demo01@fieldwatch.example');
    expect(mail.subject).toBe(`[Alarm] ${name} · ${station.name}`);
    expect(mail.text).toContain('Air temperature -25 °C');

    // Leave the demo account as it was for the other flows.
    expect((await api(page, 'DELETE', `/apis/rule/${created.data.id}`)).code).toBe(0);
  });
});
