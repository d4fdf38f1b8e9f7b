import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '@/lib/i18n';
import { BigFigure, DepthList, Tile } from './parts';

describe('phone figures', () => {
  it('shows a value with its unit, and no unit beside a missing value', () => {
    const { rerender } = render(<BigFigure label="Level" value="1.25" unit="m" testId="f" />);
    expect(screen.getByTestId('f')).toHaveTextContent('Level1.25m');
    rerender(<BigFigure label="Level" value="--" unit="m" testId="f" />);
    expect(screen.getByTestId('f')).toHaveTextContent(/^Level--$/);
    render(<Tile label="Flow" value="--" unit="m³/h" testId="t" />);
    expect(screen.getByTestId('t')).toHaveTextContent(/^Flow--$/);
  });

  it('draws one row a depth with its bar, value and second figure', () => {
    render(
      <DepthList
        rows={[
          { depth: 10, value: 20, text: '20', share: 0.5, time: 1 },
          { depth: 20, value: null, text: '--', share: 0, time: null },
        ]}
        unit="%"
        color="#000"
        second={{ rows: [{ depth: 10, value: 8.5, text: '8.5', share: 0, time: 1 }], unit: '°C', label: 'Soil temperature' }}
      />,
    );
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('20%8.5°C');
    expect((rows[0].querySelector('.fw-mpoi-depth__bar span') as HTMLElement).style.width).toBe('50%');
    expect(rows[1]).toHaveTextContent(/--\s*--$/);
  });
});
