import { Empty, Skeleton, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { rainClassKey } from '@/lib/rain-grades';

/** Daily weather as seven/mete, week/weather and /apis/qi/data/history give it (docs/analyses.md). */
type Num = number | null;

/** A weather day of seven/mete, week/weather and /apis/qi/data/history. */
export interface WeatherDay {
  time: number;
  date: string;
  complete: boolean;
  tempMax: Num;
  tempMin: Num;
  tempAvg: Num;
  humidityAvg: Num;
  rain: Num;
  rainClass: string | null;
  windAvg: Num;
  windMax: Num;
  windLevel: Num;
  windSector?: string;
  pressureAvg: Num;
  radiation: Num;
  et0: Num;
}

/** The weather station a soil device's weather comes from. */
export interface NearStation {
  id: number;
  name: string;
  sn: string;
  own: boolean;
  distanceKm: number;
}

/** Loading, error and empty states shared by every panel. */
export function Panel({ loading, error, empty, emptyText, testId, children }: { loading: boolean; error: unknown; empty: boolean; emptyText: string; testId: string; children: ReactNode }) {
  if (error) return <ServerErrorAlert error={error} />;
  if (loading) return <Skeleton active />;
  if (empty) return <Empty data-testid={`${testId}-empty`} image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return <div data-testid={testId}>{children}</div>;
}

export function useRainClass() {
  const { t } = useTranslation('poi');
  return (name: string | null) => {
    const key = rainClassKey(name);
    return key ? t(`rain.classes.${key}`) : MISSING;
  };
}

/** Columns of a weather day: the ones a farm manager reads first. */
export function useDayColumns(full: boolean): ColumnsType<WeatherDay> {
  const { t } = useTranslation('poi');
  const rainClass = useRainClass();
  const cols: ColumnsType<WeatherDay> = [
    {
      title: t('pages.date'),
      dataIndex: 'date',
      fixed: 'left',
      render: (date: string, d) => (
        <>
          {date}
          {!d.complete && (
            <Tag style={{ marginInlineStart: 6 }} color="default">
              {t('pages.partial')}
            </Tag>
          )}
        </>
      ),
    },
    { title: t('pages.tempMax'), dataIndex: 'tempMax', align: 'right', render: (v: number | null) => formatWithUnit(v, '°C', 1) },
    { title: t('pages.tempMin'), dataIndex: 'tempMin', align: 'right', render: (v: number | null) => formatWithUnit(v, '°C', 1) },
    { title: t('pages.humidity'), dataIndex: 'humidityAvg', align: 'right', render: (v: number | null) => formatWithUnit(v, '%', 0) },
    { title: t('pages.rain'), dataIndex: 'rain', align: 'right', render: (v: number | null, d) => (v === null ? MISSING : `${formatWithUnit(v, 'mm', 1)} · ${rainClass(d.rainClass)}`) },
    {
      title: t('pages.wind'),
      dataIndex: 'windMax',
      align: 'right',
      render: (v: number | null, d) => (v === null ? MISSING : `${formatWithUnit(v, 'm/s', 1)} · ${t('pages.level', { level: d.windLevel })}`),
    },
    { title: 'ET0', dataIndex: 'et0', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm', 2) },
  ];
  if (full) {
    cols.splice(
      5,
      0,
      { title: t('pages.pressure'), dataIndex: 'pressureAvg', align: 'right', render: (v: number | null) => formatWithUnit(v, 'hPa', 1) },
      { title: t('pages.radiation'), dataIndex: 'radiation', align: 'right', render: (v: number | null) => formatWithUnit(v, 'W/m²', 0) },
    );
  }
  return cols;
}

export function StationLine({ station }: { station: NearStation | null }) {
  const { t } = useTranslation('poi');
  if (!station) return null;
  return (
    <Typography.Paragraph type="secondary" data-testid="poi-page-station">
      {station.own ? t('pages.ownStation') : t('pages.nearStation', { name: station.name, km: formatValue(station.distanceKm, 1) })}
    </Typography.Paragraph>
  );
}

