import { Button, Card, ErrorBlock, SpinLoading, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useBriefing, useReport } from '@/features/briefing/api/briefings';
import { useFileExport } from '@/features/briefing/components/use-file-export';
import '@/features/briefing/components/briefing.css';
import { bandLabel, type Grade, type RegionReport } from '@/features/briefing/types';
import { errorMessage } from '@/lib/api-client';
import { MobilePage } from '../../layouts/mobile-page';

const TAG_COLORS: Record<string, string> = {
  none: 'success',
  light: '#d4b106',
  moderate: 'warning',
  severe: 'danger',
  extreme: '#a8071a',
  nodata: 'default',
};

function num(v: number | null | undefined) {
  return v === null || v === undefined ? '—' : v.toFixed(1);
}

/** One briefing's report on the phone: each region's layers, grades and advice, and the PDF. */
export default function MobileMoistureReportOpenRoute() {
  const { t } = useTranslation('briefing');
  const id = Number(useParams().configId);
  const valid = Number.isInteger(id) && id > 0;
  const preset = useBriefing(valid ? id : null);
  const report = useReport(valid ? id : null);
  const files = useFileExport();
  const grade = (g: Grade) => t(`report.grades.${g || 'nodata'}`);
  const advice = (a: RegionReport['advice']) =>
    a.action === 'irrigate' && a.by
      ? t('report.action.irrigateBy', { depth: num(a.depthMm), by: a.by.slice(0, 10) })
      : t(`report.action.${a.action}`, { depth: num(a.depthMm) });
  const r = report.data;
  const busy = files.current && !files.current.error && !files.current.done;
  return (
    <MobilePage backTo={paths.mobile.moistureReport} title={preset.data?.name}>
      {!valid || report.error ? (
        <ErrorBlock status="default" title={report.error ? errorMessage(report.error) : t('mobile.empty')} description="" />
      ) : !r ? (
        <div className="fw-m-briefing__loading">
          <SpinLoading />
        </div>
      ) : (
        <div className="fw-m-briefing" data-testid="m-briefing-report">
          <div className="fw-m-briefing__period">
            {t('report.period', { begin: r.begin.slice(0, 10), end: (r.days[r.days.length - 1] ?? r.end).slice(0, 10) })}
          </div>
          {r.regions.map((region) => (
            <Card key={region.name} title={region.name} extra={<span className="fw-m-briefing__advice">{advice(region.advice)}</span>}>
              {region.bands.map((b) => (
                <div key={b.band} className="fw-m-briefing__band">
                  <span className="fw-m-briefing__layer">{bandLabel(b.band)}</span>
                  <span className="fw-m-briefing__value">{num(b.relative)} %</span>
                  <span>
                    {b.waterlogged ? (
                      <Tag color="primary" fill="outline">
                        {t('report.waterlogged')}
                      </Tag>
                    ) : (
                      <Tag color={TAG_COLORS[b.grade || 'nodata']} fill="outline">
                        {grade(b.grade)}
                      </Tag>
                    )}
                  </span>
                </div>
              ))}
            </Card>
          ))}
          <div className="fw-m-briefing__facts">
            <div>{r.rain === null ? t('report.noRain') : t('report.rain', { mm: num(r.rain) })}</div>
            <div>{r.forecast ? t('report.forecast', { rain: num(r.forecast.rain), et0: num(r.forecast.et0) }) : t('report.noForecast')}</div>
          </div>
          {files.current?.error ? (
            <ErrorBlock status="default" title={files.current.error.message} description={files.current.error.reason ?? ''} />
          ) : null}
          <Button block color="primary" loading={Boolean(busy)} onClick={() => void files.run(id, 'pdf')} data-testid="m-briefing-pdf">
            {t('file.pdf')}
          </Button>
        </div>
      )}
    </MobilePage>
  );
}
