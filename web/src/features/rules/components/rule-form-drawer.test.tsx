import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { Rule } from '../types';
import { RuleFormDrawer } from './rule-form-drawer';

const stored: Rule = {
  id: 7,
  name: 'East frost',
  enabled: false,
  typeId: 5,
  typeName: 'Automatic weather station',
  deviceIds: [11, 12],
  level: 'alarm',
  expressions: [
    { expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0 },
    { expressionId: 2, nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'in', threshold: 10, threshold2: 30, windowMinutes: 1440 },
  ],
  notify: ['email', 'wechat'],
  silentHours: 48,
  description: 'Cover the seedlings.',
  template: 'frost',
  createTime: 1_700_000_000_000,
  updateTime: 1_700_000_000_000,
};

const answers: Record<string, unknown> = {
  '/apis/rule/types': [{ typeId: 5, typeName: 'Automatic weather station', count: 2 }],
  '/apis/rule/devices': [
    { id: 11, sn: 'TQS0100011', name: 'North field', typeId: 5 },
    { id: 12, sn: 'TQS0100012', name: 'South field', typeId: 5 },
  ],
  '/apis/rule/params': [
    { id: 'airTemp', name: 'Air temperature', unit: '°C', precision: 1, nodes: [] },
    { id: 'rainfall', name: 'Rainfall', unit: 'mm', precision: 1, nodes: [] },
  ],
  '/apis/rule/templates': [],
  '/apis/rule/7': stored,
};

/** Answers the rule API from `answers`, echoing writes back; records every call. */
function stubApi() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: `${url.pathname}${url.search}`, body });
    if (method !== 'GET') return jsonResponse({ code: 0, message: '', data: { ...stored, ...(body as object) } });
    return jsonResponse({ code: 0, message: '', data: answers[url.pathname] ?? null });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

// The whole antd drawer renders in jsdom: slow on a busy machine.
describe('RuleFormDrawer', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows a method with nothing bound as not available, with the way to bind it', async () => {
    stubApi();
    renderWithProviders(<RuleFormDrawer target="new" onClose={vi.fn()} bound={{ email: true, wechat: false }} />);
    const wechat = await screen.findByTestId('notify-unbound-wechat');
    expect(wechat).toHaveTextContent('WeChat (not bound, bind it)');
    expect(within(wechat).getByRole('link', { name: 'bind it' })).toHaveAttribute('href', '/console/account');
    expect(screen.getByRole('checkbox', { name: /WeChat/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'E-mail' })).toBeEnabled();
    expect(screen.queryByTestId('notify-unbound-email')).not.toBeInTheDocument();
  });

  it('saves nothing from an empty form and says what is missing, in the SPEC words', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    renderWithProviders(<RuleFormDrawer target="new" onClose={vi.fn()} />);

    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please add rule expression...')).toBeInTheDocument();
    expect(screen.getByText('Please choose a device type')).toBeInTheDocument();
    expect(screen.getByText('Please enter the rule name')).toBeInTheDocument();
    expect(screen.getByText('Select at least one device!')).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('edits a stored rule and sends the whole rule back with PUT', async () => {
    const calls = stubApi();
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<RuleFormDrawer target={7} onClose={onClose} />);

    const name = await screen.findByDisplayValue('East frost');
    expect(screen.getByText('Condition 2')).toBeInTheDocument();
    // The time window of the second condition shows under its open advanced options.
    const second = screen.getByTestId('expression-1');
    expect(within(second).getByText('24 hours')).toBeInTheDocument();

    await user.clear(name);
    // The input stops at 15 characters, as SPEC §5 limits the name.
    await user.type(name, 'East orchard frost risk');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe('/apis/rule/7');
    expect(put?.body).toEqual({
      id: 7,
      name: 'East orchard fr',
      enabled: false,
      typeId: 5,
      deviceIds: [11, 12],
      level: 'alarm',
      expressions: stored.expressions,
      notify: ['email', 'wechat'],
      silentHours: 48,
      description: 'Cover the seedlings.',
      template: 'frost',
    });
  });

  it('shows a refusal naming a field under that field', async () => {
    const calls = stubApi();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        calls.push({ method: init?.method ?? 'GET', path: url.pathname, body: undefined });
        if (init?.method === 'PUT') {
          return jsonResponse(
            { code: 1400, message: 'A selected device does not exist', data: null, error: { key: 'rule.devices.unknown', field: 'deviceIds' } },
            400,
          );
        }
        return jsonResponse({ code: 0, message: '', data: answers[url.pathname] ?? null });
      }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<RuleFormDrawer target={7} onClose={onClose} />);

    await screen.findByDisplayValue('East frost');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A selected device does not exist')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
