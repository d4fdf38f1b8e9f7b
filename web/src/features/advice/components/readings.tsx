import { useTranslation } from 'react-i18next';
import { describeSource } from '../lib/sources';
import type { Source } from '../types';
import './readings.css';

/** The readings behind a fact, folded away under a one-line summary. */
export function Readings({ sources, nameOf }: { sources: Source[]; nameOf: (id: number) => string }) {
  const { t } = useTranslation('advice');
  if (sources.length === 0) return null;
  return (
    <details className="fw-readings" data-testid="advice-readings">
      <summary>{t('readings', { count: sources.length })}</summary>
      <ul>
        {sources.map((source, index) => (
          <li key={index}>{describeSource(t, source, nameOf)}</li>
        ))}
      </ul>
    </details>
  );
}
