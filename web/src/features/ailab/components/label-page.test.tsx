import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderRoutes } from '@/testing/render';
import type { Label, Sample } from '../types';
import { LabelPage } from './label-page';

function sample(id: number, labels: Label[] = []): Sample {
  return {
    id, deviceName: 'Trap east', sn: 'IBS0010001', sampleTime: 1_700_000_000_000, tag: '', duration: 0, location: '',
    contentType: 'image/jpeg', width: 320, height: 240, labels, createTime: 0, url: `/apis/ailab/samples/${id}/image`,
  };
}

const elements = [
  { id: 1, name: 'Moth', unit: 'head', identifier: 'moth' },
  { id: 2, name: 'Beetle', unit: 'head', identifier: 'beetle' },
];

/** Serves the calls the page makes; a PUT answers the sample with the labels sent. */
function serve(current: Sample) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'PUT') return jsonResponse({ code: 0, message: '', data: { ...current, ...JSON.parse(String(init.body)) } });
    if (url.startsWith('/apis/ailab/elements')) return jsonResponse({ code: 0, message: '', data: elements });
    if (url === '/apis/ailab/samples') return jsonResponse({ code: 0, message: '', data: [sample(1), current, sample(5)] });
    return jsonResponse({ code: 0, message: '', data: current });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The picture drawn at twice its size at the page's top left: screen = 2 × picture pixels. */
function placeCanvas() {
  const svg = screen.getByTestId('label-canvas') as unknown as SVGSVGElement;
  svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: 640, height: 480, right: 640, bottom: 480, x: 0, y: 0, toJSON: () => ({}) });
  (svg as unknown as { setPointerCapture: () => void }).setPointerCapture = () => undefined;
  return svg;
}

function pointer(svg: SVGSVGElement, type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number, y: number) {
  fireEvent[type](svg, { clientX: x, clientY: y, button: 0, pointerId: 1 });
}

function render(id: number) {
  return renderRoutes(
    [
      { path: '/apps/model-service/samples/:sampleId', element: <LabelPage sampleId={id} title="Label sample" /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { path: `/apps/model-service/samples/${id}` },
  );
}

describe('LabelPage', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('draws a box with the mouse and a point after keys pick the element and the mode, deletes with Delete and saves with Ctrl+S', async () => {
    const fetchMock = serve(sample(3));
    const user = userEvent.setup();
    render(3);
    await screen.findByRole('radio', { name: /Beetle/ });
    const svg = placeCanvas();

    // The first element is chosen at first; a box drawn from (20,20) to (120,100) on screen.
    await waitFor(() => expect(screen.getByRole('radio', { name: /Moth/ })).toHaveAttribute('aria-checked', 'true'));
    pointer(svg, 'pointerDown', 20, 20);
    pointer(svg, 'pointerMove', 80, 60);
    pointer(svg, 'pointerMove', 120, 100);
    pointer(svg, 'pointerUp', 120, 100);
    expect(await screen.findByText('box 10,10 50×40')).toBeInTheDocument();

    await user.keyboard('2p');
    expect(screen.getByRole('radio', { name: /Beetle/ })).toHaveAttribute('aria-checked', 'true');
    pointer(svg, 'pointerDown', 400, 300);
    pointer(svg, 'pointerUp', 400, 300);
    expect(await screen.findByText('point 200,150')).toBeInTheDocument();

    // A third label, selected as it is drawn, goes again with Delete.
    pointer(svg, 'pointerDown', 600, 40);
    pointer(svg, 'pointerUp', 600, 40);
    expect(screen.getAllByTestId('label-item')).toHaveLength(3);
    await user.keyboard('{Delete}');
    expect(screen.getAllByTestId('label-item')).toHaveLength(2);

    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(String(put[0])).toBe('/apis/ailab/samples/3');
    expect(JSON.parse(String(put[1]?.body)).labels).toEqual([
      { element: 'moth', x: 10, y: 10, w: 50, h: 40 },
      { element: 'beetle', x: 200, y: 150, w: 0, h: 0 },
    ]);
  });

  it('moves a label dragged, and goes to the next sample with the right arrow, saving first', async () => {
    const fetchMock = serve(sample(3, [{ element: 'moth', x: 10, y: 10, w: 50, h: 40 }]));
    const user = userEvent.setup();
    const { router } = render(3);
    await screen.findByText('box 10,10 50×40');
    const svg = placeCanvas();

    pointer(svg, 'pointerDown', 40, 40);
    pointer(svg, 'pointerMove', 60, 70);
    pointer(svg, 'pointerUp', 60, 70);
    expect(await screen.findByText('box 20,25 50×40')).toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/model-service/samples/5'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]?.body)).labels).toEqual([{ element: 'moth', x: 20, y: 25, w: 50, h: 40 }]);
  });

  it('asks before leaving with unsaved labels, and stays when told to', async () => {
    serve(sample(3));
    const user = userEvent.setup();
    const { router } = render(3);
    await screen.findByRole('radio', { name: /Moth/ });
    const svg = placeCanvas();
    pointer(svg, 'pointerDown', 20, 20);
    pointer(svg, 'pointerMove', 120, 100);
    pointer(svg, 'pointerUp', 120, 100);
    await screen.findByText('box 10,10 50×40');

    await user.click(screen.getByRole('button', { name: 'Back to samples' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Leave without saving?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/apps/model-service/samples/3');

    await user.click(screen.getByRole('button', { name: 'Back to samples' }));
    // The cancelled dialog may still be closing: the last one is the new question.
    const asked = await screen.findAllByRole('dialog');
    await user.click(within(asked[asked.length - 1]).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/model-service/samples'));
  });

  it('lists the shortcuts when ? is pressed', async () => {
    serve(sample(3));
    const user = userEvent.setup();
    render(3);
    await screen.findByRole('radio', { name: /Moth/ });
    await user.keyboard('?');
    expect(await screen.findByText('Keyboard shortcuts', { selector: '.ant-popover-title' })).toBeInTheDocument();
    expect(screen.getByTestId('label-shortcuts')).toHaveTextContent('Delete the selected label');
  });
});
