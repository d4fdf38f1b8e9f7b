import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { DeviceCertificate } from '../types';
import { CertificatesCard } from './certificates-card';

const issued = {
  serial: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  sn: 'TQS0100042',
  certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  key: '-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n',
  ca: '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n',
  createdAt: 1_790_000_000_000,
  notAfter: 2_105_000_000_000,
  revokedAt: null,
};

describe('CertificatesCard', () => {
  beforeEach(() => changeLanguage('en_US'));
  afterEach(() => vi.unstubAllGlobals());

  it('issues a certificate, offers its key once for download, and revokes it', async () => {
    let list: DeviceCertificate[] = [];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'POST' && url === '/apis/poi/7/certificate') {
        list = [{ serial: issued.serial, createdAt: issued.createdAt, notAfter: issued.notAfter, revokedAt: null }];
        return jsonResponse({ code: 0, message: '', data: issued });
      }
      if (init?.method === 'DELETE' && url === `/apis/poi/7/certificate/${issued.serial}`) {
        list = list.map((c) => ({ ...c, revokedAt: 1_790_000_100_000 }));
        return jsonResponse({ code: 0, message: '', data: {} });
      }
      return jsonResponse({ code: 0, message: '', data: { list } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (saved.push(b.type), 'blob:x'), revokeObjectURL: () => {} }));
    const user = userEvent.setup();
    renderWithProviders(<CertificatesCard deviceId={7} />);

    expect(await screen.findByText('No certificates yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Issue certificate' }));
    const dialog = await screen.findByTestId('poi-certificate-issued');
    expect(within(dialog).getByText(/shown only this once/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Key (TQS0100042.key)' }));
    expect(saved).toEqual(['application/x-pem-file']);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    const card = screen.getByTestId('poi-certificates');
    expect(await within(card).findByText('a1b2c3d4e5f60718')).toBeInTheDocument();
    expect(within(card).getByText('Valid')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Revoke' }));
    // The confirmation's own Revoke button, after the card's.
    await screen.findByText('Revoke this certificate?');
    const buttons = screen.getAllByRole('button', { name: 'Revoke' });
    await user.click(buttons[buttons.length - 1]);
    await waitFor(() => expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'DELETE')).toBe(true));
    expect(await within(card).findByText(/^Revoked/)).toBeInTheDocument();
  });
});
