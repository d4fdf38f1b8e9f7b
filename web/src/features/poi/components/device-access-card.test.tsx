import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import { callsTo, serve } from '@/testing/serve';
import type { DeviceInfo } from '../types';
import { DeviceAccessCard } from './device-access-card';

const device = { id: 31, name: 'North probe', sn: 'ZS0000000901' } as DeviceInfo;
const credentials = (key: string) => ({
  sn: device.sn,
  username: device.sn,
  key,
  topic: 'devices/ZS0000000901/telemetry',
  statusTopic: 'devices/ZS0000000901/status',
  mqttHost: 'farm.example.com',
  mqttPort: 1883,
  ingestUrl: 'https://farm.example.com/ingest/v1/telemetry',
  labelCode: 'fw:ZS0000000901:ABCD2345',
  labelUrl: 'https://farm.example.com/apps/info?code=fw%3AZS0000000901%3AABCD2345',
});

function renderCard() {
  return renderRoutes([
    { path: '/', element: <DeviceAccessCard device={device} /> },
    { path: '/apps/devices', element: <div data-testid="device-list" /> },
  ]);
}

describe('device connection card', () => {
  beforeEach(async () => {
    await changeLanguage('en_US');
  });

  it('loads the credentials only when asked, and rotates the key after confirming', async () => {
    const fetchMock = serve({
      'GET /apis/poi/encryption': () => credentials('0'.repeat(32)),
      'POST /apis/poi/encryption/rotate': () => credentials('f'.repeat(32)),
    });
    const user = userEvent.setup();
    renderCard();
    expect(callsTo(fetchMock, 'GET', '/apis/poi/encryption')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /Show credentials/ }));
    expect(await screen.findByText('0'.repeat(32))).toBeInTheDocument();
    expect(screen.getByText('farm.example.com:1883')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Rotate key/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Give North probe a new key?');
    expect(callsTo(fetchMock, 'POST', '/apis/poi/encryption/rotate')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));
    expect(await screen.findByText('f'.repeat(32))).toBeInTheDocument();
    expect(screen.getByText('New key made. Enter it in the device now: the old key no longer works.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/apis/poi/encryption/rotate')[0].url.searchParams.get('id')).toBe('31');
  });

  it('removes the device after confirming, and goes to the device list', async () => {
    const fetchMock = serve({ 'DELETE /apis/poi/31/remove': () => null });
    const user = userEvent.setup();
    renderCard();
    await user.click(screen.getByRole('button', { name: /Remove device/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remove North probe from your account?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/apis/poi/31/remove')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /Remove device/ }));
    // The cancelled dialog may still be closing: the last one is the new question.
    const asked = await screen.findAllByRole('dialog');
    await user.click(within(asked[asked.length - 1]).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByTestId('device-list')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/apis/poi/31/remove')).toHaveLength(1);
  });
});
