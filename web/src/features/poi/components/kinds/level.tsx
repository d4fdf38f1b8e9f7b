import { Card, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatReportTime, formatValue, formatWithUnit } from '@/lib/format';
import { indexReadings, latestValue, type ReadingIndex } from '@/lib/telemetry/readings';
import { useLang } from '@/lib/use-lang';
import { useDetect } from '../../api/get-detect';
import { useTopology } from '../../api/get-topology';
import { poiDetailPath } from '../../lib/detail-path';
import type { DeviceInfo } from '../../types';

/** The level and water temperature now. */
export function LevelSummary({ readings }: { readings: ReadingIndex }) {
  const { t } = useTranslation('poi');
  const temperature = latestValue(readings, 'waterTemp');
  return (
    <SummaryCard title={t('level.title')} testId="poi-level-summary">
      <div className="fw-poi-figures">
        <KeyFigure testId="poi-water-level" label={t('level.level')} value={formatValue(latestValue(readings, 'waterLevel'), 2)} unit="m" detail={t('level.levelHint')} />
        {readings.has('waterTemp') && (
          <KeyFigure label={t('level.waterTemp')} value={formatValue(temperature, 1)} unit={temperature === null ? undefined : '°C'} />
        )}
      </div>
    </SummaryCard>
  );
}

function Unit({ unit, current }: { unit: DeviceInfo; current: boolean }) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const detect = useDetect(unit.id, lang);
  const level = detect.data ? latestValue(indexReadings(detect.data.list), 'waterLevel') : null;
  const path = poiDetailPath(unit);
  const name = current || !path ? <b>{unit.name}</b> : <Link to={path}>{unit.name}</Link>;
  return (
    <div className={current ? 'fw-poi-unit fw-poi-unit--current' : 'fw-poi-unit'} data-testid="poi-topology-unit">
      <div className="fw-poi-unit__head">
        <Tag color={unit.slave ? 'cyan' : 'blue'}>{unit.slave ? t('level.slave') : t('level.host')}</Tag>
        {name}
        {current && <Typography.Text type="secondary"> · {t('level.thisDevice')}</Typography.Text>}
      </div>
      <div className="fw-poi-unit__meta">
        {unit.model} · {t('header.sn')} {unit.sn} · {unit.statusName}
      </div>
      <div className="fw-poi-unit__figures">
        <span>
          {t('level.level')} <b>{formatWithUnit(level, 'm', 2)}</b>
        </span>
        <span>
          {t('header.battery')} {formatWithUnit(unit.battery, 'V', 2)}
        </span>
        <span>
          {unit.slave ? t('level.link') : t('header.signal')} {formatWithUnit(unit.signal, 'dBm', 0)}
        </span>
        <span>
          {t('header.lastReport')} {formatReportTime(unit.lastReportTime)}
        </span>
      </div>
    </div>
  );
}

/** A host LQM001 and the slaves that report through it. */
export function TopologyCard({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const topology = useTopology(device.id, lang);
  if (!topology.data || (topology.data.slaves.length === 0 && !device.slave)) return null;
  const { host, slaves } = topology.data;
  return (
    <Card variant="borderless" title={t('level.topology')} className="fw-poi-section" data-testid="poi-topology">
      <Typography.Paragraph type="secondary">{t('level.topologyHint')}</Typography.Paragraph>
      <div className="fw-poi-units">
        <Unit unit={host} current={host.id === device.id} />
        {slaves.map((slave) => (
          <Unit key={slave.id} unit={slave} current={slave.id === device.id} />
        ))}
      </div>
    </Card>
  );
}
