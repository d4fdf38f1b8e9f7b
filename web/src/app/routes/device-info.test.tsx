import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import { callsTo, refusal, serve } from '@/testing/serve';
import DeviceInfoRoute from './device-info';

const free = { sn: 'ZS0000000901', typeId: 2, typeName: 'Zhishang soil moisture station', model: 'ZS006', holder: 'free', bound: false, mine: false, slave: false, page: 'zhi-shang' };
const code = 'fw:ZS0000000901:ABCD2345';

function Here() {
  const location = useLocation();
  return <div data-testid="here">{`${location.pathname}${location.search}`}</div>;
}

function renderPage(path: string) {
  return renderRoutes(
    [
      { path: '/apps/info', Component: DeviceInfoRoute },
      { path: '/apps/devices', Component: Here },
      { path: '/apps/poi/:kind/:hashId/:id', Component: Here },
    ],
    { path },
  );
}

describe('device label page', () => {
  beforeEach(async () => {
    await changeLanguage('en_US');
  });

  it('adds a free device under a name checked as the server checks it', async () => {
    const fetchMock = serve({
      'GET /apis/poi/scan': () => free,
      'PUT /apis/poi/scan/bind': () => ({ id: 31, hashId: 'ab12', page: 'zhi-shang', name: 'North probe', sn: free.sn }),
    });
    const user = userEvent.setup();
    renderPage(`/apps/info?code=${encodeURIComponent(code)}`);

    expect(await screen.findByText('This device has no owner yet. Give it a name to add it to your account.')).toBeInTheDocument();
    expect(screen.getByText('Zhishang soil moisture station · ZS006')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/apis/poi/scan')[0].url.searchParams.get('code')).toBe(code);

    await user.click(screen.getByRole('button', { name: 'Add to my account' }));
    expect(await screen.findByText('Name cannot be empty')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('e.g. North field probe'), 'x'.repeat(17));
    await user.click(screen.getByRole('button', { name: 'Add to my account' }));
    expect(await screen.findByText('Name must be at most 16 characters')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/apis/poi/scan/bind')).toHaveLength(0);

    await user.clear(screen.getByPlaceholderText('e.g. North field probe'));
    await user.type(screen.getByPlaceholderText('e.g. North field probe'), ' North probe ');
    await user.click(screen.getByRole('button', { name: 'Add to my account' }));
    expect(await screen.findByText('North probe is now in your account')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/apis/poi/scan/bind')[0].body).toEqual({ code, name: 'North probe' });

    await user.click(screen.getByRole('button', { name: 'Open device' }));
    expect(await screen.findByTestId('here')).toHaveTextContent('/apps/poi/zhi-shang/ab12/31');
  });

  it("shows the server's refusal of a device bound meanwhile", async () => {
    serve({
      'GET /apis/poi/scan': () => free,
      'PUT /apis/poi/scan/bind': () => refusal(1409, 'This device is already bound to an account', 409),
    });
    const user = userEvent.setup();
    renderPage(`/apps/info?code=${encodeURIComponent(code)}`);
    await user.type(await screen.findByPlaceholderText('e.g. North field probe'), 'North probe');
    await user.click(screen.getByRole('button', { name: 'Add to my account' }));
    expect(await screen.findByText('This device is already bound to an account')).toBeInTheDocument();
  });

  it("says a device is another account's without naming it", async () => {
    serve({ 'GET /apis/poi/scan': (url) => (url.searchParams.get('code') === code ? { ...free, holder: 'other', bound: true } : undefined) });
    renderPage(`/apps/info?code=${encodeURIComponent(code)}`);
    expect(await screen.findByText('This device belongs to another account')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to my account' })).not.toBeInTheDocument();
  });

  it('says when no device matches the code, and asks for another', async () => {
    serve({ 'GET /apis/poi/scan': () => refusal(1404, 'The resource does not exist', 404) });
    const user = userEvent.setup();
    renderPage('/apps/info?code=fw%3AZS0000000901%3AAAAAAAAA');
    expect(await screen.findByText('No device matches this code')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try another code' }));
    expect(await screen.findByLabelText('SN or label code')).toBeInTheDocument();
  });

  it("opens the caller's own device", async () => {
    serve({ 'GET /apis/poi/scan': () => ({ ...free, holder: 'mine', mine: true, bound: true, id: 7, hashId: 'cd34', name: 'Orchard probe' }) });
    const user = userEvent.setup();
    renderPage(`/apps/info?code=${encodeURIComponent(code)}`);
    expect(await screen.findByText('It is listed as Orchard probe.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open device' }));
    expect(await screen.findByTestId('here')).toHaveTextContent('/apps/poi/zhi-shang/cd34/7');
  });

  it('without a code, asks for the SN and check code and looks them up', async () => {
    serve({ 'GET /apis/poi/scan': () => free });
    const user = userEvent.setup();
    renderPage('/apps/info');
    await user.type(await screen.findByLabelText('SN or label code'), 'ZS0000000901');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByText('Please enter the check code printed on the label')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Check code'), 'abcd2345');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByText('Zhishang soil moisture station · ZS006')).toBeInTheDocument();
  });
});
