import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import { callsTo, serve } from '@/testing/serve';
import { channel, choices } from '../testing/fixtures';
import { ChannelEditor } from './channel-editor';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef';

// The whole antd form renders in jsdom: slow on a busy machine.
describe('ChannelEditor', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('saves nothing from an empty form and says what is missing, in the server\'s words', async () => {
    const fetchMock = serve({ 'GET /apis/integration/channel/selector': () => choices });
    const user = userEvent.setup();
    renderWithProviders(<ChannelEditor id={null} onDone={vi.fn()} />);

    await user.click(await screen.findByRole('button', { name: 'Create channel' }));
    expect(await screen.findByText('Please enter the channel name')).toBeInTheDocument();
    // Each field's rule answers on its own: wait for every message, not only the first.
    expect(await screen.findByText('Please enter the push address')).toBeInTheDocument();
    expect(await screen.findByText('Please select devices')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Push address'), 'localhost:3000');
    expect(await screen.findByText('Please enter a valid http or https address')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/apis/integration/channel/create')).toEqual([]);
  });

  it('creates a channel with the chosen devices and shows its secret once, with the warning', async () => {
    const fetchMock = serve({
      'GET /apis/integration/channel/selector': () => choices,
      'POST /apis/integration/channel/create': (_url, init) => ({
        ...channel,
        ...JSON.parse(String(init?.body)),
        id: 9,
        lastActivity: null,
        p50: null,
        p95: null,
        successRate: null,
        secret: SECRET,
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ChannelEditor id={null} onDone={vi.fn()} />);

    await user.type(await screen.findByLabelText('Channel name'), '  Farm ERP ');
    await user.type(screen.getByLabelText('Push address'), 'https://erp.example.com/in');
    const picker = screen.getByTestId('device-picker');
    // Search by SN, then pick the whole soil group.
    await user.type(within(picker).getByPlaceholderText('Search by name or SN'), 'TQS0100012');
    await user.click(await within(picker).findByText('South field station'));
    await user.clear(within(picker).getByPlaceholderText('Search by name or SN'));
    await user.click(within(within(picker).getByRole('group', { name: 'Soil' })).getAllByRole('checkbox')[0]);
    expect(within(picker).getByTestId('device-picker-count')).toHaveTextContent('2 devices selected');
    await user.click(screen.getByRole('button', { name: 'Create channel' }));

    const box = await screen.findByTestId('secret-box');
    expect(within(box).getByDisplayValue(SECRET)).toBeInTheDocument();
    expect(within(box).getByText('Copy this secret now: it will not be shown again')).toBeInTheDocument();
    expect(screen.getAllByDisplayValue(SECRET)).toHaveLength(1);
    const [create] = callsTo(fetchMock, 'POST', '/apis/integration/channel/create');
    expect(create.body).toEqual({ name: 'Farm ERP', url: 'https://erp.example.com/in', deviceIds: [12, 21] });
    // The form is gone: nothing left to submit twice.
    expect(screen.queryByRole('button', { name: 'Create channel' })).not.toBeInTheDocument();
  });

  it('shows a refusal naming a field under that field', async () => {
    serve({
      'GET /apis/integration/channel/selector': () => choices,
      'GET /apis/integration/channel/get': () => channel,
      'PUT /apis/integration/channel/update': () =>
        new Response(
          JSON.stringify({
            code: 1400,
            message: 'The push address 10.0.0.5 points into an internal network and is not allowed',
            data: null,
            error: { key: 'push.url.private', field: 'url' },
          }),
          { status: 400, headers: { 'Content-Type': 'application/json' } },
        ),
    });
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ChannelEditor id={3} onDone={onDone} />);

    await screen.findByDisplayValue('Farm ERP');
    expect(screen.getByTestId('device-picker-count')).toHaveTextContent('2 devices selected');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The push address 10.0.0.5 points into an internal network and is not allowed')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('resets the secret of a stored channel after confirmation and shows the new one once', async () => {
    const fetchMock = serve({
      'GET /apis/integration/channel/selector': () => choices,
      'GET /apis/integration/channel/get': () => channel,
      'POST /apis/integration/channel/secret': () => ({ secret: SECRET }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ChannelEditor id={3} onDone={vi.fn()} />);

    expect(await screen.findByDisplayValue('Farm ERP')).toBeInTheDocument();
    expect(screen.queryByTestId('secret-box')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('secret-reset'));
    const confirm = await screen.findByRole('button', { name: 'Reset' });
    await user.click(confirm);
    expect(await screen.findByDisplayValue(SECRET)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/apis/integration/channel/secret').map((c) => c.body)).toEqual([{ id: 3 }]);
  });

  it('says when the channel does not exist', async () => {
    serve({
      'GET /apis/integration/channel/get': () =>
        new Response(JSON.stringify({ code: 1404, message: 'The resource does not exist', data: null }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    renderWithProviders(<ChannelEditor id={77} onDone={vi.fn()} />);
    await waitFor(() => expect(screen.getByRole('alert')).toBeInTheDocument());
  });
});

