import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { LoginForm } from './login-form';

const profile = {
  accountNumber: 'demo01',
  name: 'Demo farm',
  phone: '',
  mail: '',
  wechatBound: false,
  registeredAt: 1_700_000_000_000,
  lastLoginAt: null,
  loginMethods: ['password'], timezone: 'Asia/Shanghai',
};

describe('LoginForm', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('explains what is wrong with the fields, in the chosen language', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your account number')).toBeInTheDocument();
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Account number'), 'ab-12');
    await user.type(screen.getByLabelText('Password'), '12345');
    expect(await screen.findByText('The account number must be at least 6 letters or digits')).toBeInTheDocument();
    expect(await screen.findByText('The password must be at least 6 characters')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server message under the form', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { code: 1401, message: 'Incorrect account number or password', data: null, error: { key: 'account.credentials.invalid' } },
          401,
        ),
      ),
    );
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    await user.type(screen.getByLabelText('Account number'), 'demo01');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect account number or password');
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('posts the credentials and hands over the profile', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      jsonResponse({ code: 0, message: '', data: profile }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    await user.type(screen.getByLabelText('Account number'), 'demo01');
    await user.type(screen.getByLabelText('Password'), 'demo123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith(profile));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/apis/account/login');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ accountNumber: 'demo01', password: 'demo123456' });
  });
});
