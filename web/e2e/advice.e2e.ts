import AxeBuilder from '@axe-core/playwright';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, PHONE, settle, shot, signIn } from './browser';
import { freePort, startOwnServer, type OwnServer } from './own-server';

// The farm advice pages on a demo farm of their own, whose server asks a local stand-in for the
// services it talks to: an Open-Meteo forecast with a frost tomorrow at 05:00, and an
// OpenAI-compatible chat-completions model streaming its answer (data: {"choices":[{"delta":…}]}
// chunks, then data: [DONE]), which this file can hold mid-answer, fail (HTTP 500) or leave
// silent (a timeout). The tasks come from the demo's simulated readings (waterlogged probes) and
// that forecast; the page must show what GET /apis/ai/task/today/{id} gives for the same device.

const SLOW = { timeout: 30_000 };

type ModelMode = 'flow' | 'hold' | 'error' | 'hang';

interface Chat {
  messages: { role: string; content: string }[];
}

/** The stand-in's state: how the model answers the next question, and what it was asked. */
const model = {
  mode: 'flow' as ModelMode,
  asked: [] as Chat[],
  /** Resolves the answer held after its first chunk (mode "hold"). */
  release: () => {},
  /** Answers still open (a held or silent one): ended when the file is done. */
  open: new Set<ServerResponse>(),
};

/** The model's answer: cites today's first task from the facts it was given, with a json and a shell block. */
function answerFor(chat: Chat): string[] {
  const system = chat.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const chinese = system[0]?.includes('Simplified Chinese');
  const tasks = JSON.parse((system.find((s) => s.startsWith('tasks_today: ')) ?? 'tasks_today: []').slice('tasks_today: '.length)) as {
    id: number;
    kind: string;
    title: string;
    facts: { relative?: number; temp?: number };
  }[];
  const task = tasks[0];
  const cite = task ? JSON.stringify({ task: task.id, kind: task.kind, ...(task.facts.relative ? { relative: task.facts.relative } : { temp: task.facts.temp }) }) : '{}';
  const lead = chinese ? '根据今天的农事，' : "From today's tasks, ";
  return [
    lead,
    chinese ? `**${task?.title ?? '今天没有农事'}**。\n\n依据的数据：\n\n` : `**${task?.title ?? 'nothing to do today'}**.\n\nThe facts behind it:\n\n`,
    '```json\n',
    `${cite}\n`,
    '```\n\n',
    chinese ? '在终端里再查一次：\n\n' : 'To ask again from a terminal:\n\n',
    '```shell\nexport FW=http://127.0.0.1:8080\n',
    `curl -s "$FW/apis/ai/task/today/${task?.id ?? 0}" # ${chinese ? '今日农事' : "today's tasks"}\n`,
    '```\n',
  ];
}

function forecast(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const zone = url.searchParams.get('timezone') ?? 'UTC';
  const day = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(Date.now() + offset * 86_400_000));
  const days = Array.from({ length: 7 }, (_, i) => day(i));
  // Tomorrow's night falls to −2.4 °C at 05:00; the other days stay above freezing.
  const hourly = days.flatMap((d, i) =>
    Array.from({ length: 24 }, (_, h) => ({ time: `${d}T${String(h).padStart(2, '0')}:00`, temp: i === 1 ? (h === 5 ? -2.4 : 3 + Math.abs(h - 14) * -0.3 + 4) : 6 + (h > 6 && h < 18 ? 6 : 0) })),
  );
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      latitude: Number(url.searchParams.get('latitude')),
      longitude: Number(url.searchParams.get('longitude')),
      elevation: 30,
      daily_units: { wind_speed_10m_max: 'm/s' },
      daily: {
        time: days,
        temperature_2m_max: days.map((_, i) => (i === 1 ? 8.5 : 12)),
        temperature_2m_min: days.map((_, i) => (i === 1 ? -2.4 : 3)),
        precipitation_sum: days.map(() => 0),
        et0_fao_evapotranspiration: days.map(() => 1.6),
        wind_speed_10m_max: days.map(() => 3),
      },
      hourly: { time: hourly.map((h) => h.time), temperature_2m: hourly.map((h) => h.temp) },
    }),
  );
}

async function completion(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  for await (const chunk of req) body += chunk;
  const chat = JSON.parse(body) as Chat & { stream?: boolean };
  model.asked.push(chat);
  switch (model.mode) {
    case 'error':
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
      return;
    case 'hang':
      model.open.add(res);
      return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  model.open.add(res);
  const piece = (content: string) => res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`);
  const [first, ...rest] = answerFor(chat);
  piece(first);
  if (model.mode === 'hold') await new Promise<void>((resolve) => (model.release = resolve));
  for (const content of rest) piece(content);
  res.end('data: [DONE]\n\n');
  model.open.delete(res);
}

let standIn: Server;
let standInURL = '';
let server: OwnServer | null = null;
const base = () => server!.base;

beforeAll(async () => {
  standIn = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (req.method === 'GET' && path === '/v1/forecast') return forecast(req, res);
    if (req.method === 'POST' && path === '/v1/chat/completions') return void completion(req, res);
    res.writeHead(404).end();
  });
  const port = await freePort();
  standIn.listen(port, '127.0.0.1');
  await once(standIn, 'listening');
  standInURL = `http://127.0.0.1:${port}`;
  server = await startOwnServer({
    name: 'advice',
    args: ['--demo-days', '2', '--forecast-url', standInURL, '--llm-url', `${standInURL}/v1`, '--llm-model', 'field-model'],
  });
});

afterAll(async () => {
  for (const res of model.open) res.destroy();
  await server?.stop();
  standIn?.closeAllConnections();
  await new Promise((resolve) => standIn?.close(resolve));
});

interface ApiTask {
  id: number;
  deviceId: number;
  kind: string;
  title: string;
  status: string;
  note: string;
  facts: { sources: { deviceId?: number; param: string }[] | null };
}

async function todayFromApi(context: BrowserContext, device: number, lang: string, serverBase = base()): Promise<ApiTask[]> {
  const res = await context.request.get(`${serverBase}/apis/ai/task/today/${device}`, { headers: { lang } });
  const answer = await res.json();
  expect(answer.code, JSON.stringify(answer)).toBe(0);
  return answer.data.tasks;
}

async function open(lang: string, options: Parameters<typeof browser>[0] = {}, serverBase = base()) {
  const { context, page } = await browser({ lang, ...options });
  await signIn(context, { base: serverBase });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: serverBase });
  return { context, page };
}

/** The device the page settled on (it opens on the first soil device when the address names none). */
async function deviceOnPage(page: Page): Promise<number> {
  await page.waitForURL((u) => u.searchParams.has('device'), SLOW);
  return Number(new URL(page.url()).searchParams.get('device'));
}

const titlesOn = (page: Page) => page.getByTestId('advice-task-title').allInnerTexts();

/** The question box, by its accessible name, on the desktop and the phone. */
const questionBox = (page: Page) => page.getByRole('textbox', { name: /^(Question|问题)$/ });

/** Asks a question on the page, the model answering at once; waits for the whole answer. */
async function askAndWait(page: Page, question: string) {
  model.mode = 'flow';
  const before = await page.getByTestId('advice-answer').count();
  await questionBox(page).fill(question);
  await page.getByTestId('advice-ask').click();
  const answer = page.getByTestId('advice-answer').nth(before);
  await expect.poll(() => answer.getAttribute('data-state'), SLOW).toBe('done');
  return answer;
}

async function axe(page: Page, include: string) {
  const { violations } = await new AxeBuilder({ page }).include(include).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('farm advice', () => {
  test("the demo farm's tasks, one marked done for good, and a streamed answer with highlighted code", async () => {
    const { context, page } = await open('en_US');
    await page.goto(base() + '/apps/advice');
    const device = await deviceOnPage(page);

    // The page shows the tasks the API derives for the same device: the demo's waterlogged probe
    // (its own soil moisture readings) and the frost of the stand-in's forecast.
    const today = await todayFromApi(context, device, 'en_US');
    expect(today.length).toBeGreaterThan(0);
    expect(today.some((t) => (t.facts.sources ?? []).some((s) => s.deviceId === device && s.param === 'soilMoisture'))).toBe(true);
    expect(today.map((t) => t.kind)).toContain('frost');
    await expect.poll(() => page.getByTestId('advice-task').count(), SLOW).toBe(today.length);
    expect((await titlesOn(page)).sort()).toEqual(today.map((t) => t.title).sort());
    const frost = page.locator('[data-testid="advice-task"][data-kind="frost"]');
    expect(await frost.getByTestId('advice-task-steps').innerText()).toMatch(/-2\.4 °C/);
    expect(await frost.innerText()).toMatch(/Due \d\d-\d\d 05:00/);

    // The field now and the season plan, from the same readings.
    await expect.poll(() => page.getByTestId('advice-reality-risk').innerText(), SLOW).toMatch(/Frost: -2\.4 °C at \d\d-\d\d 05:00/);
    expect(await page.getByTestId('advice-reality-water').first().innerText()).toMatch(/Moisture [\d.]+ % = [\d.]+ % of field capacity/);
    await page.getByTestId('advice-reality-water').first().getByText(/readings behind it/).click();
    expect(await page.getByTestId('advice-reality-water').first().getByTestId('advice-readings').innerText()).toMatch(/soil moisture 10 cm · last reading [\d.]+ %/);
    expect(await page.locator('[data-testid="advice-stage"][data-current="true"]').count()).toBe(1);
    expect(await page.getByTestId('advice-strategy-risks').innerText()).toMatch(/frost/i);

    // Mark one done with a note: it stays done after a reload, in the page and the API.
    const chosen = today.find((t) => t.kind !== 'frost') ?? today[0];
    const card = page.locator(`[data-testid="advice-task"][data-task-id="${chosen.id}"]`);
    await card.getByTestId('advice-task-note').fill('Drains opened at 07:00');
    await card.getByTestId('advice-task-done').click();
    await expect.poll(() => card.getAttribute('data-status'), SLOW).toBe('done');
    await page.getByText('Saved: Done').waitFor(SLOW);
    await page.reload();
    await expect.poll(() => page.locator(`[data-testid="advice-task"][data-task-id="${chosen.id}"]`).getAttribute('data-status'), SLOW).toBe('done');
    expect(await page.locator(`[data-testid="advice-task"][data-task-id="${chosen.id}"]`).getByTestId('advice-task-answered').innerText()).toContain('Drains opened at 07:00');
    const after = (await todayFromApi(context, device, 'en_US')).find((t) => t.id === chosen.id);
    expect(after).toMatchObject({ status: 'done', note: 'Drains opened at 07:00' });
    await expect.poll(() => page.getByTestId('advice-history').innerText(), SLOW).toContain('Drains opened at 07:00');

    // A question: the first words show while the model still holds the rest of its answer.
    model.mode = 'hold';
    model.asked = [];
    await questionBox(page).fill('Should I open the drains?');
    await page.getByTestId('advice-ask').click();
    const answer = page.getByTestId('advice-answer').first();
    await expect.poll(() => answer.innerText(), SLOW).toContain("From today's tasks,");
    expect(await answer.getAttribute('data-state')).toBe('streaming');
    expect(await answer.getByTestId('advice-code').count()).toBe(0);
    model.release();
    await expect.poll(() => answer.getAttribute('data-state'), SLOW).toBe('done');
    // The model was given the farm's facts (it cites today's first task from them).
    const sent = JSON.stringify(model.asked[0].messages);
    expect(sent).toContain('Should I open the drains?');
    expect(sent).toContain('tasks_today');
    expect(await answer.locator('strong').first().innerText()).toBe(today[0].title);

    expect(await answer.innerText()).toContain('Answered by field-model');
    await shot(page, 'advice-desktop-en.png', { fullPage: true, top: true, mouseAway: true });

    // Highlighted code, and copy buttons that work.
    const [json, shell] = await answer.getByTestId('advice-code').all();
    expect(await json.locator('code.hljs.language-json .hljs-attr').first().innerText()).toBe('"task"');
    expect(await shell.locator('code.hljs.language-shell .hljs-built_in').first().innerText()).toBe('export');
    await json.getByTestId('advice-code-copy').click();
    await page.getByText('Copied').first().waitFor(SLOW);
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ task: today[0].id });
    await answer.getByTestId('advice-answer-copy').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("From today's tasks, **");
    expect(copied).toContain('```shell\nexport FW=');

    // No serious or critical accessibility fault on the page with its highlighted answer.
    expect(await axe(page, '[data-testid="advice"]')).toEqual([]);

    // A model error reaches the page as a clear message.
    model.mode = 'error';
    await questionBox(page).fill('Frost tonight?');
    await page.getByTestId('advice-ask').click();
    const failed = page.getByTestId('advice-turn').nth(1).getByTestId('advice-chat-error');
    await failed.waitFor(SLOW);
    expect(await failed.getAttribute('data-kind')).toBe('model');
    expect(await failed.innerText()).toContain('The model answered with an error');
    expect(await failed.innerText()).toContain('model overloaded');
    await shot(page, 'advice-desktop-model-error-en.png', { mouseAway: true, clip: page.getByTestId('advice-chat') });
  });

  test('in Chinese, light and dark, and in English dark', async () => {
    for (const [lang, colorScheme, file, says] of [
      ['zh_CN', 'light', 'advice-desktop-zh.png', '今日农事'],
      ['zh_CN', 'dark', 'advice-desktop-zh-dark.png', '今日农事'],
      ['en_US', 'dark', 'advice-desktop-en-dark.png', "Today's tasks"],
    ] as const) {
      const { context, page } = await open(lang, { colorScheme });
      await page.goto(base() + '/apps/advice');
      const device = await deviceOnPage(page);
      const today = await todayFromApi(context, device, lang);
      await expect.poll(() => page.getByTestId('advice-task').count(), SLOW).toBe(today.length);
      // The advisor's own sentences come in the page's language.
      expect((await titlesOn(page)).sort()).toEqual(today.map((t) => t.title).sort());
      expect(await page.getByTestId('advice-today').innerText()).toContain(says);
      const answer = await askAndWait(page, lang === 'zh_CN' ? '要不要排水？' : 'Should I open the drains?');
      expect(await answer.locator('.hljs-attr').count()).toBeGreaterThan(0);
      if (lang === 'zh_CN') expect(await answer.innerText()).toContain('根据今天的农事');
      await settle(page);
      await shot(page, file, { fullPage: true, top: true, mouseAway: true });
      if (colorScheme === 'dark') expect(await axe(page, '[data-testid="advice"]')).toEqual([]);
    }
  });

  test('on the phone: today\'s tasks to answer, and the chat', async () => {
    // The English light run comes last: it answers a task, which the others show still open.
    for (const [lang, colorScheme, suffix] of [
      ['zh_CN', 'light', 'zh'],
      ['zh_CN', 'dark', 'zh-dark'],
      ['en_US', 'dark', 'en-dark'],
      ['en_US', 'light', 'en'],
    ] as const) {
      const { context, page } = await open(lang, { ...PHONE, deviceScaleFactor: 2, colorScheme });
      // Found from the profile tab.
      await page.goto(base() + '/apps/mobile/profile');
      await page.getByTestId('m-advice').click();
      const device = await deviceOnPage(page);
      expect(new URL(page.url()).pathname).toBe('/apps/mobile/advice');
      const today = await todayFromApi(context, device, lang);
      await expect.poll(() => page.getByTestId('advice-task').count(), SLOW).toBe(today.length);
      expect((await titlesOn(page)).sort()).toEqual(today.map((t) => t.title).sort());
      if (suffix === 'en') {
        // Answer one on the phone: the frost one is not done yet.
        const frost = page.locator('[data-testid="advice-task"][data-kind="frost"]');
        await frost.getByTestId('advice-task-notDone').click();
        await expect.poll(() => frost.getAttribute('data-status'), SLOW).toBe('notDone');
        expect((await todayFromApi(context, device, lang)).find((t) => t.kind === 'frost')?.status).toBe('notDone');
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached', ...SLOW });
      }
      await shot(page, `advice-phone-tasks-${suffix}.png`, { top: true });
      expect(await axe(page, '[data-testid="advice"]')).toEqual([]);

      await page.getByRole('tab', { name: lang === 'zh_CN' ? '问问这块地' : 'Ask about this field' }).click();
      model.mode = 'hold';
      await questionBox(page).fill(lang === 'zh_CN' ? '要不要排水？' : 'Should I open the drains?');
      await page.getByTestId('advice-ask').click();
      const answer = page.getByTestId('advice-answer').first();
      await expect.poll(() => answer.innerText(), SLOW).toContain(lang === 'zh_CN' ? '根据今天的农事' : "From today's tasks,");
      expect(await answer.getAttribute('data-state')).toBe('streaming');
      model.release();
      await expect.poll(() => answer.getAttribute('data-state'), SLOW).toBe('done');
      expect(await answer.locator('code.language-json .hljs-attr').count()).toBeGreaterThan(0);
      expect(await answer.locator('code.language-shell .hljs-built_in').count()).toBeGreaterThan(0);
      await shot(page, `advice-phone-chat-${suffix}.png`);
      expect(await axe(page, '[data-testid="advice"]')).toEqual([]);
    }
  });

  test('from a device page on the phone (dark), and back to it', async () => {
    const { context, page } = await open('en_US', { ...PHONE, colorScheme: 'dark' });
    const devices = (await (await context.request.get(base() + '/apis/devices?size=100&sort=name')).json()).data.list as { id: number; hashId: string; page: string; slave: boolean }[];
    const probe = devices.find((d) => d.page === 'zhi-shang' && !d.slave)!;
    const devicePath = `/apps/mobile/poi/${probe.hashId}/${probe.id}/realtime/zhi-shang`;
    await page.goto(base() + devicePath);
    await page.getByTestId('m-device-advice').waitFor(SLOW);
    expect(await axe(page, '.fw-mobile-page__bar')).toEqual([]);
    await page.getByTestId('m-device-advice').click();
    await page.waitForURL((u) => u.pathname === '/apps/mobile/advice' && u.searchParams.get('device') === String(probe.id), SLOW);
    const today = await todayFromApi(context, probe.id, 'en_US');
    await expect.poll(() => page.getByTestId('advice-task').count(), SLOW).toBe(today.length);
    await page.locator('.adm-nav-bar-back').click();
    await page.waitForURL((u) => u.pathname === devicePath, SLOW);
  });

  test('a model that never answers: the page says it timed out', async () => {
    // A server of its own with a short --llm-timeout, asking the same stand-in.
    const quick = await startOwnServer({
      name: 'advice-timeout',
      args: ['--forecast-url', standInURL, '--llm-url', `${standInURL}/v1`, '--llm-model', 'field-model', '--llm-timeout', '2s'],
    });
    try {
      for (const [lang, options, file] of [
        ['en_US', {}, 'advice-desktop-timeout-en.png'],
        ['zh_CN', PHONE, 'advice-phone-timeout-zh.png'],
      ] as const) {
        const { page } = await open(lang, options, quick.base);
        const phone = 'isMobile' in options;
        await page.goto(quick.base + (phone ? '/apps/mobile/advice?tab=chat' : '/apps/advice'));
        await deviceOnPage(page);
        model.mode = 'hang';
        await questionBox(page).fill(lang === 'zh_CN' ? '今晚有霜冻吗？' : 'Frost tonight?');
        await page.getByTestId('advice-ask').click();
        const failed = page.getByTestId('advice-chat-error');
        await failed.waitFor(SLOW);
        expect(await failed.getAttribute('data-kind')).toBe('timeout');
        expect(await failed.innerText()).toContain(lang === 'zh_CN' ? '模型回答超时' : 'The model took too long to answer');
        expect(await failed.innerText()).toContain(lang === 'zh_CN' ? '模型服务响应超时' : 'The model service timed out');
        await shot(page, file, { mouseAway: true, clip: phone ? undefined : page.getByTestId('advice-chat') });
      }
    } finally {
      for (const res of model.open) res.destroy();
      model.open.clear();
      await quick.stop();
    }
  });
});
