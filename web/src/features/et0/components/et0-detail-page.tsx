import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, Segmented, Table, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatValue } from '@/lib/format';
import { useMapConfig } from '@/lib/map-config';
import { useET0Area, useET0Download, useET0Grid, type ET0Point } from '../api/et0';
import { ET0Map, RAMP } from './et0-map';
import './et0.css';

/**
 * One area's ET0 (/console/et0/detail/{id}): the grid of a day — the last seven observed by the
 * stations, today and the forecast's days — on the map with its legend, the points it was
 * interpolated from with their cross-validation, and the GeoTIFF and CSV.
 */
export function ET0DetailPage() {
  const { t } = useTranslation('et0');
  const id = Number(useParams().id) || 0;
  const area = useET0Area(id);
  const config = useMapConfig();
  const days = area.data?.days ?? [];
  const [chosen, setChosen] = useState<string>();
  const day = chosen ?? days.filter((d) => !d.forecast).at(-1)?.day;
  const grid = useET0Grid(id, day);
  const files = useET0Download();
  const label = useCallback((p: ET0Point) => `${p.source === 'station' ? p.name : t('forecastPoint')}: ${formatValue(p.value, 2)} mm`, [t]);

  if (area.error) return <ServerErrorAlert error={area.error} />;
  if (!area.data || !config.data) return <PageLoading />;
  const a = area.data;
  const g = grid.data;

  return (
    <div className="fw-page fw-et0" data-testid="et0-detail">
      <Card
        variant="borderless"
        title={
          <Flex gap={8} align="center">
            <Link to="/console/service/et0" aria-label={t('back')}>
              <ArrowLeftOutlined />
            </Link>
            {a.name}
          </Flex>
        }
        extra={
          <Flex gap={8}>
            <Button icon={<DownloadOutlined />} disabled={!g} loading={files.isPending && files.variables?.format === 'tif'} onClick={() => day && files.mutate({ id, day, format: 'tif' })} data-testid="et0-tif">
              GeoTIFF
            </Button>
            <Button icon={<DownloadOutlined />} disabled={!g} loading={files.isPending && files.variables?.format === 'csv'} onClick={() => day && files.mutate({ id, day, format: 'csv' })} data-testid="et0-csv">
              CSV
            </Button>
          </Flex>
        }
      >
        <div className="fw-et0-days-wrap">
        <Segmented
          className="fw-et0-days"
          value={day}
          onChange={(v) => setChosen(String(v))}
          options={days.map((d) => ({ value: d.day, label: d.forecast ? `${d.day.slice(5)} ${t('forecastShort')}` : d.day.slice(5) }))}
          data-testid="et0-days"
        />
        </div>
        <ServerErrorAlert error={grid.error ?? files.error} />
        <div className="fw-et0-gap" />
        <ET0Map config={config.data} area={a} grid={g} points={g?.points} pointLabel={label} />
        {g && (
          <div className="fw-et0-legend" data-testid="et0-legend">
            <span>{t('legend')}</span>
            <span>{formatValue(g.min, 2)}</span>
            <span className="fw-et0-legend__bar" style={{ background: `linear-gradient(to right, ${RAMP.join(', ')})` }} />
            <span>{formatValue(g.max, 2)} mm</span>
          </div>
        )}
      </Card>
      {g ? (
        <Card variant="borderless" title={t('howMade')}>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            items={[
              { key: 'day', label: t('day'), children: g.day },
              { key: 'method', label: t('method'), children: t('idw', { power: g.power }) },
              { key: 'grid', label: t('grid'), children: t('gridSize', { cols: g.cols, rows: g.rows, km: Math.round(g.cell * 111 * 10) / 10 }) },
              {
                key: 'cv',
                label: t('crossValidation'),
                children: g.crossValidation.n > 0 ? t('cv', { n: g.crossValidation.n, rmse: formatValue(g.crossValidation.rmse, 2), mae: formatValue(g.crossValidation.mae, 2) }) : t('cvNone'),
              },
            ]}
          />
          {g.points.every((p) => p.source === 'forecast') && <Alert type="info" showIcon title={t('allForecast')} className="fw-et0-note" />}
          <Table<ET0Point>
            size="small"
            rowKey={(p) => `${p.source}-${p.id ?? p.name}-${p.lat}-${p.lng}`}
            pagination={false}
            dataSource={g.points}
            data-testid="et0-points"
            columns={[
              { title: t('point'), key: 'name', render: (_, p) => (p.source === 'station' ? p.name : t('forecastPoint')) },
              { title: t('source'), dataIndex: 'source', render: (s: string) => <Tag color={s === 'station' ? 'blue' : 'default'}>{s === 'station' ? t('sources.station') : t('sources.forecast')}</Tag> },
              { title: t('position'), key: 'pos', render: (_, p) => `${p.lat.toFixed(4)}, ${p.lng.toFixed(4)}` },
              { title: t('value'), dataIndex: 'value', align: 'right', render: (v: number) => formatValue(v, 2) },
              { title: t('predicted'), dataIndex: 'predicted', align: 'right', render: (v: number | null) => (v === null ? '—' : formatValue(v, 2)) },
            ]}
          />
        </Card>
      ) : grid.isPending && day ? (
        <PageLoading />
      ) : null}
      <Typography.Paragraph type="secondary" className="fw-et0-note">
        {t('about')}
      </Typography.Paragraph>
    </div>
  );
}
