import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { ProfileForm } from './profile-page';

const profile = { name: 'Plot 7 probe', location: 'North field', lng: 116.2, lat: 37.4, altitude: 35, installTime: 1_700_000_000_000 };

describe('ProfileForm (phone)', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('refuses an empty or too long name, shows the server’s reason at the name, then saves the whole profile', async () => {
    let refuse = true;
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method !== 'PUT') return jsonResponse({ code: 0, message: '', data: profile });
      if (refuse) {
        refuse = false;
        return jsonResponse({ code: 1400, message: 'The name contains a character that is not allowed', data: null, error: { key: 'text.badChar', field: 'name' } }, 400);
      }
      return jsonResponse({ code: 0, message: '', data: JSON.parse(String(init.body)) });
    });
    vi.stubGlobal('fetch', fetchMock);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ProfileForm deviceId={5} profile={profile} onSaved={onSaved} />, { mobile: true });

    const name = screen.getByPlaceholderText('1–16 characters');
    expect(name).toHaveValue('Plot 7 probe');
    expect(screen.getByText('12/16')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });

    await user.clear(name);
    await user.click(save);
    expect(await screen.findByText('Name cannot be empty')).toBeInTheDocument();

    await user.type(name, 'East gate soil moisture probe');
    await user.click(save);
    expect(await screen.findByText('Name must be at most 16 characters')).toBeInTheDocument();
    expect(screen.getByText('29/16')).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'East gate');
    await user.click(save);
    const reason = await screen.findByText('The name contains a character that is not allowed');
    expect(reason.closest('.adm-form-item')).toContainElement(name);
    expect(onSaved).not.toHaveBeenCalled();

    await user.clear(name);
    await user.type(name, '  East gate probe ');
    await user.click(save);
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(String(puts[1][0])).toBe('/apis/poi/5/profile');
    expect(JSON.parse(String(puts[1][1]?.body))).toEqual({ ...profile, name: 'East gate probe' });
  });
});
