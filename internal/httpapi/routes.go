package httpapi

import "net/http"

// route is one entry of the HTTP route table.
type route struct {
	method, path string
	handler      http.Handler
}

// routes is the whole route table. Handlers wrapped in public() need no
// session; authed() ones answer code 2 without one.
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
		{"GET", "/apis/poi/{id}/intro", s.authed(s.poiIntro)},
		{"GET", "/apis/poi/{id}/profile", s.authed(s.poiProfile)},
		{"PUT", "/apis/poi/{id}/profile", s.authed(s.putProfile)},
		{"GET", "/apis/poi/{id}/detect", s.authed(s.poiDetect)},
		{"GET", "/apis/poi/{id}/tags", s.authed(s.poiTags)},
		{"GET", "/apis/poi/{id}/indicator", s.authed(s.poiIndicator)},
		{"GET", "/apis/poi/{id}/sales", s.authed(s.poiSales)},
		{"DELETE", "/apis/poi/{id}/remove", s.authed(s.poiRemove)},
		{"GET", "/apis/poi/{id}/config", s.authed(s.poiConfig)},
		{"PUT", "/apis/poi/{id}/config", s.authed(s.putConfig)},
		{"GET", "/apis/poi/{id}/datapoints/v2/metadata", s.authed(s.metadata)},
		{"GET", "/apis/poi/{id}/datapoints/v2", s.authed(s.datapointsV2)},
		{"GET", "/apis/poi/{id}/datapoints/v3", s.authed(s.datapointsV3)},
		{"POST", "/apis/poi/{id}/datapoints/export", s.authed(s.createExport)},
		{"GET", "/apis/poi/{id}/datapoints/export/{taskId}", s.authed(s.exportStatus)},
		{"GET", "/apis/poi/{id}/images", s.authed(s.images)},
		{"GET", "/apis/poi/{id}/images/{imageId}", s.authed(s.image)},
		{"POST", "/apis/poi/{id}/tag", s.authed(s.tagDevice)},
		{"DELETE", "/apis/poi/{id}/tag/{tagId}", s.authed(s.untagDevice)},
		{"GET", "/apis/poi/info", s.authed(s.poiInfo)},
		{"GET", "/apis/poi/detail", s.authed(s.poiDetail)},
		{"GET", "/apis/poi/encryption", s.authed(s.poiEncryption)},
		{"GET", "/apis/poi/topology", s.authed(s.poiTopology)},
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

		// The device link over HTTP: HTTP Basic auth with SN and device key.
		{"POST", "/ingest/v1/{kind}", http.HandlerFunc(s.ingest)},

		{"GET", "/healthz", http.HandlerFunc(s.healthz)},
		{"GET", "/metrics", s.metrics.Handler()},
		// Every other path is the web app, which routes on the client.
		{"GET", "/", http.HandlerFunc(s.app)},
	}, s.analysisRoutes()...)
}
