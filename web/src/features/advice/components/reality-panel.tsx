import { Card, Progress, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { farmTime } from '@/lib/farm-time';
import { formatValue } from '@/lib/format';
import type { NoDataItem, Reality, Source, Water } from '../types';
import { Readings } from './readings';

const clock = (ms: number) => farmTime(ms).format('MM-DD HH:mm');
const n = (v: number | null | undefined, digits = 1) => formatValue(v ?? null, digits);

function Tile({ title, tone, children, sources, nameOf, testId }: { title: ReactNode; tone?: 'good' | 'warn' | 'bad' | 'info'; children: ReactNode; sources?: Source[]; nameOf: (id: number) => string; testId: string }) {
  return (
    <section className={`fw-reality-tile${tone ? ` fw-reality-tile--${tone}` : ''}`} data-testid={testId}>
      <h4 className="fw-reality-tile__title">{title}</h4>
      <div className="fw-reality-tile__body">{children}</div>
      {sources && <Readings sources={sources} nameOf={nameOf} />}
    </section>
  );
}

function Nothing({ item }: { item: NoDataItem }) {
  const { t } = useTranslation('advice');
  return <Typography.Text type="secondary">{t(`reality.noData.${item}`)}</Typography.Text>;
}

function WaterTile({ w, nameOf }: { w: Water; nameOf: (id: number) => string }) {
  const { t } = useTranslation('advice');
  const percent = w.raw > 0 ? Math.min(100, (w.depletion / w.raw) * 100) : 0;
  const state = w.waterlogged ? 'waterlogged' : w.needsWater ? 'needsWater' : 'enough';
  const color = { waterlogged: 'magenta', needsWater: 'red', enough: 'green' }[state];
  return (
    <Tile
      testId="advice-reality-water"
      title={
        <>
          {t('reality.water.title', { device: nameOf(w.deviceId) })} <Tag color={color}>{t(`reality.water.${state}`)}</Tag>
        </>
      }
      tone={state === 'enough' ? 'good' : 'bad'}
      sources={w.sources}
      nameOf={nameOf}
    >
      <div className="fw-reality-figure">
        {t('reality.water.depletion', { depletion: n(w.depletion), raw: n(w.raw) })}
      </div>
      <Progress
        percent={percent}
        showInfo={false}
        size="small"
        status={w.needsWater ? 'exception' : 'normal'}
        aria-label={t('reality.water.bar', { percent: Math.round(percent) })}
      />
      <ul className="fw-reality-lines">
        <li>
          {t('reality.water.moisture', { moisture: n(w.moisture, 2), relative: n(w.relative), fc: n(w.fieldCapacity, 2) })}
          {w.drought && w.drought !== 'none' ? ` · ${t(`reality.drought.${w.drought as 'light'}`, { defaultValue: w.drought })}` : ''}
        </li>
        <li>{w.rootDepthFound ? t('reality.water.root', { depth: n(w.rootDepthCm, 0) }) : t('reality.water.rootDefault', { depth: n(w.rootDepthCm, 0) })}</li>
        <li>
          {w.etcRate === null
            ? t('reality.water.sinceNoET', { time: clock(w.probeAt), rain: n(w.rainSince) })
            : t('reality.water.since', { time: clock(w.probeAt), rain: n(w.rainSince), etc: n(w.etcSince, 2), rate: n(w.etcRate, 2), hours: n(w.hoursSince, 2) })}
        </li>
      </ul>
    </Tile>
  );
}

/** The field now, item by item, each with the readings it was made from. */
export function RealityPanel({ reality, nameOf, loading, error }: { reality: Reality | undefined; nameOf: (id: number) => string; loading: boolean; error?: ReactNode }) {
  const { t } = useTranslation('advice');
  const r = reality;
  return (
    <Card variant="borderless" loading={loading} title={t('reality.title')} extra={r && <Typography.Text type="secondary">{t('reality.asOf', { time: clock(r.at) })}</Typography.Text>} data-testid="advice-reality">
      {error}
      {r && (
        <div className="fw-reality">
          {r.water.length === 0 ? (
            <Tile testId="advice-reality-water" title={t('reality.water.titleNone')} nameOf={nameOf}>
              <Nothing item="water" />
            </Tile>
          ) : (
            r.water.map((w) => <WaterTile key={w.deviceId} w={w} nameOf={nameOf} />)
          )}

          <Tile testId="advice-reality-et" title={t('reality.et.title')} sources={r.et?.sources} nameOf={nameOf}>
            {r.et ? (
              <>
                <div className="fw-reality-figure">
                  {r.et.etcTotal === null ? t('reality.et.et0', { et0: n(r.et.et0Total) }) : t('reality.et.both', { et0: n(r.et.et0Total), etc: n(r.et.etcTotal) })}
                </div>
                <Typography.Text type="secondary">{t('reality.et.over', { count: r.et.days.length, station: nameOf(r.et.stationId) })}</Typography.Text>
              </>
            ) : (
              <Nothing item="et" />
            )}
          </Tile>

          <Tile testId="advice-reality-rain" title={t('reality.rain.title')} sources={r.rain?.sources} nameOf={nameOf}>
            {r.rain ? (
              <>
                <div className="fw-reality-figure">{t('reality.rain.total', { mm: n(r.rain.total) })}</div>
                <Typography.Text type="secondary">
                  {t('reality.rain.today', { mm: n(r.rain.days.find((d) => d.day === r.day)?.mm ?? 0), gauge: nameOf(r.rain.gaugeId) })}
                </Typography.Text>
              </>
            ) : (
              <Nothing item="rain" />
            )}
          </Tile>

          <Tile testId="advice-reality-crop" title={t('reality.crop.title')} sources={r.crop?.gdd?.sources} nameOf={nameOf}>
            {r.crop ? (
              <>
                <div className="fw-reality-figure">
                  {t('reality.crop.day', { crop: r.crop.cropName, day: r.crop.dayOfSeason })}
                </div>
                <div>
                  {t(`stage.${r.crop.stage}`)}
                  {r.crop.stageEnds ? ` · ${t('reality.crop.until', { day: r.crop.stageEnds })}` : ''}
                  {r.crop.kc !== null ? ` · Kc ${n(r.crop.kc, 2)}` : ''}
                </div>
                <Typography.Text type="secondary">
                  {r.crop.gdd
                    ? t('reality.crop.gdd', { gdd: n(r.crop.gdd.total), base: r.crop.gdd.base, days: r.crop.gdd.days, missing: r.crop.gdd.missing })
                    : t('reality.noData.gdd')}
                </Typography.Text>
              </>
            ) : (
              <Nothing item="crop" />
            )}
          </Tile>

          <Tile
            testId="advice-reality-risk"
            title={t('reality.risk.title')}
            tone={r.forecast?.frost || r.forecast?.heat ? 'warn' : undefined}
            sources={r.forecast?.sources}
            nameOf={nameOf}
          >
            {r.forecast ? (
              <ul className="fw-reality-lines">
                <li>
                  {r.forecast.frost
                    ? t(r.forecast.frost.at ? 'reality.risk.frostAt' : 'reality.risk.frost', {
                        temp: n(r.forecast.frost.temp),
                        day: r.forecast.frost.day,
                        time: r.forecast.frost.at ? clock(r.forecast.frost.at) : '',
                      })
                    : t('reality.risk.noFrost')}
                </li>
                <li>{r.forecast.heat ? t('reality.risk.heat', { temp: n(r.forecast.heat.temp), day: r.forecast.heat.day }) : t('reality.risk.noHeat')}</li>
              </ul>
            ) : (
              <Nothing item="forecast" />
            )}
          </Tile>

          <Tile testId="advice-reality-insects" title={t('reality.insects.title')} tone={r.insects.some((i) => i.doubled) ? 'warn' : undefined} sources={r.insects.flatMap((i) => i.sources)} nameOf={nameOf}>
            {r.insects.length === 0 ? (
              <Nothing item="insects" />
            ) : (
              <ul className="fw-reality-lines">
                {r.insects.map((i) => (
                  <li key={`${i.deviceId}-${i.param}`}>
                    {t('reality.insects.line', { device: nameOf(i.deviceId), last: n(i.windows[0], 0), before: i.windows.slice(1).map((v) => n(v, 0)).join(' / ') })}
                    {i.doubled && (
                      <>
                        {' '}
                        <Tag color="gold">{t('reality.insects.doubled')}</Tag>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Tile>

          <Tile testId="advice-reality-alerts" title={t('reality.alerts.title')} tone={r.alerts.length ? 'warn' : undefined} nameOf={nameOf}>
            {r.noData.includes('alerts') ? (
              <Nothing item="alerts" />
            ) : r.alerts.length === 0 ? (
              <Typography.Text type="secondary">{t('reality.alerts.none')}</Typography.Text>
            ) : (
              <ul className="fw-reality-lines">
                {r.alerts.slice(0, 5).map((a) => (
                  <li key={a.id}>{t('reality.alerts.line', { device: nameOf(a.deviceId), rule: a.rule, time: clock(a.at) })}</li>
                ))}
                {r.alerts.length > 5 && <li>{t('reality.alerts.more', { count: r.alerts.length - 5 })}</li>}
              </ul>
            )}
          </Tile>

          <Tile testId="advice-reality-gaps" title={t('reality.gaps.title')} tone={r.gaps.some((g) => g.to === null) ? 'warn' : undefined} nameOf={nameOf}>
            {r.gaps.length === 0 ? (
              <Typography.Text type="secondary">{t('reality.gaps.none')}</Typography.Text>
            ) : (
              <ul className="fw-reality-lines">
                {r.gaps.map((g) => (
                  <li key={`${g.deviceId}-${g.from}`}>
                    {g.to === null
                      ? t('reality.gaps.silent', { device: nameOf(g.deviceId), from: clock(g.from) })
                      : t('reality.gaps.recovered', { device: nameOf(g.deviceId), from: clock(g.from), to: clock(g.to) })}
                  </li>
                ))}
              </ul>
            )}
          </Tile>
        </div>
      )}
    </Card>
  );
}
