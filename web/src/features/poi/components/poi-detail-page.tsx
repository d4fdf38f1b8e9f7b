import { Button, Col, Result, Row } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { indexReadings, type ReadingIndex } from '@/lib/telemetry/readings';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { useLang } from '@/lib/use-lang';
import { poiCommandTarget, useCommandDefs } from '../api/commands';
import { useExportConfig } from '../api/export-datapoints';
import { useDetect } from '../api/get-detect';
import { useDeviceInfo, type DeviceRef } from '../api/get-device-info';
import { useIndicator } from '../api/get-indicator';
import { useIntro } from '../api/get-intro';
import { useMetadata } from '../api/get-metadata';
import { useSales } from '../api/get-sales';
import { poiDetailPath } from '../lib/detail-path';
import { HEADER_PARAMS } from '../lib/params';
import type { DeviceInfo, DeviceIntro, PoiKind } from '../types';
import { DeviceAccessCard } from './device-access-card';
import { DeviceHeader } from './device-header';
import { CertificatesCard } from './certificates-card';
import { DeviceInfoCard } from './device-info-card';
import { DownloadDialog } from './download-dialog';
import { EditDeviceModal } from './edit-device-modal';
import { CommandsCard } from './commands-card';
import { HistoryCard, type HistoryView } from './history-card';
import { PortalCard } from './portal-card';
import { RealtimeCard } from './realtime-card';
import { SettingsCard } from './settings-card';
import './poi.css';

/** The curves a page opens with; people add others from the catalogue. */
const DEFAULT_PARAMS: Record<PoiKind, readonly string[]> = {
  tianqi: ['airTemp', 'airHumidity', 'windSpeed', 'rainfall', 'pm25', 'co2'],
  pluviometer: ['rainfall'],
  moisture: ['soilMoisture', 'soilTemp'],
  'zhi-shang': ['soilMoisture', 'soilTemp'],
  dcr004: ['soilMoisture', 'soilTemp'],
  'shan-jing': ['tiltAngle', 'tiltX', 'tiltY'],
  liquidometer: ['waterLevel', 'waterTemp'],
  ibiosense: ['insectCount', 'detectCount', 'airTemp', 'airHumidity', 'illuminance'],
  'yun-yao': ['valveState', 'flowRate', 'waterVolume', 'pipePressure'],
};

/**
 * Counts an AI lab application writes: a device no application has counted for has none, so they
 * open as a curve only once the device has a reading of them (the catalogue still offers them).
 */
const DETECTED_PARAMS = new Set(['detectCount']);

/** Whether the kind's opening curves depend on the device's readings. */
function readingsDecide(kind: PoiKind): boolean {
  return DEFAULT_PARAMS[kind].some((id) => DETECTED_PARAMS.has(id));
}

/** The kind's opening curves this device can draw. */
export function openingParams(kind: PoiKind, readings: ReadingIndex): string[] {
  return DEFAULT_PARAMS[kind].filter((id) => !DETECTED_PARAMS.has(id) || readings.has(id));
}

/** What a kind of device adds to the page every device shares; the app's route for the kind builds it. */
export interface KindSections {
  /** Shown above the readings. */
  summary?: ReactNode;
  /** Parameters the summary already shows; the readings card leaves them out. */
  covered?: readonly string[];
  /** Shown after the history. */
  extra?: ReactNode;
  /** Views of the history shown before the curves. */
  views?: HistoryView[];
}

/** What the page has loaded for a kind's sections to draw on. */
export interface DevicePage {
  device: DeviceInfo;
  catalogue: ParamCatalogue;
  readings: ReadingIndex;
  /** Undefined until loaded. */
  intro?: DeviceIntro;
}

export type SectionsOf = (page: DevicePage) => KindSections;

/** Renders extra header buttons for a device; the app's routes pass sharing. */
export type HeaderActions = (device: DeviceInfo) => ReactNode;

interface PageProps {
  kind: PoiKind;
  headerActions?: HeaderActions;
  sections?: SectionsOf;
}

function DeviceDetail({ kind, device, headerActions, sections }: PageProps & { device: DeviceInfo }) {
  const lang = useLang();
  const [editing, setEditing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const metadata = useMetadata(device.id, lang);
  // The controls card sits above the bottom cards: they wait for it too.
  const commandDefs = useCommandDefs(poiCommandTarget(device.id), lang);
  const detect = useDetect(device.id, lang);
  const indicator = useIndicator(device.id, lang);
  const intro = useIntro(device.id, lang);
  const sales = useSales(device.id);
  const readings = useMemo(() => indexReadings(detect.data?.list ?? []), [detect.data]);
  const catalogue = metadata.data;
  const right = device.right;
  const exportConfig = useExportConfig(Boolean(right?.export));

  return (
    <div className="fw-page fw-poi" data-testid="poi-page" data-kind={kind}>
      <DeviceHeader
        device={device}
        indicator={indicator.data}
        onEdit={right?.rename ? () => setEditing(true) : undefined}
        onDownload={() => setDownloading(true)}
        canExport={Boolean(right?.export) && Boolean(catalogue)}
        actions={headerActions?.(device)}
      />
      {catalogue ? (
        <Sections
          kind={kind}
          page={{ device, catalogue, readings, intro: intro.data }}
          sections={sections}
          lastReportTime={detect.data?.lastReportTime ?? device.lastReportTime}
          loading={detect.isPending}
        />
      ) : metadata.error ? (
        <ServerErrorAlert error={metadata.error} />
      ) : (
        <PageLoading />
      )}
      {/* The cards after the sections come once the sections are drawn: shown under a loading
          placeholder, they would jump down the page when the readings and charts arrive. */}
      {(catalogue || metadata.error) && !commandDefs.isPending && (
        <Row gutter={[16, 16]} className="fw-poi-bottom">
          <Col xs={24} xl={right?.settings ? 16 : 24}>
            <DeviceInfoCard device={device} intro={intro.data} sales={sales.data} />
          </Col>
          {right?.settings && (
            <Col xs={24} xl={8}>
              <SettingsCard deviceId={device.id} />
            </Col>
          )}
          {right?.owner && (
            <Col xs={24}>
              <DeviceAccessCard device={device} />
              <PortalCard device={device} />
              <CertificatesCard deviceId={device.id} />
            </Col>
          )}
        </Row>
      )}
      {right?.rename && <EditDeviceModal deviceId={device.id} open={editing} onClose={() => setEditing(false)} />}
      {right?.export && catalogue && (
        <DownloadDialog
          deviceId={device.id}
          catalogue={catalogue}
          config={exportConfig.data}
          open={downloading}
          onClose={() => setDownloading(false)}
        />
      )}
    </div>
  );
}

function Sections({ kind, page, sections, lastReportTime, loading }: { kind: PoiKind; page: DevicePage; sections?: SectionsOf; lastReportTime: number | null; loading: boolean }) {
  const { device, catalogue, readings } = page;
  const parts = sections?.(page) ?? {};
  const covered = new Set(parts.covered);
  const rest = catalogue.params.filter((param) => !covered.has(param.id) && !HEADER_PARAMS.has(param.id));
  return (
    <>
      {parts.summary}
      {rest.length > 0 && <RealtimeCard params={rest} nodes={catalogue.nodes} readings={readings} lastReportTime={lastReportTime} loading={loading} />}
      {/* Where the opening curves depend on the latest readings (a camera's AI lab count), the card
          waits for them; elsewhere it starts at once, keeping its place on the page. */}
      {(!loading || !readingsDecide(kind)) && (
        <HistoryCard deviceId={device.id} catalogue={catalogue} defaultParams={openingParams(kind, readings)} views={parts.views} />
      )}
      {parts.extra}
      {/* Controls of the types that have any (valves, cameras); nothing for the others. */}
      <CommandsCard deviceId={device.id} />
    </>
  );
}

function NotFound() {
  const { t } = useTranslation('poi');
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.description')}
      extra={
        <Link to="/apps/devices">
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
}

/** Reads the device from the address: /apps/poi/{kind}/:hashId/:deviceId, or /apps/poi/pluviometer/:hashId. */
function useDeviceRef(): DeviceRef | null {
  const { hashId = '', deviceId } = useParams();
  if (deviceId !== undefined) {
    const id = Number(deviceId);
    return Number.isSafeInteger(id) && id > 0 ? { id } : null;
  }
  return hashId ? { hashId } : null;
}

/**
 * A device's detail page of the given kind: header, readings, history, information and settings,
 * with the kind's own sections. A device of another kind is sent to its own page.
 */
export function PoiDetailPage(props: PageProps) {
  const ref = useDeviceRef();
  return ref ? <LoadedPage {...props} deviceRef={ref} /> : <NotFound />;
}

function LoadedPage({ deviceRef, ...props }: PageProps & { deviceRef: DeviceRef }) {
  const lang = useLang();
  const { hashId } = useParams();
  const info = useDeviceInfo(deviceRef, lang);
  if (info.isPending) return <PageLoading />;
  if (info.isError) {
    if (isApiError(info.error) && (info.error.code === 1404 || info.error.status === 404)) return <NotFound />;
    return (
      <div className="fw-page">
        <ServerErrorAlert error={info.error} />
      </div>
    );
  }
  const device = info.data;
  const canonical = poiDetailPath(device);
  if (canonical && (device.page !== props.kind || device.hashId !== hashId)) return <Navigate to={canonical} replace />;
  return <DeviceDetail {...props} device={device} />;
}
