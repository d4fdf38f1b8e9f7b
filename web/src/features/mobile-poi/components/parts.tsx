import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatReportTime, MISSING } from '@/lib/format';
import type { DepthRow, Figure } from '../lib/figures';

/** A titled block of the phone page. */
export function Section({ title, extra, children, testId }: { title?: ReactNode; extra?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="fw-mpoi-section" data-testid={testId}>
      {(title || extra) && (
        <header className="fw-mpoi-section__head">
          <h2>{title}</h2>
          {extra && <span className="fw-mpoi-section__extra">{extra}</span>}
        </header>
      )}
      {children}
    </section>
  );
}

/** The one figure a glance is for: large, with its unit, a note under it and its time. */
export function BigFigure({ label, value, unit, note, time, accent, testId, reserve = false }: {
  label: ReactNode;
  value: ReactNode;
  unit?: string;
  note?: ReactNode;
  time?: number | null;
  accent?: string;
  testId?: string;
  /** Keeps the note's and the time's lines while they are not known yet, so nothing below moves when they come. */
  reserve?: boolean;
}) {
  return (
    <div className="fw-mpoi-big" data-testid={testId ?? 'mpoi-big'}>
      <div className="fw-mpoi-big__label">{label}</div>
      <div className="fw-mpoi-big__value" style={accent ? { color: accent } : undefined}>
        <span data-testid="mpoi-value">{value}</span>
        {unit && value !== MISSING ? <small>{unit}</small> : null}
      </div>
      {note || reserve ? <div className="fw-mpoi-big__note">{note || '\u00a0'}</div> : null}
      {time || reserve ? <div className="fw-mpoi-big__time">{time ? formatReportTime(time) : '\u00a0'}</div> : null}
    </div>
  );
}

/** One tile of a grid: label, value and unit, an optional note. */
export function Tile({ label, value, unit, note, accent, testId, reserveNote = false }: {
  label: ReactNode;
  value: ReactNode;
  unit?: string;
  note?: ReactNode;
  accent?: string;
  testId?: string;
  /** Keeps the note's line while there is none (yet), so the grid's rows keep their height. */
  reserveNote?: boolean;
}) {
  return (
    <div className="fw-mpoi-tile" data-testid={testId ?? 'mpoi-tile'}>
      <div className="fw-mpoi-tile__label">{label}</div>
      <div className="fw-mpoi-tile__value" style={accent ? { color: accent } : undefined}>
        <span data-testid="mpoi-value">{value}</span>
        {unit && value !== MISSING ? <small>{unit}</small> : null}
      </div>
      {note || reserveNote ? <div className="fw-mpoi-tile__note">{note || '\u00a0'}</div> : null}
    </div>
  );
}

export function Tiles({ children }: { children: ReactNode }) {
  return <div className="fw-mpoi-tiles">{children}</div>;
}

/** Figures as tiles, in the catalogue's order. */
export function FigureTiles({ figures }: { figures: readonly Figure[] }) {
  if (figures.length === 0) return null;
  return (
    <Tiles>
      {figures.map((f) => (
        <Tile key={f.id} label={f.name} value={f.value} unit={f.unit} testId={`mpoi-figure-${f.id}`} />
      ))}
    </Tiles>
  );
}

/** A per-depth parameter as a list, one row a depth, with a bar of its value. */
export function DepthList({ rows, unit, color, second, testId }: {
  rows: readonly DepthRow[];
  unit: string;
  color: string;
  /** A second per-depth figure shown at the row's end (e.g. the temperature). */
  second?: { rows: readonly DepthRow[]; unit: string; label: string };
  testId?: string;
}) {
  const { t } = useTranslation('poi');
  const seconds = new Map(second?.rows.map((row) => [row.depth, row]));
  return (
    <ol className="fw-mpoi-depths" data-testid={testId ?? 'mpoi-depths'}>
      {rows.map((row) => {
        const other = seconds.get(row.depth);
        return (
          <li key={row.depth} className="fw-mpoi-depth">
            <span className="fw-mpoi-depth__depth">{t('depth', { depth: row.depth })}</span>
            <span className="fw-mpoi-depth__bar" aria-hidden>
              <span style={{ width: `${Math.round(row.share * 100)}%`, background: color }} />
            </span>
            <span className="fw-mpoi-depth__value" data-testid="mpoi-value">
              {row.text}
              {row.value !== null && <small>{unit}</small>}
            </span>
            {second && (
              <span className="fw-mpoi-depth__second" aria-label={second.label}>
                {other?.text ?? MISSING}
                {other?.value != null && <small>{second.unit}</small>}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
