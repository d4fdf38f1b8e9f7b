import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import { callsTo, refusal, serve } from '@/testing/serve';
import type { ShareLink } from '../types';
import { ShareDialog } from './share-dialog';

const devices = [
  { poiId: 13, name: 'North field station', sn: 'DM01000013' },
  { poiId: 14, name: 'Orchard probe', sn: 'DM01000014' },
];

function link(overrides: Partial<ShareLink> = {}): ShareLink {
  return {
    id: 'c0ffee',
    kind: 'grant',
    link: 'http://fieldwatch.test/apps/authoried/grant?credential=c0ffee',
    expireAt: new Date(2026, 10, 23, 15, 42).getTime(),
    purview: { rename: false, settings: false, export: true },
    devices: [{ poiId: 13, name: 'North field station', sn: 'DM01000013', typeName: 'Automatic weather station' }],
    ...overrides,
  };
}

function renderDialog(mode?: 'grant' | 'transfer', list = devices) {
  return renderWithProviders(<ShareDialog open devices={list} mode={mode} onClose={() => {}} />);
}

/** The Clipboard API of a secure page (http://localhost, https); elsewhere the copy command is used. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('isSecureContext', true);
  const clipboard = { writeText: vi.fn(writeText) };
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
  return clipboard;
}

describe('ShareDialog', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('asks for at least one device before calling the server', async () => {
    const fetchMock = serve({});
    const user = userEvent.setup();
    renderDialog('grant', [devices[0]]);

    await user.click(screen.getByRole('button', { name: 'Remove North field station' }));
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await screen.findByText('Please select at least one device')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the remaining devices and the chosen rights, then shows the link, its expiry and a QR code', async () => {
    const fetchMock = serve({ 'PUT /apis/grant/credential': () => link() });
    const user = userEvent.setup();
    renderDialog();

    await user.click(screen.getByRole('button', { name: 'Remove Orchard probe' }));
    await user.click(screen.getByRole('checkbox', { name: /Export data/ }));
    await user.click(screen.getByRole('button', { name: 'Create link' }));

    expect(await screen.findByTestId('share-link')).toHaveValue('http://fieldwatch.test/apps/authoried/grant?credential=c0ffee');
    expect(callsTo(fetchMock, 'PUT', '/apis/grant/credential').map((call) => call.body)).toEqual([
      { poiIds: [13], purview: { rename: false, settings: false, export: true } },
    ]);
    expect(screen.getByTestId('share-expiry')).toHaveTextContent('Valid for 30 minutes, until 15:42; it can be used once');
    const ready = screen.getByTestId('share-link-ready');
    expect(ready.querySelector('.ant-qrcode svg')).not.toBeNull();
    expect(within(ready).getByText('Export data')).toBeInTheDocument();
  });

  it('copies the link, or says how to fix a refused clipboard', async () => {
    serve({ 'PUT /apis/grant/credential': () => link() });
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByTestId('share-link');

    const clipboard = stubClipboard(() => Promise.resolve());
    await user.click(screen.getByRole('button', { name: /Copy/ }));
    expect(clipboard.writeText).toHaveBeenCalledWith('http://fieldwatch.test/apps/authoried/grant?credential=c0ffee');
    expect(await screen.findByText('Link copied')).toBeInTheDocument();

    stubClipboard(() => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    await user.click(screen.getByRole('button', { name: /Copy/ }));
    expect(
      await screen.findByText('Copy operation failed, please try again or check if the browser has been authorized to access the clipboard'),
    ).toBeInTheDocument();
  });

  it('warns what a transfer does and asks for a transfer link without rights', async () => {
    const fetchMock = serve({ 'PUT /apis/transfer/credential': () => link({ kind: 'transfer' }) });
    const user = userEvent.setup();
    renderDialog('transfer');

    expect(screen.getByText('A transfer gives the ownership of the devices away')).toBeInTheDocument();
    expect(screen.getByText('Tags are not transferred.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create transfer link' }));

    expect(await screen.findByText('The transfer link is ready')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/apis/transfer/credential').map((call) => call.body)).toEqual([{ poiIds: [13, 14] }]);
  });

  it("shows the server's refusal under the form", async () => {
    serve({ 'PUT /apis/grant/credential': () => refusal(1403, 'No permission to modify!', 403) });
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No permission to modify!'));
  });
});
