import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useElements } from '../api/elements';
import { useSamples } from '../api/samples';
import { useSets } from '../api/sets';
import { ElementsCard } from './elements-card';
import { LabHeader } from './lab-header';

function Stat({ to, label, value, hint, testId }: { to?: string; label: string; value: ReactNode; hint: string; testId: string }) {
  const card = (
    <Card variant="borderless" hoverable={to !== undefined} className="fw-lab__card fw-lab-stat">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div className="fw-lab-stat__value">{value}</div>
      <Typography.Text type="secondary">{hint}</Typography.Text>
    </Card>
  );
  return to ? (
    <Link to={to} className="fw-lab-stat" data-testid={testId}>
      {card}
    </Link>
  ) : (
    <div data-testid={testId}>{card}</div>
  );
}

/** The AI lab's first page: how many samples, sets and elements there are, and the elements themselves. */
export function LabHome({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const samples = useSamples();
  const sets = useSets();
  const elements = useElements();
  const count = (data: unknown[] | undefined) => (data ? data.length : '--');
  const labelled = samples.data?.filter((sample) => sample.labels.length > 0).length;
  const setNames = sets.data ? new Set(sets.data.map((set) => set.name)).size : undefined;
  return (
    <div className="fw-page fw-lab" data-testid="lab-home">
      <LabHeader title={title} subtitle={t('home.subtitle')} />
      <div className="fw-lab-stats">
        <Stat
          to={paths.modelService.samples}
          testId="lab-stat-samples"
          label={t('home.samples')}
          value={count(samples.data)}
          hint={labelled === undefined ? t('home.samplesHint') : t('home.labelled', { count: labelled })}
        />
        <Stat
          to={paths.modelService.sampleSets}
          testId="lab-stat-sets"
          label={t('home.sets')}
          value={setNames ?? '--'}
          hint={sets.data ? t('home.versions', { count: sets.data.length }) : t('home.setsHint')}
        />
        <Stat testId="lab-stat-elements" label={t('home.elements')} value={count(elements.data)} hint={t('home.elementsHint')} />
      </div>
      <ElementsCard />
    </div>
  );
}
