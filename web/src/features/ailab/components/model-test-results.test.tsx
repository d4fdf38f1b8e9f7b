import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import type { Model, ModelTest } from '../types';
import { ModelTestResults } from './model-test-results';

const elements = [
  { name: 'Moth', unit: 'head', identifier: 'moth' },
  { name: 'Beetle', unit: 'head', identifier: 'beetle' },
];

const model: Model = {
  id: 7, name: 'Trap boxes', version: '2.0', kind: 'boxes', fileName: 'boxes.l5d', size: 1000, operators: ['MatMul'], createTime: 0, url: '/apis/ailab/models/7/file',
  manifest: {
    format: 1, name: 'Trap boxes', version: '2.0', description: '',
    input: { name: 'image', width: 320, height: 240, channels: 3, layout: 'NCHW', mean: [0, 0, 0], std: [1, 1, 1] },
    output: { name: 'boxes', kind: 'boxes' },
    elements,
  },
};

const test: ModelTest = {
  modelId: 7,
  kind: 'boxes',
  millis: 42.5,
  outputs: [
    {
      sampleId: 3, width: 640, height: 480, kind: 'boxes', raw: [], millis: 20.25,
      values: [{ ...elements[0], value: 2 }, { ...elements[1], value: 0 }],
      boxes: [
        { element: 'moth', x: 64, y: 48, w: 128, h: 96, score: 0.9 },
        { element: 'moth', x: 600, y: 400, w: 100, h: 100, score: 0.7 },
      ],
    },
    { sampleId: 4, width: 320, height: 240, kind: 'boxes', raw: [], millis: 19, values: [{ ...elements[0], value: 0 }, { ...elements[1], value: 1 }], boxes: [{ element: 'beetle', x: 0, y: 0, w: 32, h: 24, score: 0.8 }] },
  ],
};

describe('ModelTestResults', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('draws each box where the model found it, in percentages of the picture, cut at its edge', () => {
    renderWithProviders(<ModelTestResults model={model} test={test} samples={new Map()} />);
    const [first, second] = screen.getAllByTestId('test-result');
    const boxes = within(first).getAllByTestId('test-box');
    expect(boxes).toHaveLength(2);
    expect(boxes[0].style.left).toBe('10%');
    expect(boxes[0].style.top).toBe('10%');
    expect(boxes[0].style.width).toBe('20%');
    expect(boxes[0].style.height).toBe('20%');
    // 600 + 100 runs past the 640-pixel picture: drawn to its edge.
    expect(boxes[1].style.width).toBe('6.25%');
    expect(boxes[1].style.height).toBe('16.667%');
    expect(boxes[0]).toHaveTextContent('Moth');
    expect(within(second).getByTestId('test-box')).toHaveTextContent('Beetle');
    expect(within(first).getByRole('img')).toHaveAttribute('alt', 'Sample #3 with 2 boxes found');
  });

  it('shows each sample’s values and time, the whole test’s time and each element’s total', () => {
    renderWithProviders(<ModelTestResults model={model} test={test} samples={new Map()} />);
    const [first] = screen.getAllByTestId('test-result');
    expect(within(first).getAllByTestId('test-value').map((value) => value.textContent)).toEqual(['2 head', '0 head']);
    expect(within(first).getByTestId('test-millis')).toHaveTextContent('Time taken: 20.3 ms');
    expect(screen.getByTestId('test-total-time')).toHaveTextContent('2 samples, time taken42.5 ms');
    expect(screen.getByText('Moth in all').closest('.ant-statistic')).toHaveTextContent('2head');
    expect(screen.getByText('Beetle in all').closest('.ant-statistic')).toHaveTextContent('1head');
  });
});
