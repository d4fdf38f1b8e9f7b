import { describe, expect, test } from 'vitest';
import { baseURL, browser, deviceOf, detailPath, listDevices, PHONE, shot, signIn } from './browser';

/** The demo devices obey commands on their next cycle, on a shared two-core machine. */
const SLOW = { timeout: 30_000 };

describe('the unified portal', () => {
  test('the owner makes a link; a browser with no session opens it, controls the valve and sees the record; turned off, the page does not exist', async () => {
    // The owner turns the demo valve's portal on, with control.
    const owner = await browser({ lang: 'en_US' });
    await signIn(owner.context);
    const valve = deviceOf(await listDevices(owner.page), 10);
    await owner.page.goto(baseURL() + detailPath(valve));
    const card = owner.page.getByTestId('poi-portal');
    await card.scrollIntoViewIfNeeded();
    await card.getByTestId('portal-allow-control').click();
    await card.getByTestId('portal-on').click();
    const shown = card.getByTestId('portal-link');
    await shown.waitFor();
    const link = (await shown.locator('code').innerText()).trim();
    expect(link).toMatch(new RegExp(`^${baseURL()}/uni-portal/${valve.sn}#k=[A-Za-z0-9_-]{43}$`));
    expect(await card.getByTestId('portal-state').innerText()).toContain('Its visitors can send commands');
    await shot(owner.page, 'portal-owner-card-en.png', { clip: card });

    // A phone with no session opens the link: the valve's readings and controls, no login asked.
    const visitor = await browser({ ...PHONE, lang: 'en_US' });
    await visitor.page.goto(link);
    const portal = visitor.page.getByTestId('portal-page');
    await portal.waitFor();
    expect(await portal.innerText()).toContain(valve.name);
    expect(await visitor.page.getByTestId('poi-reading').count()).toBeGreaterThan(0);
    expect((await visitor.context.cookies()).some((c) => c.name === 'fw_session')).toBe(false);
    expect(new URL(visitor.page.url()).pathname).toBe(`/uni-portal/${valve.sn}`);

    // A command from the portal reaches the demo valve, which confirms it; the record shows it.
    await visitor.page.getByTestId('poi-command-close').getByRole('button').click();
    const latest = visitor.page.getByTestId('poi-commands').locator('tbody tr').first();
    await expect.poll(() => latest.innerText(), SLOW).toContain('Close');
    await expect.poll(() => latest.innerText(), SLOW).toContain('Effective');
    await shot(visitor.page, 'portal-phone-light.png', { fullPage: true });

    // The owner's record says it came from the portal, sent in the owner's name.
    const record = await owner.page.request.get(`${baseURL()}/apis/poi/${valve.id}/commands?page=1&size=1`);
    const sent = ((await record.json()) as { data: { list: { source: string; state: string }[] } }).data.list[0];
    expect(sent).toMatchObject({ source: 'portal', state: 'effective' });

    // The same link on a desktop, in Chinese and dark.
    const desk = await browser({ colorScheme: 'dark', lang: 'zh_CN' });
    await desk.page.goto(link);
    await desk.page.getByTestId('portal-page').waitFor();
    await expect.poll(() => desk.page.getByTestId('poi-commands').innerText()).toContain('已生效');
    await shot(desk.page, 'portal-desktop-zh-dark.png', { fullPage: true });

    // Turned off by the owner: the link leads nowhere, says so, and goes to the login page.
    await card.getByTestId('portal-off').click();
    await owner.page.getByRole('button', { name: 'Turn off' }).last().click();
    await card.getByTestId('portal-on').waitFor();
    await visitor.page.reload();
    await visitor.page.getByText('The page does not exist').waitFor();
    expect(await visitor.page.getByTestId('portal-redirect').innerText()).toMatch(/Going to the login page in \d seconds?/);
    await shot(visitor.page, 'portal-gone-phone-light.png');
    await visitor.page.waitForURL((u) => u.pathname === '/login', SLOW);
    expect(await visitor.page.getByTestId('portal-page').count()).toBe(0);
  });
});
