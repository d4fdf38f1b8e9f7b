import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { mobileRealtimeTypes, paths } from '@/config/paths';
import { loadFeatureTexts } from '@/lib/i18n';
import { PlainLayout } from './layouts/plain-layout';
import { RootLayout } from './layouts/root-layout';
import { RequireAuth } from './require-auth';
import type { PageKey, RouteHandle } from './route-handle';
import { RouteError } from './routes/route-error';

/**
 * Loads a route module's default export when the route is first visited, with the feature texts
 * of the current language (a console page's components read them as they render).
 */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => {
    const [module] = await Promise.all([load(), loadFeatureTexts()]);
    return { Component: module.default };
  };
}

/** A page that needs only the core texts: the login page, not-found. */
function corePage(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/**
 * Loads a named component (a layout, a placeholder) when a route using it is first matched: the
 * login page does not download the console's menus or the phone layouts, and a desktop page not
 * antd-mobile.
 */
function component<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => {
    const [module] = await Promise.all([load(), loadFeatureTexts()]);
    return { Component: pick(module) };
  };
}

const AntdShell = component(() => import('./antd-shell'), (m) => m.AntdShell);
const DesktopLayout = component(() => import('./layouts/desktop-layout'), (m) => m.DesktopLayout);
const MobileLayout = component(() => import('./layouts/mobile-layout'), (m) => m.MobileLayout);
const MobileTabLayout = component(() => import('./layouts/mobile-tab-layout'), (m) => m.MobileTabLayout);
const MobileDeviceLayout = component(() => import('./layouts/mobile-device-layout'), (m) => m.MobileDeviceLayout);

function handle(title: PageKey): RouteHandle {
  return { title };
}

const realtimeTitles: Record<(typeof mobileRealtimeTypes)[number], PageKey> = {
  liquidometer: 'liquidometer',
  ibiosense: 'ibiosense',
  'shan-jing': 'shanJing',
  moisture: 'moisture',
  'zhi-shang': 'zhiShang',
  'meteorological-moisture': 'meteorologicalMoisture',
  tianqi: 'tianqi',
  pluviometer: 'pluviometer',
  'yun-yao': 'yunYao',
  dcr004: 'dcr004',
};

const desktopRoutes: RouteObject[] = [
  { index: true, element: <Navigate to={paths.devices} replace /> },
  { path: paths.devices, handle: handle('devices'), lazy: page(() => import('./routes/desktop/devices')) },
  { path: paths.rules, handle: handle('rules'), lazy: page(() => import('./routes/desktop/rules')) },
  { path: paths.events, handle: handle('events'), lazy: page(() => import('./routes/desktop/events')) },
  { path: paths.aiLab, handle: handle('aiLab'), lazy: page(() => import('./routes/desktop/ailab/home')) },
  { path: paths.overview, handle: handle('overview'), lazy: page(() => import('./routes/desktop/overview')) },
  { path: paths.advice, handle: handle('advice'), lazy: page(() => import('./routes/desktop/advice')) },
  {
    path: paths.modelService.root,
    handle: handle('modelService'),
    children: [
      // The model service starts at its samples.
      { index: true, element: <Navigate to={paths.modelService.samples} replace /> },
      { path: paths.modelService.samples, handle: handle('modelSamples'), lazy: page(() => import('./routes/desktop/ailab/samples')) },
      { path: paths.modelService.sampleLabel, handle: handle('modelSampleLabel'), lazy: page(() => import('./routes/desktop/ailab/sample-label')) },
      { path: paths.modelService.sampleSets, handle: handle('modelSampleSets'), lazy: page(() => import('./routes/desktop/ailab/sample-sets')) },
      { path: paths.modelService.applications, handle: handle('modelApplications'), lazy: page(() => import('./routes/desktop/ailab/applications')) },
      { path: paths.modelService.models, handle: handle('modelUpload'), lazy: page(() => import('./routes/desktop/ailab/models')) },
      { path: paths.modelService.detections, handle: handle('modelDetections'), lazy: page(() => import('./routes/desktop/ailab/detections')) },
    ],
  },
  { path: paths.moistureReport, handle: handle('moistureReport'), lazy: page(() => import('./routes/desktop/moisture-report')) },
  { path: paths.poi.liquidometer, handle: handle('liquidometer'), lazy: page(() => import('./routes/desktop/poi/liquidometer')) },
  { path: paths.poi.ibiosense, handle: handle('ibiosense'), lazy: page(() => import('./routes/desktop/poi/ibiosense')) },
  { path: paths.poi.tianqi, handle: handle('tianqi'), lazy: page(() => import('./routes/desktop/poi/tianqi')) },
  { path: paths.poi.pluviometer, handle: handle('pluviometer'), lazy: page(() => import('./routes/desktop/poi/pluviometer')) },
  { path: paths.poi.moisture, handle: handle('moisture'), lazy: page(() => import('./routes/desktop/poi/moisture')) },
  { path: paths.poi.zhiShang, handle: handle('zhiShang'), lazy: page(() => import('./routes/desktop/poi/zhi-shang')) },
  { path: paths.poi.yunYao, handle: handle('yunYao'), lazy: page(() => import('./routes/desktop/poi/yun-yao')) },
  { path: paths.poi.dcr004, handle: handle('dcr004'), lazy: page(() => import('./routes/desktop/poi/dcr004')) },
  { path: paths.poi.shanJing, handle: handle('shanJing'), lazy: page(() => import('./routes/desktop/poi/shan-jing')) },
  { path: paths.et0, handle: handle('et0'), lazy: page(() => import('./routes/desktop/et0')) },
  { path: paths.et0Detail, handle: handle('et0Detail'), lazy: page(() => import('./routes/desktop/et0-detail')) },
  { path: paths.exper, handle: handle('exper'), lazy: page(() => import('./routes/desktop/water-use')) },
  {
    path: paths.dataPush.root,
    handle: handle('dataPush'),
    children: [
      { index: true, lazy: page(() => import('./routes/desktop/data-push/channels')) },
      { path: paths.dataPush.config, handle: handle('dataPushConfig'), lazy: page(() => import('./routes/desktop/data-push/config')) },
      { path: paths.dataPush.log, handle: handle('dataPushLog'), lazy: page(() => import('./routes/desktop/data-push/log')) },
      { path: paths.dataPush.help, handle: handle('dataPushHelp'), lazy: page(() => import('./routes/desktop/data-push/help')) },
    ],
  },
  { path: paths.openApi, handle: handle('openApi'), lazy: page(() => import('./routes/desktop/open-api')) },
  { path: paths.feedback, handle: handle('feedback'), lazy: page(() => import('./routes/desktop/feedback')) },
  { path: paths.changelog, handle: handle('changelog'), lazy: page(() => import('./routes/desktop/changelog')) },
  { path: paths.account, handle: handle('account'), lazy: page(() => import('./routes/desktop/account')) },
  { path: paths.sharing, handle: handle('sharing'), lazy: page(() => import('./routes/desktop/sharing')) },
  { path: paths.legacyDeviceDetail, handle: handle('legacyDeviceDetail'), lazy: page(() => import('./routes/desktop/legacy-detail')) },
  { path: paths.audioTest, handle: handle('audioTest'), lazy: page(() => import('./routes/desktop/audio-test')) },
];

const mobileRoutes: RouteObject[] = [
  {
    lazy: MobileTabLayout,
    children: [
      { index: true, element: <Navigate to={paths.mobile.devices} replace /> },
      { path: paths.mobile.devices, handle: handle('mobileDevices'), lazy: page(() => import('./routes/mobile/devices')) },
      { path: paths.mobile.messages, handle: handle('messages'), lazy: page(() => import('./routes/mobile/messages')) },
      { path: paths.mobile.profile, handle: handle('profile'), lazy: page(() => import('./routes/mobile/profile')) },
    ],
  },
  { path: paths.mobile.account, handle: handle('account'), lazy: page(() => import('./routes/mobile/account')) },
  { path: paths.mobile.authorization, handle: handle('authorization'), lazy: page(() => import('./routes/mobile/authorization')) },
  { path: paths.mobile.moistureReport, handle: handle('moistureReport'), lazy: page(() => import('./routes/mobile/moisture-report')) },
  { path: paths.mobile.moistureReportOpen, handle: handle('moistureReport'), lazy: page(() => import('./routes/mobile/moisture-report-open')) },
  { path: paths.mobile.advice, handle: handle('advice'), lazy: page(() => import('./routes/mobile/advice')) },
  { path: paths.mobile.acceptGrant, handle: handle('acceptGrant'), lazy: page(() => import('./routes/mobile/accept-link')) },
  { path: paths.mobile.acceptTransfer, handle: handle('acceptTransfer'), lazy: page(() => import('./routes/mobile/accept-link')) },
  {
    path: paths.mobile.poi.root,
    lazy: MobileDeviceLayout,
    children: [
      { index: true, element: <Navigate to="realtime" replace /> },
      {
        path: paths.mobile.poi.realtime,
        handle: handle('realtime'),
        children: [
          { index: true, lazy: page(() => import('./routes/mobile/poi/realtime')) },
          ...mobileRealtimeTypes.map((type) => ({
            path: type,
            handle: handle(realtimeTitles[type]),
            lazy: page(() => import('./routes/mobile/poi/realtime')),
          })),
        ],
      },
      { path: paths.mobile.poi.history, handle: handle('history'), lazy: page(() => import('./routes/mobile/poi/history')) },
      {
        path: paths.mobile.poi.about,
        handle: handle('about'),
        children: [
          { index: true, lazy: page(() => import('./routes/mobile/poi/about')) },
          { path: paths.mobile.poi.aboutProfile, handle: handle('deviceProfile'), lazy: page(() => import('./routes/mobile/poi/about-profile')) },
        ],
      },
    ],
  },
];

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      // Drawn without antd, so its first paint waits for nothing but the entry and its texts.
      { path: paths.login, handle: handle('login'), lazy: corePage(() => import('./routes/login')) },
      {
        // The screens drawn with antd: the desktop console and the pages anyone may open.
        lazy: AntdShell,
        children: [
          {
            // Reached by scanning a device or from a partner's site: no login check.
            Component: PlainLayout,
            children: [
              { path: paths.uniPortal, handle: handle('uniPortal'), lazy: page(() => import('./routes/uni-portal')) },
              { path: paths.externalDevice, handle: handle('externalDevice'), lazy: page(() => import('./routes/external-device')) },
              // A share or transfer link: describes itself to anyone, asks for a login to accept.
              { path: paths.authorized, handle: handle('authorized'), lazy: page(() => import('./routes/authorized')) },
            ],
          },
          {
            Component: RequireAuth,
            children: [
              { lazy: DesktopLayout, children: desktopRoutes },
              {
                Component: PlainLayout,
                children: [{ path: paths.deviceInfo, handle: handle('deviceInfo'), lazy: page(() => import('./routes/device-info')) }],
              },
            ],
          },
        ],
      },
      {
        // The phone screens: antd-mobile, loaded with their layout.
        Component: RequireAuth,
        children: [{ path: paths.mobile.root, lazy: MobileLayout, children: mobileRoutes }],
      },
      { path: '*', handle: handle('notFound'), lazy: corePage(() => import('./routes/not-found')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
