import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { MobileDeviceState } from '../list-state';
import { DeviceFilterBar } from './device-filter-bar';

// The drop-down's mask listens for drags (use-gesture), which capture the pointer; jsdom cannot.
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;

function Harness({ onChange }: { onChange: (filters: Partial<MobileDeviceState>) => void }) {
  const [state, setState] = useState<MobileDeviceState>({ view: 'list', nameOrSn: '' });
  return (
    <DeviceFilterBar
      state={state}
      onChange={(filters) => {
        onChange(filters);
        setState((current) => ({ ...current, ...filters }));
      }}
    />
  );
}

function serveTags() {
  vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ code: 0, message: '', data: [{ tagId: 3, tag: 'Orchard' }] })));
}

describe('DeviceFilterBar', () => {
  it('searches once typing pauses, trimmed, and at once on Enter', async () => {
    serveTags();
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<Harness onChange={onChange} />, { mobile: true });

    const box = screen.getByPlaceholderText('设备名称或 SN 后 5 位');
    await user.type(box, ' 12345 ');
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ nameOrSn: '12345' }));
    expect(onChange).toHaveBeenCalledTimes(1);

    await user.clear(box);
    await user.type(box, 'East{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ nameOrSn: 'East' });
  });

  it('picks a status, a type and a tag from the drop-downs', async () => {
    serveTags();
    const onChange = vi.fn();
    // The drop-down's popup springs open; jsdom never finishes the animation that enables pointer events.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    renderWithProviders(<Harness onChange={onChange} />, { mobile: true });

    await user.click(screen.getByText('全部状态'));
    await user.click(await screen.findByText('离线'));
    expect(onChange).toHaveBeenLastCalledWith({ status: 'offline' });
    await waitFor(() => expect(screen.getByTestId('filter-status')).toHaveTextContent('离线'));

    await user.click(screen.getByText('全部类型'));
    await user.click(await screen.findByText('自动气象站'));
    expect(onChange).toHaveBeenLastCalledWith({ typeId: 5 });

    await user.click(screen.getByText('全部标签'));
    await user.click(await screen.findByText('Orchard'));
    expect(onChange).toHaveBeenLastCalledWith({ tagId: 3 });
    await waitFor(() => expect(screen.getByTestId('filter-tag')).toHaveTextContent('Orchard'));

    // "All" again clears the status.
    await user.click(screen.getByTestId('filter-status'));
    await user.click((await screen.findAllByText('全部状态')).at(-1)!);
    expect(onChange).toHaveBeenLastCalledWith({ status: undefined });
  });
});
