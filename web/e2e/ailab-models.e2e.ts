import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { api, baseURL, browser, eventually, PHONE, settle, shot, signIn } from './browser';

const SLOW = { timeout: 30_000 };
const BUILTIN = '/apis/ailab/models/builtin/insect-counter.l5d';
/** The held-out trap pictures the counter's tests check it on, with their counts. */
const TESTDATA = path.resolve(__dirname, '../../internal/ailab/testdata');

/** axe's serious and critical violations on the page (or the part a selector names), as rule :: first target. */
async function axeProblems(page: Page, include?: string): Promise<string[]> {
  await page.mouse.move(0, 0);
  await settle(page);
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} :: ${v.nodes[0]?.target.join(' ')}`);
}

/** A zip holding one stored (uncompressed) entry: a real archive, but no model package. */
function storedZip(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const file = Buffer.from(name);
  const crc = crc32(data) >>> 0;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const centralAt = local.length + file.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

interface ModelAnswer {
  id: number;
  name: string;
  version: string;
  kind: string;
  size: number;
  operators: string[];
  manifest: { elements: { name: string; unit: string; identifier: string }[] };
}

interface TestAnswer {
  outputs: { sampleId: number; values: { identifier: string; value: number }[]; boxes: unknown[]; millis: number }[];
  millis: number;
}

/** A sample made of one of a demo trap's pictures (the n-th newest), through the samples API. */
async function trapSample(page: Page, nth: number): Promise<number> {
  const devices = await api<{ list: { id: number; page: string; slave: boolean }[] }>(page, 'GET', '/apis/devices?category=ecology&belong=mine&size=100&sort=name');
  const trap = devices.data.list.find((d) => d.page === 'ibiosense' && !d.slave);
  expect(trap, 'a demo insect trap').toBeDefined();
  const pictures = await api<{ id: number }[]>(page, 'GET', `/apis/poi/${trap!.id}/images?size=${nth + 1}`);
  expect(pictures.data.length).toBeGreaterThan(nth);
  const sample = await api<{ id: number }>(page, 'POST', '/apis/ailab/samples', { deviceId: trap!.id, imageId: pictures.data[nth].id });
  expect(sample.code).toBe(0);
  return sample.data.id;
}

/** Uploads a picture as a sample, through the samples API. */
async function uploadSample(page: Page, picture: Buffer): Promise<number> {
  const res = await page.request.post(baseURL() + '/apis/ailab/samples/upload?tag=reference', { data: picture, headers: { 'Content-Type': 'image/png', lang: 'en_US' } });
  const answer = (await res.json()) as { code: number; data: { id: number } };
  expect(answer.code).toBe(0);
  return answer.data.id;
}

/** The built-in counter's package, downloaded through the API with the context's session. */
async function builtinPackage(context: BrowserContext): Promise<Buffer> {
  const res = await context.request.get(baseURL() + BUILTIN);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-disposition']).toContain('insect-counter.l5d');
  return Buffer.from(await res.body());
}

/**
 * Removes the caller's models of a name and version, so an upload of the same package is not refused
 * as taken — and first the applications that use them (the demo farm runs the built-in counter on its
 * traps from the start, and a model in use cannot be deleted).
 */
async function removeModels(page: Page, name: string, version: string) {
  const models = await api<ModelAnswer[] | null>(page, 'GET', '/apis/ailab/models');
  const apps = await api<{ id: number; modelId: number }[] | null>(page, 'GET', '/apis/ailab/applications');
  for (const model of models.data ?? []) {
    if (model.name !== name || model.version !== version) continue;
    for (const app of apps.data ?? []) {
      if (app.modelId === model.id) expect((await api(page, 'DELETE', `/apis/ailab/applications/${app.id}`)).code).toBe(0);
    }
    expect((await api(page, 'DELETE', `/apis/ailab/models/${model.id}`)).code).toBe(0);
  }
}

async function openPage(page: Page) {
  await page.goto(baseURL() + '/apps/model-service/models');
  await page.getByTestId('lab-models').waitFor(SLOW);
}

describe('AI lab models', () => {
  test('the built-in counter is downloaded, uploaded through the page, listed, tested on a trap picture; wrong files are refused', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    const l5d = await builtinPackage(context);
    await openPage(page);
    await removeModels(page, 'Insect counter', '1.0.0');

    // The page's button hands over the same package.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('model-builtin').click()]);
    expect(saved.suggestedFilename()).toBe('insect-counter.l5d');
    expect(readFileSync((await saved.path())!).equals(l5d)).toBe(true);

    // Uploaded through the page, it is listed with its manifest's facts.
    const input = page.locator('.fw-lab input[type="file"]');
    const uploaded = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/apis/ailab/models');
    await input.setInputFiles({ name: 'insect-counter.l5d', mimeType: 'application/octet-stream', buffer: l5d });
    const answer = (await (await uploaded).json()) as { code: number; data: ModelAnswer };
    expect(answer.code).toBe(0);
    const model = answer.data;
    expect(model.size).toBe(l5d.length);
    await page.getByText('Insect counter 1.0.0 uploaded').waitFor(SLOW);
    const row = page.getByTestId('model-table').locator(`tr[data-row-key="${model.id}"]`);
    await row.waitFor(SLOW);
    const text = await row.innerText();
    expect(text).toContain('Insect counter');
    expect(text).toContain('1.0.0');
    expect(text).toContain('Count');
    expect(text).toContain('Input 320×240');
    for (const element of model.manifest.elements) expect(text).toContain(`${element.name} (${element.unit})`);
    expect(text).toContain(`${(l5d.length / 1024).toFixed(1)} KB`);
    expect(text).toContain(`${model.operators.length} operators`);
    // The operators show on hover.
    await row.getByTestId(`model-operators-${model.id}`).hover();
    const operators = page.getByTestId('model-operators-list');
    await operators.waitFor();
    expect(await operators.innerText()).toBe(model.operators.join(', '));
    expect(model.operators).toContain('MatMul');
    await page.mouse.move(0, 0);
    await shot(page, 'ailab-models-en.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);

    // A wrong file is refused with the server's reason, under 'Upload failed'.
    const failure = page.getByTestId('model-upload-error');
    await input.setInputFiles({ name: 'insect-counter.zip', mimeType: 'application/zip', buffer: l5d });
    await failure.waitFor(SLOW);
    expect(await failure.innerText()).toMatch(/Upload failed[\s\S]*insect-counter\.zip: File: only l5d is accepted/);
    await input.setInputFiles({ name: 'notes.l5d', mimeType: 'application/octet-stream', buffer: storedZip('README.txt', 'not a model') });
    await failure.getByText('notes.l5d').waitFor(SLOW);
    expect(await failure.innerText()).toMatch(/notes\.l5d: .*manifest\.json/);
    await input.setInputFiles({ name: 'photo.l5d', mimeType: 'application/octet-stream', buffer: Buffer.from('plain text, no zip') });
    await failure.getByText('photo.l5d').waitFor(SLOW);
    expect(await failure.innerText()).toMatch(/photo\.l5d: File: not a readable l5d package/);
    await shot(page, 'ailab-models-refused-en.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);
    // Nothing refused was kept.
    expect(((await api<ModelAnswer[]>(page, 'GET', '/apis/ailab/models')).data ?? []).filter((m) => m.name === 'Insect counter')).toHaveLength(1);

    // Test on a sample of a demo trap's picture and on a held-out trap picture of a known catch
    // (60 moths; the training script's own forward pass counts 55.54 on it, counter-ref.json).
    const sampleId = await trapSample(page, 0);
    const reference = JSON.parse(readFileSync(path.join(TESTDATA, 'counter-ref.json'), 'utf8')).references[1] as { file: string; trueCount: number; counts: number[] };
    const referenceId = await uploadSample(page, readFileSync(path.join(TESTDATA, reference.file)));
    await page.reload();
    await page.getByTestId(`model-test-${model.id}`).click();
    const drawer = page.getByTestId('model-test');
    const samples = drawer.getByTestId('model-test-samples');
    await samples.locator(`tr[data-row-key="${sampleId}"]`).waitFor(SLOW);
    // Run with nothing chosen: told to choose.
    await drawer.getByTestId('model-test-run').click();
    await drawer.getByTestId('model-test-missing').getByText('Choose samples or a sample set version').waitFor();
    for (const id of [referenceId, sampleId]) await samples.locator(`tr[data-row-key="${id}"] input[type="checkbox"]`).check();
    const tested = page.waitForResponse((r) => r.url().endsWith(`/apis/ailab/models/${model.id}/test`));
    await drawer.getByTestId('model-test-run').click();
    const run = (await (await tested).json()) as { code: number; data: TestAnswer };
    expect(run.code).toBe(0);
    const counted = drawer.locator(`[data-testid="test-result"][data-sample="${referenceId}"]`);
    await counted.waitFor(SLOW);
    // The known catch: the count the reference gives, shown with one decimal and its unit.
    expect(reference.trueCount).toBe(60);
    expect((await counted.getByTestId('test-value').innerText()).replace(/\s+/g, ' ').trim()).toBe(`${reference.counts[0].toFixed(1)} head`);
    expect(await counted.getByTestId('test-millis').innerText()).toMatch(/^Time taken: \d+(\.\d+)? ms$/);
    // The demo trap's picture (a November night catches few moths): the count the model gave.
    const trap = drawer.locator(`[data-testid="test-result"][data-sample="${sampleId}"]`);
    const output = run.data.outputs.find((o) => o.sampleId === sampleId)!;
    const moth = output.values.find((v) => v.identifier === 'moth')!;
    expect(moth.value).toBeGreaterThanOrEqual(0);
    expect((await trap.getByTestId('test-value').innerText()).replace(/\s+/g, ' ').trim()).toBe(`${Number(moth.value.toFixed(1))} head`);
    expect(await trap.getByTestId('test-millis').innerText()).toMatch(/^Time taken: \d+(\.\d+)? ms$/);
    expect(output.millis).toBeGreaterThan(0);
    expect(await drawer.getByTestId('test-total-time').innerText()).toMatch(/2 samples, time taken\s*\d+(\.\d+)? ms/);
    // The pictures are shown, loaded.
    for (const result of [counted, trap]) {
      await eventually(() => result.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    await shot(page, 'ailab-model-test-en.png', { mouseAway: true });
    expect(await axeProblems(page, '.ant-drawer')).toEqual([]);

    // A sample gone between choosing and running: 'Execution failed' with the server's reason.
    const gone = await trapSample(page, 1);
    await page.reload();
    await page.getByTestId(`model-test-${model.id}`).click();
    await samples.locator(`tr[data-row-key="${gone}"] input[type="checkbox"]`).check();
    expect((await api(page, 'DELETE', `/apis/ailab/samples/${gone}`)).code).toBe(0);
    await drawer.getByTestId('model-test-run').click();
    const error = drawer.getByTestId('model-test-error');
    await error.waitFor(SLOW);
    expect(await error.innerText()).toMatch(/^Execution failed\s+\S/);
    await shot(page, 'ailab-model-test-failed-en.png', { mouseAway: true });

    // On a set version: the reference picture's count again, and the version is locked from then on.
    const setName = `Reference ${Date.now().toString(36)}`;
    const set = await api<{ id: number; version: number; used: boolean }>(page, 'POST', '/apis/ailab/sets', { name: setName, description: '', sampleIds: [referenceId] });
    expect(set.code).toBe(0);
    expect(set.data.used).toBe(false);
    await page.reload();
    await page.getByTestId(`model-test-${model.id}`).click();
    await drawer.getByTestId('model-test-source').getByText('Sample set version').click();
    await drawer.getByTestId('model-test-set').click();
    await page.locator('.ant-select-item-option', { hasText: `${setName} v1 (1 sample)` }).click();
    await drawer.getByTestId('model-test-run').click();
    const fromSet = drawer.locator(`[data-testid="test-result"][data-sample="${referenceId}"]`);
    await fromSet.waitFor(SLOW);
    expect((await fromSet.getByTestId('test-value').innerText()).replace(/\s+/g, ' ').trim()).toBe(`${reference.counts[0].toFixed(1)} head`);
    const sets = await api<{ id: number; used: boolean }[]>(page, 'GET', '/apis/ailab/sets');
    expect(sets.data.find((s) => s.id === set.data.id)?.used).toBe(true);
    await page.keyboard.press('Escape');
  });

  test('in Chinese and dark, at a phone\u2019s width, and deleted with a confirmation', async () => {
    const { context, page } = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(context);
    await openPage(page);
    const models = (await api<ModelAnswer[] | null>(page, 'GET', '/apis/ailab/models')).data ?? [];
    let model = models.find((m) => m.name === 'Insect counter');
    if (!model) {
      // Run alone: upload the package through the API first.
      const res = await context.request.post(baseURL() + '/apis/ailab/models', {
        multipart: { file: { name: 'insect-counter.l5d', mimeType: 'application/octet-stream', buffer: await builtinPackage(context) } },
      });
      model = ((await res.json()) as { data: ModelAnswer }).data;
      await page.reload();
    }
    // Run alone, the model may be the demo's, in use by its traps' application: free it to delete.
    for (const app of (await api<{ id: number; modelId: number }[] | null>(page, 'GET', '/apis/ailab/applications')).data ?? []) {
      if (app.modelId === model.id) expect((await api(page, 'DELETE', `/apis/ailab/applications/${app.id}`)).code).toBe(0);
    }
    const row = page.getByTestId('model-table').locator(`tr[data-row-key="${model.id}"]`);
    await row.waitFor(SLOW);
    expect(await row.innerText()).toContain('计数');
    await shot(page, 'ailab-models-zh-dark.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);

    // A test in the dark theme: the drawer's results.
    const sampleId = await trapSample(page, 0);
    await page.getByTestId(`model-test-${model.id}`).click();
    const drawer = page.getByTestId('model-test');
    await drawer.getByTestId('model-test-samples').locator(`tr[data-row-key="${sampleId}"] input[type="checkbox"]`).check();
    await drawer.getByTestId('model-test-run').click();
    const result = drawer.locator(`[data-testid="test-result"][data-sample="${sampleId}"]`);
    await result.waitFor(SLOW);
    expect(await result.getByTestId('test-millis').innerText()).toMatch(/^用时：\d+(\.\d+)? ms$/);
    await eventually(() => result.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(page, 'ailab-model-test-zh-dark.png', { mouseAway: true });
    expect(await axeProblems(page, '.ant-drawer')).toEqual([]);
    await page.keyboard.press('Escape');

    const phone = await browser({ lang: 'zh_CN', ...PHONE, deviceScaleFactor: 2 });
    await signIn(phone.context);
    await openPage(phone.page);
    await phone.page.getByTestId('model-table').locator(`tr[data-row-key="${model.id}"]`).waitFor(SLOW);
    await shot(phone.page, 'ailab-models-phone.png', { mouseAway: true });
    await phone.page.getByTestId(`model-test-${model.id}`).click();
    const phoneDrawer = phone.page.getByTestId('model-test');
    await phoneDrawer.getByTestId('model-test-samples').locator(`tr[data-row-key="${sampleId}"] input[type="checkbox"]`).check();
    await phoneDrawer.getByTestId('model-test-run').click();
    await phoneDrawer.locator(`[data-testid="test-result"][data-sample="${sampleId}"]`).waitFor(SLOW);
    await shot(phone.page, 'ailab-model-test-phone.png', { mouseAway: true });

    // Deleted once the confirmation is accepted.
    await row.getByTestId(`model-delete-${model.id}`).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await row.waitFor({ state: 'detached', ...SLOW });
    expect(((await api<ModelAnswer[] | null>(page, 'GET', '/apis/ailab/models')).data ?? []).some((m) => m.id === model.id)).toBe(false);
  });
});
