import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, eventually, login, screenshotDir, shot } from './browser';
import { startMailSink, startOwnServer, type OwnServer } from './own-server';

interface Summary {
  to: string;
  subject: string;
  text: string;
  attachments: { name: string; contentType: string; size: number }[] | null;
}

const GROWER = { accountNumber: 'grower21', password: 'grower2121', name: 'Wang Fang' };
const ADDRESS = 'wang.fang@farm.test';
const OPERATOR = 'ops@fieldwatch.test';
const SLOW = { timeout: 30_000 };
const SHOTS = '/tmp/feedback-shots';
const bin = process.env.FIELDWATCH_BIN ?? path.resolve(__dirname, '../../bin/fieldwatch');
const run = promisify(execFile);

let sink: Awaited<ReturnType<typeof startMailSink>>;
let server: OwnServer;

beforeAll(async () => {
  sink = await startMailSink();
  server = await startOwnServer({
    name: 'feedback',
    users: [GROWER],
    args: ['--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--mail-from', 'Fieldwatch <noreply@fieldwatch.test>', '--feedback-mail', OPERATOR],
  });
  // A second account, with a bound address: the answer to its feedback is mailed there.
  await run(bin, ['user', 'add', '--data', server.data, '--account', 'grower22', '--name', 'Zhao Lei', '--password', 'grower2222', '--mail', ADDRESS]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sink?.stop();
});

/** The mails the sink has received, in order. */
function mails(): Summary[] {
  return readdirSync(sink.dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(sink.dir, f), 'utf8')) as Summary);
}

/** Saves a screenshot to the e2e screenshots and to the shots looked at for this page. */
async function keep(page: Page, name: string) {
  await shot(page, name, { fullPage: true, top: true, mouseAway: true });
  mkdirSync(SHOTS, { recursive: true });
  copyFileSync(path.join(screenshotDir, name), path.join(SHOTS, name));
}

describe('Feedback', () => {
  test('send feedback with a screenshot, see it listed, the operator answers from the command line, the answer shows', async () => {
    const account = { accountNumber: 'grower22', password: 'grower2222' };
    const { page } = await browser({ lang: 'en_US', viewport: { width: 1440, height: 900 } });
    await login(page, '/console/feedback', { account, base: server.base });
    await page.getByTestId('feedback').waitFor(SLOW);
    await page.getByText('You have not sent any feedback yet').waitFor(SLOW);
    // The bound address is offered as the contact.
    await eventually(() => page.getByTestId('feedback-contact').inputValue()).toBe(ADDRESS);

    // Nothing filled in: the form names what is missing and sends nothing.
    await page.getByTestId('feedback-submit').click();
    await page.getByText('Please choose a category').waitFor();
    await page.getByText('Please describe your feedback').waitFor();

    await page.getByTestId('feedback-category').click();
    await page.getByTitle('Device or data').click();
    await page.getByTestId('feedback-text').fill('Station TQ-3 shows no rain since Monday although it rained twice.');

    // A file that claims to be a PNG but is not: the server judges by content and names the field.
    const upload = page.getByTestId('feedback-form').locator('input[type=file]');
    await upload.setInputFiles({ name: 'rain.png', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.locator('.ant-upload-list-item').first().waitFor();
    await page.getByTestId('feedback-submit').click();
    await page.getByText('Screenshots: only JPEG, PNG or WebP pictures are accepted').waitFor(SLOW);
    await page.locator('.ant-upload-list-item').first().hover();
    await page.getByRole('button', { name: /Remove file|delete/i }).first().click();
    await eventually(() => page.locator('.ant-upload-list-item').count()).toBe(0);

    // A real screenshot of the page itself.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 640, height: 400 } });
    await page.getByTestId('feedback-form').locator('input[type=file]').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: png });
    await eventually(() => page.locator('.ant-upload-list-item img').count()).toBe(1); // the preview
    await keep(page, 'feedback-form-en.png');
    await page.getByTestId('feedback-submit').click();
    await page.getByText('Thank you: your feedback was sent').waitFor(SLOW);

    const item = page.getByTestId('feedback-item').first();
    await item.waitFor(SLOW);
    expect(await item.getAttribute('data-state')).toBe('open');
    expect(await item.innerText()).toContain('Station TQ-3 shows no rain since Monday');
    expect(await item.getByTestId('feedback-state').innerText()).toBe('Open');
    // The screenshot is served back to its author and decodes.
    const thumb = item.locator('img.fw-feedback__thumb');
    await eventually(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    const id = /#(\d+)/.exec(await item.innerText())![1];

    // The operator's mail names the account, category, text and contact, the screenshot attached.
    await eventually(() => mails().filter((m) => m.to.includes(OPERATOR)).length).toBe(1);
    const toOperator = mails().find((m) => m.to.includes(OPERATOR))!;
    expect(toOperator.subject).toContain(`#${id}`);
    expect(toOperator.subject).toContain('grower22');
    expect(toOperator.text).toContain('Device or data');
    expect(toOperator.text).toContain('Station TQ-3 shows no rain since Monday');
    expect(toOperator.text).toContain(ADDRESS);
    expect(toOperator.attachments?.map((a) => a.contentType)).toEqual(['image/png']);

    // The operator answers from the command line, against the running server's data.
    const { stdout: open } = await run(bin, ['feedback', 'list', '--open', '--data', server.data]);
    expect(open).toMatch(new RegExp(`^${id} .*grower22.*device.*open.*Station TQ-3`, 'm'));
    const { stdout: answered } = await run(bin, ['feedback', 'answer', id, 'The gauge funnel was blocked by leaves; cleaned on Friday.', '--data', server.data]);
    expect(answered).toContain(`queued to ${ADDRESS}`);

    await page.reload();
    const done = page.getByTestId('feedback-item').first();
    await done.getByTestId('feedback-answer').waitFor(SLOW);
    expect(await done.getAttribute('data-state')).toBe('answered');
    expect(await done.getByTestId('feedback-answer').innerText()).toContain('The gauge funnel was blocked by leaves');
    await keep(page, 'feedback-answered-en.png');

    // The running server mails the answer to the bound address.
    await eventually(() => mails().some((m) => m.to.includes(ADDRESS))).toBe(true);
    expect(mails().find((m) => m.to.includes(ADDRESS))!.text).toContain('The gauge funnel was blocked by leaves');
  });

  test('another account sees none of it; the page in the dark theme and in Chinese', async () => {
    const { page } = await browser({ lang: 'zh_CN', colorScheme: 'dark', viewport: { width: 1440, height: 900 } });
    await login(page, '/console/feedback', { account: GROWER, base: server.base });
    await page.getByTestId('feedback').waitFor(SLOW);
    await page.getByText('您还没有提交过反馈').waitFor(SLOW);
    // The first account's feedback and screenshot answer as missing ones.
    const theirs = await page.evaluate(async () => {
      const r = await fetch('/apis/feedback/1', { headers: { lang: 'zh_CN' } });
      const shot = await fetch('/apis/feedback/1/screenshots/1');
      await shot.text(); // read whole, so the page goes quiet for the screenshots
      return { status: r.status, shot: shot.status, body: await r.json() };
    });
    expect(theirs.status).toBe(404);
    expect(theirs.shot).toBe(404);
    expect(theirs.body.code).toBe(1404);

    await page.getByTestId('feedback-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '请选择类别' }).waitFor();
    await keep(page, 'feedback-empty-zh-dark.png');
    await page.getByTestId('feedback-category').click();
    await page.getByTitle('建议').click();
    await page.getByTestId('feedback-text').fill('希望在地图上显示灌溉分区。');
    await page.getByTestId('feedback-submit').click();
    await page.getByTestId('feedback-item').first().waitFor(SLOW);
    expect(await page.getByTestId('feedback-state').first().innerText()).toBe('待回复');
    await keep(page, 'feedback-sent-zh-dark.png');

    const { stdout } = await run(bin, ['feedback', 'list', '--data', server.data]);
    expect(stdout.trim().split('\n')).toHaveLength(3); // the header and both accounts' feedback
  });

  test('the answered page in the dark theme', async () => {
    const { page } = await browser({ lang: 'en_US', colorScheme: 'dark', viewport: { width: 1440, height: 900 } });
    await login(page, '/console/feedback', { account: { accountNumber: 'grower22', password: 'grower2222' }, base: server.base });
    await page.getByTestId('feedback-answer').first().waitFor(SLOW);
    await keep(page, 'feedback-answered-en-dark.png');
    expect(existsSync(path.join(SHOTS, 'feedback-answered-en-dark.png'))).toBe(true);
  });
});
