import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { api, baseURL, browser, eventually, PHONE, settle, shot, signIn } from './browser';

const SLOW = { timeout: 30_000 };

/** The files of a zip, by name: read through its central directory (Go writes sizes only there). */
function unzip(bytes: Buffer): Map<string, Buffer> {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const files = new Map<string, Buffer>();
  let at = bytes.readUInt32LE(end + 16);
  for (let n = bytes.readUInt16LE(end + 10); n > 0; n -= 1) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return files;
}

/** axe's serious and critical violations on the page, as rule :: first target. */
async function axeProblems(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} :: ${v.nodes[0]?.target.join(' ')}`);
}

/** Drags on the labelling canvas between two points given as fractions of its size. */
async function drag(page: Page, from: [number, number], to: [number, number]) {
  const box = (await page.getByTestId('label-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 6 });
  await page.mouse.up();
}

/** The digit that picks an element on the labelling page (its place in the picker). */
async function elementKey(page: Page, identifier: string): Promise<string> {
  const ids = await page.getByTestId('label-elements').getByRole('radio').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-testid')));
  const index = ids.indexOf(`label-element-${identifier}`);
  expect(index, `${identifier} among the first nine elements`).toBeGreaterThanOrEqual(0);
  expect(index).toBeLessThan(9);
  return String(index + 1);
}

interface SampleAnswer {
  id: number;
  width: number;
  height: number;
  labels: { element: string; x: number; y: number; w: number; h: number }[];
}

describe('AI lab', () => {
  test('a demo trap picture becomes a sample, is labelled with two boxes, joins a set and is exported with its labels', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    const suffix = Date.now().toString(36);
    const moth = `moth_${suffix}`;
    const beetle = `beetle_${suffix}`;

    // Elements: what the labels will name.
    await page.goto(baseURL() + '/apps/aiLab');
    await page.getByTestId('lab-elements').waitFor(SLOW);
    for (const [name, identifier] of [
      ['Armyworm moth', moth],
      ['Ground beetle', beetle],
    ]) {
      await page.getByTestId('element-name').fill(name);
      await page.getByTestId('element-identifier').fill(identifier);
      await page.getByTestId('element-add').click();
      await page.getByTestId('lab-elements').getByText(identifier, { exact: true }).waitFor();
    }
    // A bad identifier is refused before it is sent, naming the rule.
    await page.getByTestId('element-name').fill('Bad');
    await page.getByTestId('element-identifier').fill('no spaces');
    await page.getByTestId('element-add').click();
    await page.getByText('1–32 letters, digits, _ or -').first().waitFor();
    await shot(page, 'ailab-home-en.png', { fullPage: true, mouseAway: true });

    // A sample from a demo trap's picture.
    await page.getByRole('navigation', { name: 'AI lab pages' }).getByRole('link', { name: 'Samples' }).click();
    await page.getByTestId('lab-samples').waitFor(SLOW);
    await page.getByTestId('sample-from-camera').click();
    const pictures = page.getByTestId('camera-pictures');
    await pictures.waitFor(SLOW);
    await pictures.locator('button').first().click();
    await page.getByTestId('camera-make-sample').click();
    await page.waitForURL(/\/apps\/model-service\/samples\/\d+$/, SLOW);
    const sampleId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('label-canvas').waitFor(SLOW);
    await page.getByTestId(`label-element-${moth}`).waitFor();

    // Two boxes, the element picked and the mode chosen with the keyboard, drawn with the mouse.
    await page.keyboard.press(await elementKey(page, moth));
    await page.keyboard.press('b');
    await drag(page, [0.1, 0.1], [0.3, 0.35]);
    await page.keyboard.press(await elementKey(page, beetle));
    await drag(page, [0.6, 0.5], [0.85, 0.9]);
    // A third one, deleted again with the Delete key.
    await drag(page, [0.4, 0.1], [0.5, 0.2]);
    await expect.poll(() => page.getByTestId('label-item').count()).toBe(3);
    await page.keyboard.press('Delete');
    await expect.poll(() => page.getByTestId('label-item').count()).toBe(2);
    // The help lists the shortcuts.
    await page.keyboard.press('?');
    await page.getByTestId('label-shortcuts').getByText('Delete the selected label').waitFor();
    await shot(page, 'ailab-label-en.png', { fullPage: true, mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');

    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/apis/ailab/samples/${sampleId}`));
    await page.keyboard.press('Control+s');
    expect((await saved).ok()).toBe(true);
    await page.getByTestId('label-list').getByText('Saved', { exact: true }).waitFor();
    const sample = (await api<SampleAnswer>(page, 'GET', `/apis/ailab/samples/${sampleId}`)).data;
    expect(sample.labels.map((l) => l.element)).toEqual([moth, beetle]);
    const [first, second] = sample.labels;
    // The first box spans 10–30 % across and 10–35 % down the picture (a pixel's rounding aside).
    expect(first.x / sample.width).toBeCloseTo(0.1, 1);
    expect(first.w / sample.width).toBeCloseTo(0.2, 1);
    expect(first.h / sample.height).toBeCloseTo(0.25, 1);
    expect(second.x / sample.width).toBeCloseTo(0.6, 1);

    // A set: the empty form is refused with the catalogue's message, then built from the sample.
    await page.goto(baseURL() + '/apps/model-service/sample-sets');
    await page.getByTestId('lab-sets').waitFor(SLOW);
    await page.getByTestId('set-new').click();
    await page.getByTestId('set-submit').click();
    await page.getByTestId('set-incomplete').getByText('Please fill in the form completely').waitFor();
    const setName = `Traps ${suffix}`;
    await page.getByTestId('set-name').fill(setName);
    await page.getByTestId('set-description').fill('Moths and beetles from the east trap');
    await page.getByTestId('set-samples').locator(`tr[data-row-key="${sampleId}"] input[type="checkbox"]`).check();
    await page.getByTestId('set-submit').click();
    const row = page.getByTestId('set-table').locator('tr', { hasText: setName });
    await row.waitFor(SLOW);
    expect(await row.innerText()).toMatch(/v1/);
    await shot(page, 'ailab-sets-en.png', { mouseAway: true });

    // Export: the archive holds the picture, its two YOLO lines and the COCO annotations.
    const setId = Number((await row.getAttribute('data-row-key'))!);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`set-export-${setId}`).click()]);
    expect(file.suggestedFilename()).toBe(`sample-set-${setId}-v1.zip`);
    const zip = unzip(readFileSync((await file.path())!));
    expect([...zip.keys()].some((name) => name.startsWith(`images/sample-${sampleId}.`))).toBe(true);
    const yolo = zip.get(`labels/sample-${sampleId}.txt`)!.toString().trim().split('\n');
    expect(yolo).toHaveLength(2);
    // Classes are the identifiers sorted, numbered from 0: the beetle's is 0, the moth's 1.
    expect(yolo.map((line) => line.split(' ')[0])).toEqual(['1', '0']);
    const [, cx, cy, w, h] = yolo[0].split(' ').map(Number);
    expect(cx).toBeCloseTo((first.x + first.w / 2) / sample.width, 4);
    expect(cy).toBeCloseTo((first.y + first.h / 2) / sample.height, 4);
    expect(w).toBeCloseTo(first.w / sample.width, 4);
    expect(h).toBeCloseTo(first.h / sample.height, 4);
    const coco = JSON.parse(zip.get('annotations.json')!.toString());
    expect(coco.annotations.map((a: { bbox: number[] }) => a.bbox)).toEqual([
      [first.x, first.y, first.w, first.h],
      [second.x, second.y, second.w, second.h],
    ]);
    expect(coco.categories.map((c: { name: string }) => c.name).sort()).toEqual([beetle, moth].sort());

    // Exported, the version is locked: editing it writes version 2.
    await row.getByTestId('set-used').waitFor(SLOW);
    await page.getByTestId(`set-edit-${setId}`).click();
    await page.getByTestId('set-used-note').getByText('saving writes version 2').waitFor();
    await page.getByTestId('set-description').fill('Second version');
    await page.getByTestId('set-submit').click();
    await page.getByText('Saved as version 2').waitFor(SLOW);
    await eventually(() => page.getByTestId('set-table').locator('tr', { hasText: setName }).count()).toBe(2);
    await shot(page, 'ailab-sets-versions-en.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);
  });

  test('an upload that is not a picture is refused with the server\u2019s reason; a PNG becomes a sample', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await page.goto(baseURL() + '/apps/model-service/samples');
    await page.getByTestId('lab-samples').waitFor(SLOW);
    await page.getByTestId('sample-upload').click();
    const input = page.locator('.ant-modal input[type="file"]');
    // Named like a picture, but text: judged by its bytes.
    await input.setInputFiles({ name: 'trap.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    const failure = page.getByTestId('upload-error');
    await failure.waitFor(SLOW);
    expect(await failure.innerText()).toMatch(/Upload failed[\s\S]*trap\.png: File: only JPEG or PNG pictures are accepted/);
    await shot(page, 'ailab-upload-error-en.png', { mouseAway: true });

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
    const uploaded = page.waitForResponse((r) => r.url().includes('/apis/ailab/samples/upload'));
    await input.setInputFiles({ name: 'tiny.png', mimeType: 'image/png', buffer: png });
    const answer = await (await uploaded).json();
    expect(answer.code).toBe(0);
    await page.getByText(`Uploaded as sample #${answer.data.id}`).waitFor(SLOW);
    await page.keyboard.press('Escape');
    await page.getByTestId('sample-table').locator(`tr[data-row-key="${answer.data.id}"]`).waitFor(SLOW);
    await page.getByTestId('sample-filter-device').locator('input').fill('no such device');
    await page.getByTestId('sample-filter-device').locator('input').press('Enter');
    await page.getByText('No sample matches the filters').waitFor();
  });

  test('in Chinese, dark, and at a phone\u2019s width', async () => {
    const { context, page } = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(context);
    await page.goto(baseURL() + '/apps/model-service/samples');
    await page.getByTestId('sample-table').locator('tr.ant-table-row').first().waitFor(SLOW);
    await shot(page, 'ailab-samples-zh-dark.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);
    const labelled = (await api<SampleAnswer[]>(page, 'GET', '/apis/ailab/samples')).data.find((s) => s.labels.length > 0)!;
    await page.goto(baseURL() + `/apps/model-service/samples/${labelled.id}`);
    await page.getByTestId('label-canvas').waitFor(SLOW);
    await eventually(() => page.getByTestId('label-shape').count()).toBe(labelled.labels.length);
    await shot(page, 'ailab-label-zh-dark.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.goto(baseURL() + '/apps/model-service/sample-sets');
    await page.getByTestId('set-table').locator('tr.ant-table-row').first().waitFor(SLOW);
    await shot(page, 'ailab-sets-zh-dark.png', { mouseAway: true });
    await page.goto(baseURL() + '/apps/aiLab');
    await page.getByTestId('lab-elements').waitFor(SLOW);
    await shot(page, 'ailab-home-zh-dark.png', { fullPage: true, mouseAway: true });

    const phone = await browser({ lang: 'zh_CN', ...PHONE, deviceScaleFactor: 2 });
    await signIn(phone.context);
    await phone.page.goto(baseURL() + '/apps/model-service/samples');
    await phone.page.getByTestId('lab-samples').waitFor(SLOW);
    await shot(phone.page, 'ailab-samples-phone.png', { mouseAway: true });
    await phone.page.goto(baseURL() + `/apps/model-service/samples/${labelled.id}`);
    await phone.page.getByTestId('label-canvas').waitFor(SLOW);
    await shot(phone.page, 'ailab-label-phone.png', { fullPage: true });
  });
});
