/** Every screen's path in one place; the router and the menus read it. */
export const paths = {
  home: '/',
  login: '/login',

  devices: '/apps/devices',
  rules: '/apps/rules',
  events: '/apps/events',
  aiLab: '/apps/aiLab',
  overview: '/apps/overview',
  advice: '/apps/advice',
  modelService: {
    root: '/apps/model-service',
    samples: '/apps/model-service/samples',
    sampleLabel: '/apps/model-service/samples/:sampleId',
    sampleSets: '/apps/model-service/sample-sets',
    applications: '/apps/model-service/applications',
    models: '/apps/model-service/models',
    detections: '/apps/model-service/detections',
  },
  moistureReport: '/apps/service/moisture-report',
  deviceInfo: '/apps/info',
  authorized: '/apps/authoried/:type',
  poi: {
    liquidometer: '/apps/poi/liquidometer/:hashId/:deviceId',
    ibiosense: '/apps/poi/ibiosense/:hashId/:deviceId',
    tianqi: '/apps/poi/tianqi/:hashId/:deviceId',
    pluviometer: '/apps/poi/pluviometer/:hashId',
    moisture: '/apps/poi/moisture/:hashId/:deviceId',
    zhiShang: '/apps/poi/zhi-shang/:hashId/:deviceId',
    yunYao: '/apps/poi/yun-yao/:hashId/:deviceId',
    dcr004: '/apps/poi/dcr004/:hashId/:deviceId',
    shanJing: '/apps/poi/shan-jing/:hashId/:deviceId',
  },

  et0: '/console/service/et0',
  et0Detail: '/console/et0/detail/:id',
  exper: '/console/exper',
  dataPush: {
    root: '/console/data/push/',
    config: '/console/data/push/config',
    log: '/console/data/push/log',
    help: '/console/data/push/help',
  },
  openApi: '/console/api',
  feedback: '/console/feedback',
  changelog: '/console/release/log',
  account: '/console/account',
  sharing: '/console/authorization',
  legacyDeviceDetail: '/console/poi/detail',
  audioTest: '/test/audio',

  uniPortal: '/uni-portal/:sn',
  externalDevice: '/external-device/:checkParams',

  mobile: {
    root: '/apps/mobile',
    devices: '/apps/mobile/devices',
    messages: '/apps/mobile/messages',
    profile: '/apps/mobile/profile',
    account: '/apps/mobile/account',
    authorization: '/apps/mobile/authorization',
    acceptGrant: '/apps/mobile/authorization/accept/:credential',
    acceptTransfer: '/apps/mobile/transfer/accept/:credential',
    moistureReport: '/apps/mobile/moisture-report',
    moistureReportOpen: '/apps/mobile/moisture-report/:configId',
    advice: '/apps/mobile/advice',
    poi: {
      root: '/apps/mobile/poi/:hashId/:deviceId',
      realtime: '/apps/mobile/poi/:hashId/:deviceId/realtime',
      history: '/apps/mobile/poi/:hashId/:deviceId/history',
      about: '/apps/mobile/poi/:hashId/:deviceId/about',
      aboutProfile: '/apps/mobile/poi/:hashId/:deviceId/about/profile',
    },
  },
} as const;

/** Device types with a real-time screen on the phone, by their path segment. */
export const mobileRealtimeTypes = [
  'liquidometer',
  'ibiosense',
  'shan-jing',
  'moisture',
  'zhi-shang',
  'meteorological-moisture',
  'tianqi',
  'pluviometer',
  'yun-yao',
  'dcr004',
] as const;

export function mobileRealtimePath(hashId: string, deviceId: string, type: string): string {
  return `/apps/mobile/poi/${encodeURIComponent(hashId)}/${encodeURIComponent(deviceId)}/realtime/${type}`;
}

export function loginPath(redirect?: string): string {
  return redirect ? `${paths.login}?redirect=${encodeURIComponent(redirect)}` : paths.login;
}
