import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import { callsTo, serve } from '@/testing/serve';
import { ShareSheet } from './share-sheet';

const LINK = 'https://farm.test/apps/authoried/grant?credential=c0ffee';

function serveSharing() {
  return serve({
    'GET /apis/account/session': () => ({ accountNumber: 'demo01', name: 'Demo farm', timezone: 'Asia/Shanghai' }),
    'GET /apis/devices': () => ({
      list: [
        { id: 11, poiId: 11, name: 'North station', sn: 'DM05000009', typeName: 'Weather station' },
        { id: 12, poiId: 12, name: 'Probe 2', sn: 'DM07000002', typeName: 'Soil probe' },
      ],
      total: 2,
    }),
    'PUT /apis/grant/credential': () => ({
      id: 'c0ffee',
      kind: 'grant',
      link: LINK,
      expireAt: Date.UTC(2026, 10, 26, 3, 30),
      purview: { rename: false, settings: false, export: true },
      devices: [{ poiId: 11, name: 'North station', sn: 'DM05000009', typeName: 'Weather station' }],
    }),
  });
}

async function makeLink() {
  const user = userEvent.setup();
  const fetchMock = serveSharing();
  renderWithProviders(<ShareSheet visible onClose={() => undefined} />, { mobile: true });
  await user.click(await screen.findByText('North station'));
  await user.click(screen.getByText('Export data'));
  await user.click(screen.getByRole('button', { name: /Create link · 1 device chosen/ }));
  expect(await screen.findByTestId('share-link')).toHaveTextContent(LINK);
  return { user, fetchMock };
}

/** user-event puts its own clipboard on navigator; this one replaces it, after setup. */
function useClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('ShareSheet', () => {
  beforeEach(() => {
    changeLanguage('en_US');
    // The sheet's drag gesture captures the pointer, which jsdom lacks.
    Element.prototype.setPointerCapture ??= () => undefined;
    Element.prototype.releasePointerCapture ??= () => undefined;
  });

  it('makes a grant link for the chosen devices with the chosen rights', async () => {
    const { fetchMock } = await makeLink();
    expect(callsTo(fetchMock, 'PUT', '/apis/grant/credential').map((call) => call.body)).toEqual([
      { poiIds: [11], purview: { rename: false, settings: false, export: true } },
    ]);
    expect(callsTo(fetchMock, 'GET', '/apis/devices')[0].url.searchParams.get('belong')).toBe('mine');
    expect(screen.getByTestId('share-link-ready')).toHaveTextContent(/Valid for 30 minutes, until \d\d:\d\d/);
  });

  it('copies the link and says so in a dialog titled Hint', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    const { user } = await makeLink();
    useClipboard(writeText);
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    const message = await screen.findByText('Copy success');
    expect(message.closest('.adm-dialog')!.querySelector('.adm-dialog-title')).toHaveTextContent('Hint');
    expect(writeText).toHaveBeenCalledWith(LINK);
  });

  it('says how to copy by hand when the browser refuses', async () => {
    const { user } = await makeLink();
    // The Clipboard API refuses, and jsdom has no copy command to fall back on.
    useClipboard(async () => Promise.reject(new Error('denied')));
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    const message = await screen.findByText('Copy failed, please press and hold the link to copy');
    expect(message.closest('.adm-dialog')!.querySelector('.adm-dialog-title')).toHaveTextContent('Hint');
  });
});
