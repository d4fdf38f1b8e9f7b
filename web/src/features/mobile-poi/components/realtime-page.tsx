import { ErrorBlock, NoticeBar, Tag } from 'antd-mobile';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useDetect } from '@/features/poi/api/get-detect';
import { useIndicator } from '@/features/poi/api/get-indicator';
import { useMetadata } from '@/features/poi/api/get-metadata';
import type { DeviceInfo } from '@/features/poi/types';
import { MobileServerError } from '@/components/mobile-server-error';
import { formatReportTime, formatWithUnit } from '@/lib/format';
import { indexReadings } from '@/lib/telemetry/readings';
import { useLang } from '@/lib/use-lang';
import { isMobileRealtimeType, mobileDeviceBase, mobileRealtimeType, type MobileRealtimeType } from '../lib/kind';
import { surfaceFigures } from '../lib/figures';
import {
  Gallery,
  InsectFigures,
  IrrigationFigures,
  LevelFigures,
  RainFigures,
  SoilDepths,
  TiltFigures,
  WeatherTiles,
  type KindProps,
} from './kinds';
import { FigureTiles, Section } from './parts';
import { DeviceError, Loading } from './states';
import { useMobileDevice } from './use-device';

/** What each page draws itself; the rest of the surface readings follow as plain tiles. */
const COVERED: Record<MobileRealtimeType, readonly string[]> = {
  liquidometer: ['waterLevel', 'waterTemp'],
  ibiosense: ['insectCount', 'airTemp', 'airHumidity', 'illuminance'],
  'shan-jing': ['tiltAngle', 'tiltX', 'tiltY'],
  moisture: [],
  'zhi-shang': [],
  dcr004: [],
  'meteorological-moisture': ['airTemp', 'airHumidity', 'rainfall'],
  tianqi: ['*'],
  pluviometer: ['rainfall'],
  'yun-yao': ['valveState', 'flowRate', 'waterVolume', 'pipePressure'],
};
const HEADER = ['battery', 'signal'];

function Body({ type, props }: { type: MobileRealtimeType; props: KindProps }) {
  switch (type) {
    case 'liquidometer':
      return <LevelFigures {...props} />;
    case 'ibiosense':
      return (
        <>
          <Gallery deviceId={props.device.id} />
          <InsectFigures {...props} />
        </>
      );
    case 'shan-jing':
      return <TiltFigures {...props} />;
    case 'moisture':
    case 'zhi-shang':
    case 'dcr004':
      return <SoilDepths catalogue={props.catalogue} readings={props.readings} />;
    case 'meteorological-moisture':
      return (
        <>
          <WeatherTiles {...props} />
          <SoilDepths catalogue={props.catalogue} readings={props.readings} />
        </>
      );
    case 'tianqi':
      return <WeatherTiles {...props} />;
    case 'pluviometer':
      return <RainFigures {...props} />;
    case 'yun-yao':
      return <IrrigationFigures {...props} />;
  }
}

/** Status, last report, battery and signal in one line, and the charging advice when the cell is low. */
function StatusStrip({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const lang = useLang();
  const indicator = useIndicator(device.id, lang).data;
  const last = indicator?.lastReportTime ?? device.lastReportTime;
  const battery = indicator?.battery ?? device.battery;
  const signal = indicator?.signal ?? device.signal;
  return (
    <>
      <div className="fw-mpoi-strip" data-testid="mpoi-strip">
        <div className="fw-mpoi-strip__name" data-testid="mpoi-device-name">
          {device.name}
        </div>
        <div className="fw-mpoi-strip__facts">
          <Tag color={device.status === 'online' || device.status === 'used' ? 'success' : 'default'} fill="outline">
            {device.statusName}
          </Tag>
          <span>{t('strip.reported', { time: formatReportTime(last) })}</span>
          <span>
            {t('poi:header.battery')} {formatWithUnit(battery, 'V', 2)}
          </span>
          <span>
            {t('poi:header.signal')} {formatWithUnit(signal, 'dBm', 0)}
          </span>
        </div>
      </div>
      {indicator?.advice ? <NoticeBar content={indicator.advice} color="alert" wrap data-testid="mpoi-battery-advice" /> : null}
    </>
  );
}

function Realtime({ device, type }: { device: DeviceInfo; type: MobileRealtimeType }) {
  const { t } = useTranslation('mobilePoi');
  const lang = useLang();
  const metadata = useMetadata(device.id, lang);
  const detect = useDetect(device.id, lang);
  const readings = useMemo(() => indexReadings(detect.data?.list ?? []), [detect.data]);
  let content: ReactNode;
  if (metadata.error || detect.error) {
    content = (
      <div className="fw-mpoi-section">
        <MobileServerError error={metadata.error ?? detect.error} />
      </div>
    );
  } else if (!metadata.data || !detect.data) {
    content = <Loading />;
  } else {
    const catalogue = metadata.data;
    const covered = COVERED[type];
    const others = covered.includes('*')
      ? []
      : surfaceFigures(readings, catalogue.params).filter((f) => !covered.includes(f.id) && !HEADER.includes(f.id));
    content = (
      <>
        {detect.data.list.length === 0 && <ErrorBlock status="empty" title={t('noData')} description="" />}
        <Body type={type} props={{ device, catalogue, readings }} />
        {others.length > 0 && (
          <Section title={t('otherReadings')} testId="mpoi-others">
            <FigureTiles figures={others} />
          </Section>
        )}
      </>
    );
  }
  return (
    <div className="fw-mpoi" data-testid="mpoi-realtime" data-type={type}>
      <StatusStrip device={device} />
      {content}
    </div>
  );
}

/**
 * …/realtime and …/realtime/{type}: the device's own type page. The index, or another type's
 * address, is sent to the page of the device's type.
 */
export function MobileRealtimePage() {
  const { t } = useTranslation('mobilePoi');
  const { pathname, state } = useLocation();
  const { info } = useMobileDevice();
  if (info.isPending) return <Loading />;
  if (info.isError) return <DeviceError error={info.error} />;
  const device = info.data;
  const own = mobileRealtimeType(device);
  if (!own) return <ErrorBlock status="empty" title={t('noRealtime')} description="" />;
  const requested = pathname.replace(/\/+$/, '').split('/').pop();
  const canonical = `${mobileDeviceBase(device.hashId, device.id)}/realtime/${own}`;
  if (!isMobileRealtimeType(requested) || requested !== own || !pathname.startsWith(mobileDeviceBase(device.hashId, device.id))) {
    return <Navigate to={canonical} replace state={state} />;
  }
  return <Realtime device={device} type={own} />;
}
