import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { EditDeviceModal } from './edit-device-modal';

const profile = { name: 'Plot 7 probe', location: 'North field', lng: 116.2, lat: 37.4, altitude: 35, installTime: 1_700_000_000_000 };

describe('EditDeviceModal', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('refuses an empty name, then saves the whole profile with the new name', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
      jsonResponse({ code: 0, message: '', data: init?.method === 'PUT' ? JSON.parse(String(init.body)) : profile }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<EditDeviceModal deviceId={5} open onClose={onClose} />);

    const name = await screen.findByLabelText('Device name');
    await waitFor(() => expect(name).toHaveValue('Plot 7 probe'));
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name cannot be empty')).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'East gate soil moisture probe');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name must be at most 16 characters')).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, '  East gate probe ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(String(put[0])).toBe('/apis/poi/5/profile');
    // Everything else stays as it was: the API replaces the whole profile.
    expect(JSON.parse(String(put[1]?.body))).toEqual({ ...profile, name: 'East gate probe', installTime: expect.any(Number) });
  });
});
