import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, settle, shot, signIn } from './browser';

/** axe's serious and critical violations on the page, as rule :: first target. */
async function axeProblems(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0); // a hovered button is drawn lighter than at rest
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} :: ${v.nodes[0]?.target.join(' ')}`);
}

const SLOW = { timeout: 30_000 };

/** Picks every option of an antd multiple select. */
async function pickAll(page: Page, testId: string) {
  const select = page.getByTestId(testId);
  await select.click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await options.first().waitFor(SLOW);
  const count = await options.count();
  for (let i = 0; i < count; i += 1) {
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option:not(.ant-select-item-option-selected)').first();
    if ((await option.count()) === 0) break;
    await option.click();
  }
  await page.keyboard.press('Escape');
  return count;
}

describe('effective utilization coefficient', () => {
  test('the demo farm\u2019s fields and valves over a season: the coefficient, every input, and the workbook', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await page.goto(baseURL() + '/console/exper');
    await page.getByTestId('water-use').waitFor(SLOW);
    // Nothing chosen: each list says what it needs.
    await page.getByTestId('water-compute').click();
    await page.getByText('Choose at least one field').waitFor();
    await page.getByText('Choose at least one irrigation device').waitFor();

    expect(await pickAll(page, 'water-fields')).toBeGreaterThan(0);
    expect(await pickAll(page, 'water-meters')).toBeGreaterThan(0);
    await page.getByTestId('water-compute').click();
    const result = page.getByTestId('water-result');
    await result.waitFor(SLOW);
    const coefficient = await page.getByTestId('water-coefficient').innerText();
    expect(coefficient).toMatch(/Coefficient η\s*\d+(\.\d+)?$/);
    // Every field is shown, counted or with the reason it was left out.
    const rows = page.getByTestId('water-field-table').locator('tbody tr.ant-table-row');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('water-field-table').innerText()).toMatch(/Counted|Left out/);
    await shot(page, 'water-use-en.png', { fullPage: true });
    expect(await axeProblems(page)).toEqual([]);

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('water-export').click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK'); // an XLSX is a zip
  });

  test('in Chinese, dark', async () => {
    const { context, page } = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(context);
    await page.goto(baseURL() + '/console/exper');
    await page.getByTestId('water-use').waitFor(SLOW);
    await pickAll(page, 'water-fields');
    await pickAll(page, 'water-meters');
    await page.getByTestId('water-compute').click();
    await page.getByTestId('water-result').waitFor(SLOW);
    expect(await page.getByTestId('water-result').innerText()).toContain('利用系数 η');
    await shot(page, 'water-use-zh-dark.png', { fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
  });
});
