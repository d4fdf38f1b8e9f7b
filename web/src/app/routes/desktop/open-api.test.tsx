import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { choices } from '@/features/integration/testing/fixtures';
import { callsTo, serve } from '@/testing/serve';
import type { OpenApp } from '@/features/integration/types';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import OpenApiRoute from './open-api';

const SECRET = 'oas_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const stored: OpenApp = {
  id: 4,
  name: 'GIS portal',
  appKey: 'ak_1234567890abcdef',
  pushUrl: '',
  range: 'all',
  deviceIds: [],
  published: true,
  createTime: 1_763_800_000_000,
};

const spec = {
  openapi: '3.1.0',
  info: { title: 'Fieldwatch open API', version: '1.0.0' },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-App-Key', description: 'The app key' } } },
  paths: {
    '/openapi/v1/devices/{sn}/latest': {
      get: {
        summary: 'The newest value of every parameter',
        parameters: [{ name: 'sn', in: 'path', required: true, description: 'Serial number', schema: { type: 'string' } }],
        responses: { '200': { description: 'The values' }, '404': { description: 'Not in range' } },
      },
    },
  },
};

function renderPage(path = '/console/api') {
  return renderRoutes([{ path: '/console/api', Component: OpenApiRoute }], { path });
}

describe('open API page', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('checks the form, creates an application and shows its secret once', async () => {
    const apps: OpenApp[] = [stored];
    const fetchMock = serve({
      'GET /apis/openapi/applications': () => ({ list: apps, total: apps.length }),
      'GET /apis/integration/channel/selector': () => choices,
      'POST /apis/openapi/application': (_url, init) => {
        const app = { ...stored, ...JSON.parse(String(init?.body)), id: 5, appKey: 'ak_new', published: false };
        apps.push(app);
        return { ...app, appSecret: SECRET };
      },
    });
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByText('GIS portal')).toBeInTheDocument();
    expect(screen.getByText('All my devices')).toBeInTheDocument();
    await user.click(screen.getByTestId('app-new'));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByTestId('app-save'));
    expect(await within(drawer).findByText('Please enter the application name')).toBeInTheDocument();

    await user.type(within(drawer).getByLabelText('Application name'), 'Irrigation controller');
    // The input stops at 20 characters, as SPEC §5 limits the name.
    expect(within(drawer).getByLabelText('Application name')).toHaveValue('Irrigation controlle');
    await user.type(within(drawer).getByLabelText('Push address (optional)'), 'not an address');
    await user.click(within(drawer).getByText('Only the devices I choose'));
    await user.click(within(drawer).getByTestId('app-save'));
    expect(await within(drawer).findByText('Please enter a valid http or https address')).toBeInTheDocument();
    expect(await within(drawer).findByText('Please select devices')).toBeInTheDocument();

    await user.clear(within(drawer).getByLabelText('Push address (optional)'));
    await user.type(within(drawer).getByLabelText('Push address (optional)'), 'https://gis.example.com/in');
    await user.click(await within(drawer).findByText('Orchard probe'));
    await user.click(within(drawer).getByTestId('app-save'));

    const box = await within(drawer).findByTestId('secret-box');
    expect(within(box).getByDisplayValue(SECRET)).toBeInTheDocument();
    expect(within(box).getByText('Copy this secret now: it will not be shown again')).toBeInTheDocument();
    expect(within(drawer).getByTestId('created-app-key')).toHaveTextContent('ak_new');
    expect(callsTo(fetchMock, 'POST', '/apis/openapi/application').map((c) => c.body)).toEqual([
      { name: 'Irrigation controlle', pushUrl: 'https://gis.example.com/in', range: 'devices', deviceIds: [21] },
    ]);

    // Once closed, the secret is gone for good: the list and the edit form never show it.
    await user.click(within(drawer).getByTestId('app-done'));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument());
    expect(await screen.findByText('Irrigation controlle')).toBeInTheDocument();
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it('publishes and deletes an application', async () => {
    const fetchMock = serve({
      'GET /apis/openapi/applications': () => ({ list: [stored], total: 1 }),
      'PUT /apis/openapi/application/4/publish': (_url, init) => ({ ...stored, ...JSON.parse(String(init?.body)) }),
      'DELETE /apis/openapi/application/4': () => null,
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByLabelText('Publish GIS portal'));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/apis/openapi/application/4/publish').map((c) => c.body)).toEqual([{ published: false }]));
    await user.click(screen.getByText('Delete').closest('button') as HTMLElement);
    const buttons = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-popover:not(.ant-popover-hidden) .ant-popconfirm-buttons');
      if (!found) throw new Error('no confirmation open');
      return found;
    });
    await user.click(within(buttons).getByText('Delete').closest('button') as HTMLElement);
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/apis/openapi/application/4')).toHaveLength(1));
  });

  it('renders the API reference from the OpenAPI document', async () => {
    serve({
      'GET /apis/openapi/applications': () => ({ list: [], total: 0 }),
      'GET /apis/openapi/spec.json': () => new Response(JSON.stringify(spec), { headers: { 'Content-Type': 'application/json' } }),
    });
    const user = userEvent.setup();
    renderPage('/console/api?tab=reference');
    const reference = await screen.findByTestId('api-reference');
    expect(within(reference).getByText('Fieldwatch open API')).toBeInTheDocument();
    expect(within(reference).getByText('X-App-Key')).toBeInTheDocument();
    expect(within(reference).getByText('GET')).toBeInTheDocument();
    await user.click(within(reference).getByText('/openapi/v1/devices/{sn}/latest'));
    expect(await within(reference).findByText('Serial number')).toBeInTheDocument();
    expect(within(reference).getByText('Not in range')).toBeInTheDocument();
  });
});
