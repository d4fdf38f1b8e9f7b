import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { AddressDialog } from './address-dialog';
import { BindingsPanel } from './bindings-panel';

const profile = {
  accountNumber: 'grower77',
  name: 'Li Na',
  phone: '',
  mail: '',
  wechatBound: false,
  registeredAt: 1_700_000_000_000,
  lastLoginAt: null,
  loginMethods: ['password'],
  timezone: 'Asia/Shanghai',
};

const ok = (data: unknown) => jsonResponse({ code: 0, message: '', data });

describe('AddressDialog', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('checks the address before asking for a code, then binds with the code and the ticket', async () => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const url = String(input);
        calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        if (url.includes('/bindings/email/code')) return ok({ ticket: 'T1', address: 'l***@farm.test', expiresIn: 600, resendIn: 60 });
        return ok({ ...profile, mail: 'li.na@farm.test' });
      }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<AddressDialog channel="email" mode="bind" profile={profile} onClose={onClose} />);

    await user.type(screen.getByPlaceholderText('e.g. name@example.com'), 'li.na@farm');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByPlaceholderText('e.g. name@example.com'), '.test');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByText('A code was sent to l***@farm.test; it is valid for 10 minutes')).toBeInTheDocument();
    expect(calls[0].url).toContain('/apis/account/bindings/email/code?address=li.na%40farm.test');
    expect(screen.getByRole('button', { name: /Again in \d+ s/ })).toBeDisabled();

    await user.type(screen.getByPlaceholderText('6 digits'), '12345');
    await user.click(screen.getByRole('button', { name: 'Bind' }));
    expect(await screen.findByText('The code is 6 digits')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('6 digits'), '6');
    await user.click(screen.getByRole('button', { name: 'Bind' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[1]).toMatchObject({ method: 'POST', body: { channel: 'email', code: '123456', ticket: 'T1' } });
    expect(calls[1].url).toContain('/apis/account/bindings');
  });

  it('shows the server refusal of a wrong code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        if (String(input).includes('/authorize/ticket')) return ok({ ticket: 'T2', address: 'l***@farm.test', expiresIn: 600, resendIn: 60 });
        return jsonResponse(
          { code: 1400, message: 'Wrong verification code, 4 tries left', data: null, error: { key: 'verify.code.wrong', field: 'code' } },
          400,
        );
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<AddressDialog channel="email" mode="unbind" profile={{ ...profile, mail: 'li.na@farm.test' }} onClose={vi.fn()} />);
    expect(screen.getByText(/A code will be sent to li\.na@farm\.test/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    await screen.findByText(/A code was sent to/);
    await user.type(screen.getByPlaceholderText('6 digits'), '000000');
    await user.click(screen.getByRole('button', { name: 'Unbind' }));
    expect(await screen.findByText('Wrong verification code, 4 tries left')).toBeInTheDocument();
  });
});

describe('BindingsPanel', () => {
  beforeEach(() => changeLanguage('zh_TW'));

  it('offers to bind what is missing and to change or unbind what is bound', () => {
    renderWithProviders(<BindingsPanel profile={{ ...profile, mail: 'li.na@farm.test', wechatBound: true }} />);
    const email = screen.getByTestId('binding-email');
    expect(email).toHaveTextContent('li.na@farm.test');
    expect(email).toHaveTextContent('已綁定');
    expect(email.querySelectorAll('button')).toHaveLength(2);
    expect(screen.getByTestId('binding-mobile')).toHaveTextContent('未綁定');
    // A linked WeChat is unlinked first, then linked again: no "change".
    expect(screen.getByTestId('binding-wechat').querySelectorAll('button')).toHaveLength(1);
  });
});
