import { Card } from 'antd';
import type { ReactNode } from 'react';

/** The figures a kind of device is read for first, above the full list of readings. */
export function SummaryCard({ title, extra, children, testId }: { title: ReactNode; extra?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card variant="borderless" title={title} extra={extra} className="fw-poi-section fw-poi-summary" data-testid={testId}>
      {children}
    </Card>
  );
}

interface KeyFigureProps {
  label: ReactNode;
  value: ReactNode;
  unit?: string;
  /** A second line: what the figure means, where it comes from. */
  detail?: ReactNode;
  /** Colours the figure, e.g. a warning or grade colour. */
  accent?: string;
  testId?: string;
  /** Keeps the second line's place while there is none yet, so the figures do not grow when it comes. */
  reserveDetail?: boolean;
}

export function KeyFigure({ label, value, unit, detail, accent, testId, reserveDetail = false }: KeyFigureProps) {
  return (
    <div className="fw-poi-figure" data-testid={testId} style={accent ? { borderTopColor: accent } : undefined}>
      <div className="fw-poi-figure__label">{label}</div>
      <div className="fw-poi-figure__value">
        {value}
        {unit ? <span className="fw-poi-figure__unit">{unit}</span> : null}
      </div>
      {detail || reserveDetail ? <div className="fw-poi-figure__detail">{detail || '\u00a0'}</div> : null}
    </div>
  );
}
