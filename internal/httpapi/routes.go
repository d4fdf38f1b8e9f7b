package httpapi

import (
	"net/http"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// route is one entry of the HTTP route table.
type route struct {
	method, path string
	handler      http.Handler
}

// routes is the whole route table. Handlers wrapped in public() need no
// session; authed() ones answer code 2 without one; dev(need, …) ones are
// device-scoped: the caller must hold need on the device the call names
// (see dev). Calls naming devices in their body check each through the same
// devices.Service.Authorize.
func (s *Server) routes() []route {
	return []route{
		{"POST", "/apis/account/login", s.public(s.login)},
		{"POST", "/apis/account/logout", s.public(s.logout)},
		{"GET", "/apis/account/profile", s.authed(s.profile)},
		{"GET", "/apis/account/session", s.public(s.currentSession)},
		{"GET", "/apis/wechat/jssdk", s.public(s.wechatJSSDK)},
		{"PUT", "/apis/account/name", s.authed(s.rename)},
		{"PUT", "/apis/account/password", s.authed(s.changePassword)},
		{"POST", "/apis/account/password", s.authed(s.changePasswordLegacy)},

		{"GET", "/apis/devices", s.authed(s.listDevices)},

		{"GET", "/apis/ailab/samples", s.authed(s.listSamples)},
		{"POST", "/apis/ailab/samples", s.authed(s.sampleFromImage)},
		{"POST", "/apis/ailab/samples/upload", s.authed(s.uploadSample)},
		{"GET", "/apis/ailab/samples/{sampleId}", s.authed(s.getSample)},
		{"GET", "/apis/ailab/samples/{sampleId}/image", s.authed(s.sampleImage)},
		{"PUT", "/apis/ailab/samples/{sampleId}", s.authed(s.putSample)},
		{"DELETE", "/apis/ailab/samples/{sampleId}", s.authed(s.deleteSample)},
		{"GET", "/apis/ailab/elements", s.authed(s.listElements)},
		{"POST", "/apis/ailab/elements", s.authed(s.createElement)},
		{"DELETE", "/apis/ailab/elements/{elementId}", s.authed(s.deleteElement)},
		{"GET", "/apis/ailab/sets", s.authed(s.listSets)},
		{"POST", "/apis/ailab/sets", s.authed(s.createSet)},
		{"GET", "/apis/ailab/sets/{setId}", s.authed(s.getSet)},
		{"PUT", "/apis/ailab/sets/{setId}", s.authed(s.putSet)},
		{"DELETE", "/apis/ailab/sets/{setId}", s.authed(s.deleteSet)},
		{"GET", "/apis/ailab/sets/{setId}/export", s.authed(s.exportSet)},
		{"GET", "/apis/map/all", s.authed(s.mapAll)},
		{"GET", "/apis/map/config", s.authed(s.mapConfig)},
		{"GET", "/apis/poi/{id}/intro", s.dev(devices.NeedRead, s.poiIntro)},
		{"GET", "/apis/poi/{id}/profile", s.dev(devices.NeedRead, s.poiProfile)},
		{"PUT", "/apis/poi/{id}/profile", s.dev(devices.NeedRename, s.putProfile)},
		{"GET", "/apis/poi/{id}/detect", s.dev(devices.NeedRead, s.poiDetect)},
		{"GET", "/apis/poi/{id}/tags", s.dev(devices.NeedRead, s.poiTags)},
		{"GET", "/apis/poi/{id}/indicator", s.dev(devices.NeedRead, s.poiIndicator)},
		{"GET", "/apis/poi/{id}/sales", s.dev(devices.NeedRead, s.poiSales)},
		{"DELETE", "/apis/poi/{id}/remove", s.dev(devices.NeedOwner, s.poiRemove)},
		{"GET", "/apis/poi/{id}/config", s.dev(devices.NeedRead, s.poiConfig)},
		{"GET", "/apis/poi/{id}/commands/definitions", s.dev(devices.NeedRead, s.commandDefs)},
		{"GET", "/apis/poi/{id}/commands", s.dev(devices.NeedControl, s.listCommands)},
		{"POST", "/apis/poi/{id}/commands", s.dev(devices.NeedControl, s.sendCommand)},
		{"GET", "/apis/poi/{id}/commands/{commandId}", s.dev(devices.NeedControl, s.getCommand)},
		{"PUT", "/apis/poi/{id}/config", s.dev(devices.NeedSettings, s.putConfig)},
		{"GET", "/apis/poi/{id}/datapoints/v2/metadata", s.dev(devices.NeedRead, s.metadata)},
		{"GET", "/apis/poi/{id}/datapoints/v2", s.dev(devices.NeedRead, s.datapointsV2)},
		{"GET", "/apis/poi/{id}/datapoints/v3", s.dev(devices.NeedRead, s.datapointsV3)},
		{"POST", "/apis/poi/{id}/datapoints/export", s.dev(devices.NeedExport, s.createExport)},
		{"GET", "/apis/poi/{id}/datapoints/export/{taskId}", s.dev(devices.NeedRead, s.exportStatus)},
		{"GET", "/apis/poi/{id}/datapoints/export/{taskId}/file", s.dev(devices.NeedExport, s.exportFile)},
		{"GET", "/apis/poi/{id}/images", s.dev(devices.NeedRead, s.images)},
		{"GET", "/apis/poi/{id}/images/{imageId}", s.dev(devices.NeedRead, s.image)},
		{"POST", "/apis/poi/{id}/tag", s.dev(devices.NeedRead, s.tagDevice)},
		{"DELETE", "/apis/poi/{id}/tag/{tagId}", s.dev(devices.NeedRead, s.untagDevice)},
		{"GET", "/apis/poi/info", s.dev(devices.NeedRead, s.poiInfo)},
		{"GET", "/apis/poi/detail", s.dev(devices.NeedRead, s.poiDetail)},
		{"GET", "/apis/poi/encryption", s.dev(devices.NeedOwner, s.poiEncryption)},
		{"POST", "/apis/poi/{id}/certificate", s.dev(devices.NeedOwner, s.issueCertificate)},
		{"GET", "/apis/poi/{id}/certificates", s.dev(devices.NeedOwner, s.listCertificates)},
		{"DELETE", "/apis/poi/{id}/certificate/{serial}", s.dev(devices.NeedOwner, s.revokeCertificate)},
		{"GET", "/apis/poi/{id}/portal", s.dev(devices.NeedOwner, s.portalStatus)},
		{"POST", "/apis/poi/{id}/portal", s.dev(devices.NeedOwner, s.portalCreate)},
		{"DELETE", "/apis/poi/{id}/portal", s.dev(devices.NeedOwner, s.portalRevoke)},
		{"POST", "/apis/poi/encryption/rotate", s.dev(devices.NeedOwner, s.rotateKey)},
		{"GET", "/apis/poi/topology", s.dev(devices.NeedRead, s.poiTopology)},
		{"GET", "/apis/poi/scan", s.authed(s.poiScan)},
		{"PUT", "/apis/poi/scan/bind", s.authed(s.poiBind)},
		{"GET", "/apis/bixu/detect", s.authed(s.bixuDetect)},
		{"POST", "/apis/bixu/bind", s.authed(s.bixuBind)},
		{"GET", "/apis/export/device/info", s.authed(s.exportDevices)},
		{"GET", "/apis/export/config", s.authed(s.exportConfig)},
		{"GET", "/apis/tags", s.authed(s.listTags)},
		{"POST", "/apis/tag", s.authed(s.createTag)},
		{"DELETE", "/apis/tag/{id}", s.authed(s.deleteTag)},

		{"GET", "/apis/rules", s.authed(s.listRules)},
		{"POST", "/apis/rule", s.authed(s.createRule)},
		{"GET", "/apis/rule/types", s.authed(s.ruleTypes)},
		{"GET", "/apis/rule/devices", s.authed(s.ruleDevices)},
		{"GET", "/apis/rule/params", s.authed(s.ruleParams)},
		{"GET", "/apis/rule/templates", s.authed(s.ruleTemplates)},
		{"GET", "/apis/rule/{id}", s.authed(s.getRule)},
		{"PUT", "/apis/rule/{id}", s.authed(s.putRule)},
		{"DELETE", "/apis/rule/{id}", s.authed(s.deleteRule)},
		{"GET", "/apis/event/messages", s.authed(s.listEvents)},
		{"OPTIONS", "/apis/event/messages", s.authed(s.unreadMessages)},
		{"PUT", "/apis/event/messages/read", s.authed(s.readMessages)},
		{"GET", "/apis/event/events", s.authed(s.listEvents)},
		{"GET", "/apis/event/rules", s.authed(s.listRules)},
		{"GET", "/apis/event/devices", s.authed(s.ruleDevices)},
		{"GET", "/apis/jianli/rule_id", s.authed(s.ruleIDs)},

		{"PUT", "/apis/grant/credential", s.authed(s.grantLink)},
		{"PUT", "/apis/transfer/credential", s.authed(s.transferLink)},
		{"GET", "/apis/device/credential/{id}", s.public(s.describeLink)},
		{"POST", "/apis/grant/accept/{id}", s.authed(s.acceptLink)},
		{"GET", "/apis/authorized/devices", s.authed(s.sharedWithMe)},
		{"DELETE", "/apis/authorized/devices/{id}", s.authed(s.giveBack)},
		{"GET", "/apis/granted/devices", s.authed(s.grantedDevices)},
		{"DELETE", "/apis/granted/devices/{id}", s.dev(devices.NeedOwner, s.revokeDevice)},
		{"GET", "/apis/granted/users", s.authed(s.grantedUsers)},
		{"DELETE", "/apis/granted/users/{id}", s.authed(s.revokeUser)},
		{"GET", "/apis/poi/{id}/authorized", s.dev(devices.NeedOwner, s.grantees)},
		{"DELETE", "/apis/poi/{id}/authorized", s.dev(devices.NeedOwner, s.revokeGrantee)},
		{"PUT", "/apis/poi/modify/permissions", s.authed(s.modifyPermissions)},
		{"GET", "/apis/poi/query/permissions", s.dev(devices.NeedRead, s.queryPermissions)},

		// Soil, weather, rain-gauge and landslide analyses (docs/analyses.md). Calls
		// without {id} name their device with ?id=; the crop and soil-settings writes
		// may name it in their body instead, so their handlers authorize it
		// themselves (settingsWrite).
		{"GET", "/apis/poi/analysis/moisture", s.dev(devices.NeedRead, s.soilMoisture)},
		{"GET", "/apis/poi/analysis/et_root", s.dev(devices.NeedRead, s.etRoot)},
		{"GET", "/apis/poi/et0_kc", s.dev(devices.NeedRead, s.etAnalysis)},
		{"GET", "/apis/poi/data/sqy/query", s.dev(devices.NeedRead, s.moistureData)},
		{"GET", "/apis/poi/param/list", s.dev(devices.NeedRead, s.analysisParams)},
		{"GET", "/apis/poi/data/query", s.dev(devices.NeedRead, s.analysisData)},
		{"GET", "/apis/poi/week/weather", s.dev(devices.NeedRead, s.weekWeather)},
		{"GET", "/apis/poi/rainfall", s.dev(devices.NeedRead, s.weekRain)},
		{"GET", "/apis/poi/et0", s.dev(devices.NeedRead, s.weekET0)},
		{"PUT", "/apis/poi/crop/update", s.authed(s.updateCrop)},
		{"POST", "/apis/poi/crop/update", s.authed(s.updateCrop)},
		{"GET", "/apis/poi/tilt/yaw", s.dev(devices.NeedRead, s.tiltYaw)},
		{"GET", "/apis/poi/seven/mete", s.dev(devices.NeedRead, s.sevenMete)},

		{"GET", "/apis/poi/shang/status", s.dev(devices.NeedRead, s.soilStatus)},
		{"GET", "/apis/poi/shang/irriRecognition", s.dev(devices.NeedRead, s.irrigations)},
		{"GET", "/apis/poi/shang/infiltration", s.dev(devices.NeedRead, s.infiltration)},
		{"GET", "/apis/poi/shang/waterlogging", s.dev(devices.NeedRead, s.waterlogging)},
		{"GET", "/apis/poi/shang/freezeThaw", s.dev(devices.NeedRead, s.freezeThaw)},
		{"GET", "/apis/poi/shang/rootdepth", s.dev(devices.NeedRead, s.rootDepth)},
		{"GET", "/apis/poi/shang/detail", s.dev(devices.NeedRead, s.soilDetail)},
		{"GET", "/apis/poi/shang/nodes", s.dev(devices.NeedRead, s.soilNodes)},
		{"GET", "/apis/poi/shang/config", s.dev(devices.NeedRead, s.soilConfig)},
		{"PUT", "/apis/poi/shang/config", s.authed(s.putSoilConfig)},
		{"GET", "/apis/poi/shang/etc_et0_kc", s.dev(devices.NeedRead, s.etAnalysis)},
		{"GET", "/apis/poi/shan/trend", s.dev(devices.NeedRead, s.tiltTrend)},

		{"GET", "/apis/poi/{id}/pluviometer/early-warning", s.dev(devices.NeedRead, s.rainWarning)},
		{"GET", "/apis/poi/{id}/pluviometer/latest", s.dev(devices.NeedRead, s.rainLatest)},
		{"GET", "/apis/poi/{id}/pluviometer/i-d", s.dev(devices.NeedRead, s.rainID)},
		{"GET", "/apis/poi/{id}/pluviometer/i-d/range", s.dev(devices.NeedRead, s.rainIDRange)},
		{"GET", "/apis/poi/{id}/pluviometer/realtime", s.dev(devices.NeedRead, s.rainRealtime)},
		{"GET", "/apis/poi/{id}/pluviometer/stats", s.dev(devices.NeedRead, s.rainStats)},
		{"GET", "/apis/poi/{id}/pluviometer/stats_data", s.dev(devices.NeedRead, s.rainSeries)},
		{"GET", "/apis/poi/{id}/pluviometer/installing", s.dev(devices.NeedRead, s.rainInstallation)},

		{"GET", "/apis/qi/{id}/data/realtime", s.dev(devices.NeedRead, s.weatherNow)},
		{"GET", "/apis/qi/weather/alert", s.dev(devices.NeedRead, s.weatherAlerts)},
		{"GET", "/apis/qi/fwi/statistics", s.dev(devices.NeedRead, s.fwiStatistics)},
		{"GET", "/apis/qi/fwi/history", s.dev(devices.NeedRead, s.fwiHistory)},
		{"GET", "/apis/qi/data/history", s.dev(devices.NeedRead, s.weatherHistory)},

		// The thingverse device API: a device named by its URN,
		// urn:fieldwatch:device:{sn} (docs/api.md, docs/decisions.md).
		{"GET", "/apis/thingverse/device/{urn}", s.urn(devices.NeedRead, s.tvDevice)},
		{"GET", "/apis/thingverse/device/{urn}/metadata", s.urn(devices.NeedRead, s.metadata)},
		{"GET", "/apis/thingverse/device/{urn}/telemetry", s.urn(devices.NeedRead, s.poiDetect)},
		{"GET", "/apis/thingverse/device/{urn}/indicators", s.urn(devices.NeedRead, s.poiIndicator)},
		{"GET", "/apis/thingverse/device/{urn}/blobs", s.urn(devices.NeedRead, s.images)},
		{"GET", "/apis/thingverse/device/{urn}/et0", s.urn(devices.NeedRead, s.weekET0)},
		{"GET", "/apis/thingverse/device/{urn}/insect/statistics", s.urn(devices.NeedRead, s.tvInsects)},
		{"PUT", "/apis/thingverse/device/{urn}/label", s.urn(devices.NeedRename, s.tvLabel)},
		{"POST", "/apis/thingverse/device/{urn}/services/{name}", s.urn(devices.NeedControl, s.tvService)},

		// The unified portal: no session, a device's portal link instead
		// (X-Portal-Token; docs/api.md, docs/decisions.md).
		{"GET", "/apis/uni/integration/theme", s.public(s.uniTheme)},
		{"GET", "/apis/uni/device/{sn}", s.uni(s.uniDevice)},
		{"GET", "/apis/uni/device/{sn}/metadata", s.uni(portalCall(s.metadata))},
		{"GET", "/apis/uni/device/{sn}/datapoints", s.uni(portalCall(s.datapointsV2))},
		{"GET", "/apis/uni/device/{sn}/commands/definitions", s.uni(portalCall(s.commandDefs))},
		{"GET", "/apis/uni/device/{sn}/commands", s.uni(s.uniCommands)},
		{"POST", "/apis/uni/device/{sn}/commands", s.uni(s.uniSend)},

		// Data push channels (docs/api.md).
		{"GET", "/apis/integration/channel/list", s.authed(s.channelList)},
		{"GET", "/apis/integration/channel/get", s.authed(s.channelGet)},
		{"POST", "/apis/integration/channel/create", s.authed(s.channelCreate)},
		{"PUT", "/apis/integration/channel/update", s.authed(s.channelUpdate)},
		{"DELETE", "/apis/integration/channel/delete", s.authed(s.channelDelete)},
		{"PUT", "/apis/integration/channel/switch", s.authed(s.channelSwitch)},
		{"GET", "/apis/integration/channel/selectDevices", s.authed(s.channelDevices)},
		{"PUT", "/apis/integration/channel/selectDevices", s.authed(s.channelSetDevices)},
		{"GET", "/apis/integration/channel/selector", s.authed(s.channelSelector)},
		{"GET", "/apis/integration/channel/getConnectionData", s.authed(s.channelConnection)},
		{"POST", "/apis/integration/channel/secret", s.authed(s.channelSecret)},
		{"GET", "/apis/integration/channel/pushLogList", s.authed(s.pushLog)},
		{"POST", "/apis/integration/channel/retry", s.authed(s.pushRetry)},

		// Open-API applications, and the open API itself: signed with an app key (docs/open-api.md).
		{"GET", "/apis/openapi/applications", s.authed(s.appList)},
		{"POST", "/apis/openapi/application", s.authed(s.appCreate)},
		{"GET", "/apis/openapi/application/{id}", s.authed(s.appGet)},
		{"PUT", "/apis/openapi/application/{id}", s.authed(s.appUpdate)},
		{"DELETE", "/apis/openapi/application/{id}", s.authed(s.appDelete)},
		{"PUT", "/apis/openapi/application/{id}/publish", s.authed(s.appPublish)},
		{"POST", "/apis/openapi/application/{id}/secret", s.authed(s.appSecret)},
		{"GET", "/apis/openapi/spec.json", http.HandlerFunc(s.openAPISpec)},
		{"GET", "/openapi/v1/devices", s.signed(s.oaDevices)},
		{"GET", "/openapi/v1/devices/{sn}", s.signed(s.oaDevice)},
		{"GET", "/openapi/v1/devices/{sn}/latest", s.signed(s.oaLatest)},
		{"GET", "/openapi/v1/devices/{sn}/history", s.signed(s.oaHistory)},
		{"GET", "/apis/oem/gov-lsw/{id}/shanjing", s.signed(s.oemShanjing)},
		{"GET", "/apis/oem/gov-lsw/{id}/pluviometer", s.signed(s.oemPluviometer)},

		// The device link over HTTP: HTTP Basic auth with SN and device key.
		{"POST", "/ingest/v1/{kind}", http.HandlerFunc(s.ingest)},
		{"POST", "/ingest/v1/commands/ack", http.HandlerFunc(s.ingestAck)},
		{"POST", "/activate", s.public(s.activate)},

		{"GET", "/healthz", http.HandlerFunc(s.healthz)},
		{"GET", "/metrics", http.HandlerFunc(s.appPortMetrics)},
		// Every other path is the web app, which routes on the client.
		{"GET", "/", http.HandlerFunc(s.app)},
	}
}
