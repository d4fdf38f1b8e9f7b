package httpapi

import (
	"net/http"
	"slices"

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
	return append([]route{
		{"POST", "/apis/account/login", s.public(s.login)},
		{"POST", "/apis/account/logout", s.public(s.logout)},
		{"GET", "/apis/account/profile", s.authed(s.profile)},
		{"PUT", "/apis/account/name", s.authed(s.rename)},
		{"PUT", "/apis/account/password", s.authed(s.changePassword)},
		{"POST", "/apis/account/password", s.authed(s.changePasswordLegacy)},

		{"GET", "/apis/devices", s.authed(s.listDevices)},
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
		{"PUT", "/apis/poi/{id}/config", s.dev(devices.NeedSettings, s.putConfig)},
		{"GET", "/apis/poi/{id}/datapoints/v2/metadata", s.dev(devices.NeedRead, s.metadata)},
		{"GET", "/apis/poi/{id}/datapoints/v2", s.dev(devices.NeedRead, s.datapointsV2)},
		{"GET", "/apis/poi/{id}/datapoints/v3", s.dev(devices.NeedRead, s.datapointsV3)},
		{"POST", "/apis/poi/{id}/datapoints/export", s.dev(devices.NeedExport, s.createExport)},
		{"GET", "/apis/poi/{id}/datapoints/export/{taskId}", s.dev(devices.NeedRead, s.exportStatus)},
		{"GET", "/apis/poi/{id}/images", s.dev(devices.NeedRead, s.images)},
		{"GET", "/apis/poi/{id}/images/{imageId}", s.dev(devices.NeedRead, s.image)},
		{"POST", "/apis/poi/{id}/tag", s.dev(devices.NeedRead, s.tagDevice)},
		{"DELETE", "/apis/poi/{id}/tag/{tagId}", s.dev(devices.NeedRead, s.untagDevice)},
		{"GET", "/apis/poi/info", s.dev(devices.NeedRead, s.poiInfo)},
		{"GET", "/apis/poi/detail", s.dev(devices.NeedRead, s.poiDetail)},
		{"GET", "/apis/poi/encryption", s.dev(devices.NeedOwner, s.poiEncryption)},
		{"GET", "/apis/poi/topology", s.dev(devices.NeedRead, s.poiTopology)},
		{"GET", "/apis/poi/scan", s.authed(s.poiScan)},
		{"PUT", "/apis/poi/scan/bind", s.authed(s.poiBind)},
		{"GET", "/apis/export/device/info", s.authed(s.exportDevices)},
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

		// The device link over HTTP: HTTP Basic auth with SN and device key.
		{"POST", "/ingest/v1/{kind}", http.HandlerFunc(s.ingest)},

		{"GET", "/healthz", http.HandlerFunc(s.healthz)},
		{"GET", "/metrics", s.metrics.Handler()},
		// Every other path is the web app, which routes on the client.
		{"GET", "/", http.HandlerFunc(s.app)},
	}, slices.Concat(s.analysisRoutes(), s.pushRoutes(), s.openAPIRoutes())...)
}
