import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import { insideWeChat, wechatStub } from '@/testing/wechat-stub';
import { AddDeviceButton } from './add-device-button';

// Outside WeChat unless a test says otherwise (testing/wechat-stub.ts, set up for every file).

// jsdom lacks pointer capture, which the popup's drag-to-close gesture asks for.
Element.prototype.setPointerCapture ??= () => undefined;

function Here() {
  const location = useLocation();
  return <div data-testid="here">{`${location.pathname}${location.search}`}</div>;
}

function renderButton() {
  return renderRoutes(
    [
      { path: '/', element: <AddDeviceButton /> },
      { path: '/apps/info', Component: Here },
    ],
    { mobile: true },
  );
}

describe('phone add-device button', () => {
  beforeEach(async () => {
    await changeLanguage('en_US');
  });

  it('in WeChat, scans the label and opens its page', async () => {
    insideWeChat('https://farm.example.com/apps/info?code=fw%3AZS0000000901%3AABCD2345');
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Add device' }));
    expect(await screen.findByTestId('here')).toHaveTextContent(
      '/apps/info?code=https%3A%2F%2Ffarm.example.com%2Fapps%2Finfo%3Fcode%3Dfw%253AZS0000000901%253AABCD2345',
    );
    expect(wechatStub.scans).toBe(1);
  });

  it('outside WeChat, or when the camera reads nothing, asks for the typed label', async () => {
    insideWeChat();
    // antd-mobile's popup lets clicks through only once its opening animation ends.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Add device' }));
    expect(await screen.findByText('Add a device')).toBeInTheDocument();
    expect(wechatStub.scans).toBe(1);

    await user.type(screen.getByPlaceholderText('e.g. ZS0000000901, or fw:ZS0000000901:ABCD2345'), 'ZS0000000901');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByText('Please enter the check code printed on the label')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('8 characters under the QR code'), 'abcd2345');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByTestId('here')).toHaveTextContent('/apps/info?code=ZS0000000901%20ABCD2345');
  });
});
