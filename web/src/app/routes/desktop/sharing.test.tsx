import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { callsTo, serve } from '@/testing/serve';
import type { GrantedDevice, GrantedUser, Purview, SharedDevice } from '@/features/sharing/types';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import SharingRoute from './sharing';

const exportOnly: Purview = { rename: false, settings: false, export: true };
const station = { poiId: 13, hashId: 'h13', page: 'tianqi', name: 'North field station', sn: 'DM01000013', typeName: 'Automatic weather station' };

const users: GrantedUser[] = [
  { uid: 7, name: 'Li Wei', accountNumber: 'grower02', devices: [{ ...station, purview: exportOnly, grantTime: 1_763_900_000_000 }] },
];
const grantedDevices: GrantedDevice[] = [
  { ...station, users: [{ uid: 7, name: 'Li Wei', accountNumber: 'grower02', purview: exportOnly, grantTime: 1_763_900_000_000 }] },
];
const shared: SharedDevice[] = [
  {
    poiId: 21,
    hashId: 'h21',
    page: 'moisture',
    name: 'Neighbour probe',
    sn: 'DM01000021',
    typeName: '3-depth soil moisture probe',
    owner: { uid: 9, name: 'Zhang farm' },
    purview: { rename: true, settings: false, export: false },
    grantTime: 1_763_900_000_000,
  },
];

const page = <T,>(list: T[]) => () => ({ list, total: list.length });

function renderPage(path = '/console/authorization') {
  return renderRoutes([{ path: '/console/authorization', Component: SharingRoute }], { path });
}

/** Confirms the open Popconfirm with its OK button. */
async function confirm(user: ReturnType<typeof userEvent.setup>, name: string) {
  const buttons = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.ant-popover:not(.ant-popover-hidden) .ant-popconfirm-buttons');
    if (!found) throw new Error('no confirmation open');
    return found;
  });
  await user.click(within(buttons).getByText(name).closest('button') as HTMLElement);
}

describe('sharing page', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('lists the users I share with, edits one right and revokes one device for one user', async () => {
    const fetchMock = serve({
      'GET /apis/granted/users': page(users),
      'PUT /apis/poi/modify/permissions': () => ({ uid: 7, name: 'Li Wei', accountNumber: 'grower02', purview: { ...exportOnly, settings: true }, grantTime: 0 }),
      'DELETE /apis/poi/13/authorized': () => null,
    });
    const user = userEvent.setup();
    renderPage();

    const card = await screen.findByTestId('share-user');
    expect(within(card).getByText('Li Wei')).toBeInTheDocument();
    expect(within(card).getByText('North field station').closest('a')).toHaveAttribute('href', '/apps/poi/tianqi/h13/13');
    expect(within(card).getByLabelText(/Export data right/)).toBeChecked();

    await user.click(within(card).getByLabelText(/Edit settings right/));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/apis/poi/modify/permissions')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PUT', '/apis/poi/modify/permissions')[0].body).toEqual({
      poiId: 13,
      uid: 7,
      purview: { rename: false, settings: true, export: true },
    });

    await user.click(within(card).getByLabelText("Revoke Li Wei's access to North field station"));
    await confirm(user, 'Revoke');
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/apis/poi/13/authorized')).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', '/apis/poi/13/authorized')[0].url.searchParams.get('uid')).toBe('7');
  });

  it('revokes everything shared with a user', async () => {
    const fetchMock = serve({ 'GET /apis/granted/users': page(users), 'DELETE /apis/granted/users/7': () => null });
    const user = userEvent.setup();
    renderPage();

    const card = await screen.findByTestId('share-user');
    await user.click(within(card).getByText('Revoke all'));
    await confirm(user, 'Revoke all');
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/apis/granted/users/7')).toHaveLength(1));
  });

  it('tells an owner who shares nothing where sharing starts', async () => {
    serve({ 'GET /apis/granted/users': page([]) });
    renderPage();
    expect(await screen.findByText(/Share a device from the device list/)).toBeInTheDocument();
    expect(screen.getByText('Go to the device list').closest('a')).toHaveAttribute('href', '/apps/devices');
  });

  it('stops sharing a device with everyone from the devices tab', async () => {
    const fetchMock = serve({ 'GET /apis/granted/devices': page(grantedDevices), 'DELETE /apis/granted/devices/13': () => null });
    const user = userEvent.setup();
    renderPage('/console/authorization?tab=devices');

    expect(await screen.findByText('grower02')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Stop sharing North field station'));
    await confirm(user, 'Revoke all');
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/apis/granted/devices/13')).toHaveLength(1));
  });

  it('shows who shares a device with me and gives it back', async () => {
    const fetchMock = serve({ 'GET /apis/authorized/devices': page(shared), 'DELETE /apis/authorized/devices/21': () => null });
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByText('Shared with me'));
    expect(await screen.findByText('Zhang farm')).toBeInTheDocument();
    expect(screen.getByText('Edit name')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Give back Neighbour probe'));
    await confirm(user, 'Give back');
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/apis/authorized/devices/21')).toHaveLength(1));
  });
});
