package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
)

// role is who calls a device-scoped route.
type role int

const (
	stranger role = iota // no relation to the device
	without              // a grantee with no right flag
	with                 // a grantee with rename, settings and export
	owner
)

var roleNames = [...]string{"stranger", "grantee without rights", "grantee with rights", "owner"}

// Outcomes a call may have.
const (
	ok        = "ok"        // code 0
	passes    = "passes"    // through the permission check: neither 1403 nor 1404
	missing   = "missing"   // exactly the answer for a device that does not exist
	modifyNo  = "modifyNo"  // 1403 'No permission to modify!'
	exportNo  = "exportNo"  // 1403 'No permission to export!'
	absentFor = "absentFor" // 1404: the caller holds nothing there (their own view, not a leak)
)

// access is the expected behaviour of one route.
type access struct {
	scope string // "public", "account" (no device), "device"
	need  devices.Need
	kind  string // the device's page kind, or "typeN"; "" a soil station
	path  string // the request path and query when it differs from the route, with placeholders
	body  string // a JSON body with placeholders
	// changes says the call changes grants or removes the device: sharing
	// is restored after it (a removed spare is not used again).
	changes bool
	// setup is a call ("METHOD path body") each role makes first.
	setup  string
	expect map[role]string // overrides of the outcome the need implies
}

// accessTable lists every route of `fieldwatch routes`. A new route without
// an entry here fails TestAccess_EveryRoute: decide who may call it first.
// Placeholders: {id} the device, {urn} its thingverse URN, {uid} the rights-less grantee's account,
// {tag} the caller's tag, {image} an image of the device, {task} the owner's
// export of it, {command} a command the owner sent to it.
var accessTable = map[string]access{
	"POST /apis/account/login":   {scope: "public"},
	"POST /apis/account/logout":  {scope: "public"},
	"GET /apis/account/session":  {scope: "public"},
	"GET /apis/wechat/jssdk":     {scope: "public"},
	"GET /apis/account/profile":  {scope: "account"},
	"PUT /apis/account/name":     {scope: "account"},
	"PUT /apis/account/password": {scope: "account"},
	// POST password resets a forgotten password after a code (no session);
	// its legacy {old, new} form needs one (httpapi's password tests).
	"POST /apis/account/password":           {scope: "public"},
	"GET /apis/account/authorize/ticket":    {scope: "public"},
	"GET /apis/account/bindings/validation": {scope: "account"},
	"GET /apis/account/options":             {scope: "public"},
	"GET /apis/account/wechat/bind/qrcode":  {scope: "account"},
	"POST /apis/account/wechat/bind/qrcode": {scope: "account"},
	"GET /apis/account/qrscan/result":       {scope: "account"},
	"POST /apis/account/wechat/unbind":      {scope: "account"},
	"GET /apis/oauth/qrscan/result":         {scope: "public"},
	// WeChat's server calls these; each checks the signature of --wechat-token.
	"GET /apis/wechat/callback":              {scope: "public"},
	"POST /apis/wechat/callback":             {scope: "public"},
	"POST /apis/account/bindings":            {scope: "account"},
	"DELETE /apis/account/bindings":          {scope: "account"},
	"GET /apis/account/bindings/email/code":  {scope: "account"},
	"GET /apis/account/bindings/mobile/code": {scope: "account"},
	"POST /apis/account/bindings/email":      {scope: "account"},
	"POST /apis/account/bindings/mobile":     {scope: "account"},
	"GET /apis/devices":                      {scope: "account"},
	"GET /apis/map/all":                      {scope: "account"},
	"GET /apis/map/config":                   {scope: "account"},
	"GET /apis/export/device/info":           {scope: "account"},
	"GET /apis/export/config":                {scope: "account"},
	"GET /apis/tags":                         {scope: "account"},
	"POST /apis/tag":                         {scope: "account"},
	"DELETE /apis/tag/{id}":                  {scope: "account"},
	"GET /apis/poi/scan":                     {scope: "account"},
	"PUT /apis/poi/scan/bind":                {scope: "account"},
	"GET /apis/bixu/detect":                  {scope: "account"},
	"POST /apis/bixu/bind":                   {scope: "account"},
	// AI lab samples belong to an account; another's look missing (TestAilabSamples).
	"GET /apis/ailab/samples":                  {scope: "account"},
	"POST /apis/ailab/samples":                 {scope: "account"},
	"POST /apis/ailab/samples/upload":          {scope: "account"},
	"GET /apis/ailab/samples/{sampleId}":       {scope: "account"},
	"GET /apis/ailab/samples/{sampleId}/image": {scope: "account"},
	"PUT /apis/ailab/samples/{sampleId}":       {scope: "account"},
	"DELETE /apis/ailab/samples/{sampleId}":    {scope: "account"},
	"GET /apis/ailab/elements":                 {scope: "account"},
	"POST /apis/ailab/elements":                {scope: "account"},
	"DELETE /apis/ailab/elements/{elementId}":  {scope: "account"},
	"GET /apis/ailab/sets":                     {scope: "account"},
	"POST /apis/ailab/sets":                    {scope: "account"},
	"GET /apis/ailab/sets/{setId}":             {scope: "account"},
	"PUT /apis/ailab/sets/{setId}":             {scope: "account"},
	"DELETE /apis/ailab/sets/{setId}":          {scope: "account"},
	"GET /apis/ailab/sets/{setId}/export":      {scope: "account"},
	// Models too (TestAilabModels).
	"GET /apis/ailab/models":                            {scope: "account"},
	"POST /apis/ailab/models":                           {scope: "account"},
	"GET /apis/ailab/models/builtin/insect-counter.l5d": {scope: "account"},
	"GET /apis/ailab/models/{modelId}":                  {scope: "account"},
	"GET /apis/ailab/models/{modelId}/file":             {scope: "account"},
	"DELETE /apis/ailab/models/{modelId}":               {scope: "account"},
	"POST /apis/ailab/models/{modelId}/test":            {scope: "account"},
	// Feedback belongs to its author; another's looks missing (TestFeedback).
	"GET /apis/feedback":                                   {scope: "account"},
	"POST /apis/feedback":                                  {scope: "account"},
	"GET /apis/feedback/{feedbackId}":                      {scope: "account"},
	"GET /apis/feedback/{feedbackId}/screenshots/{shotId}": {scope: "account"},
	// Applications and detection records belong to an account; another's
	// look missing, and so do devices not the caller's own (TestAilabApplications).
	"GET /apis/ailab/applications":                 {scope: "account"},
	"POST /apis/ailab/applications":                {scope: "account"},
	"GET /apis/ailab/applications/devices":         {scope: "account"},
	"GET /apis/ailab/applications/{appId}":         {scope: "account"},
	"PUT /apis/ailab/applications/{appId}":         {scope: "account"},
	"DELETE /apis/ailab/applications/{appId}":      {scope: "account"},
	"PUT /apis/ailab/applications/{appId}/publish": {scope: "account"},
	"GET /apis/fw/detectReports":                   {scope: "account"},
	"GET /apis/fw/detectReports/download":          {scope: "account"},
	"DELETE /apis/fw/detectReports/{recordId}":     {scope: "account"},

	"GET /apis/poi/{id}/intro":                      {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/profile":                    {scope: "device", need: devices.NeedRead},
	"PUT /apis/poi/{id}/profile":                    {scope: "device", need: devices.NeedRename, body: `{"name":"Walked"}`},
	"GET /apis/poi/{id}/detect":                     {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/tags":                       {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/indicator":                  {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/sales":                      {scope: "device", need: devices.NeedRead},
	"DELETE /apis/poi/{id}/remove":                  {scope: "device", need: devices.NeedOwner, kind: "spare", changes: true},
	"GET /apis/poi/{id}/config":                     {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/commands/definitions":       {scope: "device", need: devices.NeedRead, kind: "type10"},
	"GET /apis/poi/{id}/commands":                   {scope: "device", need: devices.NeedControl, kind: "type10"},
	"POST /apis/poi/{id}/commands":                  {scope: "device", need: devices.NeedControl, kind: "type10", body: `{"name":"openFor","params":{"minutes":5}}`},
	"GET /apis/poi/{id}/commands/{commandId}":       {scope: "device", need: devices.NeedControl, kind: "type10", path: "/apis/poi/{id}/commands/{command}"},
	"PUT /apis/poi/{id}/config":                     {scope: "device", need: devices.NeedSettings, body: `{"reportInterval":30}`},
	"GET /apis/poi/{id}/datapoints/v2/metadata":     {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/datapoints/v2":              {scope: "device", need: devices.NeedRead},
	"GET /apis/poi/{id}/datapoints/v3":              {scope: "device", need: devices.NeedRead},
	"POST /apis/poi/{id}/datapoints/export":         {scope: "device", need: devices.NeedExport, kind: "pluviometer", body: `{"params":["rainfall"],"email":"walk@example.com","begin":{begin},"end":{end}}`},
	"GET /apis/poi/{id}/datapoints/export/{taskId}": {scope: "device", need: devices.NeedRead, kind: "pluviometer", path: "/apis/poi/{id}/datapoints/export/{task}", expect: map[role]string{without: absentFor, with: absentFor}},
	// The owner's task is mailed, so it has no file to download either.
	"GET /apis/poi/{id}/datapoints/export/{taskId}/file": {scope: "device", need: devices.NeedExport, kind: "pluviometer", path: "/apis/poi/{id}/datapoints/export/{task}/file", expect: map[role]string{with: absentFor, owner: absentFor}},
	"GET /apis/poi/{id}/images":                          {scope: "device", need: devices.NeedRead, kind: "ibiosense"},
	"GET /apis/poi/{id}/images/{imageId}":                {scope: "device", need: devices.NeedRead, kind: "ibiosense", path: "/apis/poi/{id}/images/{image}"},
	"POST /apis/poi/{id}/tag":                            {scope: "device", need: devices.NeedRead, body: `{"tagId":{tag}}`},
	"DELETE /apis/poi/{id}/tag/{tagId}":                  {scope: "device", need: devices.NeedRead, path: "/apis/poi/{id}/tag/{tag}", setup: `POST /apis/poi/{id}/tag {"tagId":{tag}}`},
	"GET /apis/poi/info":                                 {scope: "device", need: devices.NeedRead, path: "/apis/poi/info?id={id}"},
	"GET /apis/poi/detail":                               {scope: "device", need: devices.NeedRead, path: "/apis/poi/detail?id={id}"},
	"GET /apis/poi/encryption":                           {scope: "device", need: devices.NeedOwner, path: "/apis/poi/encryption?id={id}"},
	"POST /apis/poi/{id}/certificate":                    {scope: "device", need: devices.NeedOwner},
	"GET /apis/poi/{id}/certificates":                    {scope: "device", need: devices.NeedOwner},
	// A serial the device never had: the owner passes the check and finds nothing.
	"DELETE /apis/poi/{id}/certificate/{serial}": {scope: "device", need: devices.NeedOwner, path: "/apis/poi/{id}/certificate/0f0f",
		expect: map[role]string{owner: absentFor}},
	"GET /apis/poi/{id}/portal":        {scope: "device", need: devices.NeedOwner},
	"POST /apis/poi/{id}/portal":       {scope: "device", need: devices.NeedOwner, body: `{"allowControl":false}`},
	"DELETE /apis/poi/{id}/portal":     {scope: "device", need: devices.NeedOwner},
	"POST /apis/poi/encryption/rotate": {scope: "device", need: devices.NeedOwner, kind: "rekey", path: "/apis/poi/encryption/rotate?id={id}"},
	"GET /apis/poi/topology":           {scope: "device", need: devices.NeedRead, path: "/apis/poi/topology?id={id}"},

	"GET /apis/rules":               {scope: "account"},
	"POST /apis/rule":               {scope: "device", need: devices.NeedRead, kind: "type5", body: `{"name":"Walk","enabled":true,"typeId":5,"deviceIds":[{id}],"level":"alarm","notify":[],"silentHours":0,"expressions":[{"nodes":[],"param":"airTemp","aggregation":"min","operator":"lte","threshold":-40}]}`},
	"GET /apis/rule/types":          {scope: "account"},
	"GET /apis/rule/devices":        {scope: "account"},
	"GET /apis/rule/params":         {scope: "device", need: devices.NeedRead, path: "/apis/rule/params?deviceId={id}"},
	"GET /apis/rule/templates":      {scope: "account"},
	"GET /apis/rule/{id}":           {scope: "account"},
	"PUT /apis/rule/{id}":           {scope: "account"},
	"DELETE /apis/rule/{id}":        {scope: "account"},
	"GET /apis/event/messages":      {scope: "account"},
	"OPTIONS /apis/event/messages":  {scope: "account"},
	"PUT /apis/event/messages/read": {scope: "account"},
	"GET /apis/event/events":        {scope: "account"},
	"GET /apis/event/rules":         {scope: "account"},
	"GET /apis/event/devices":       {scope: "account"},
	"GET /apis/jianli/rule_id":      {scope: "account"},

	"GET /apis/soil_moisture/briefing":               {scope: "account"},
	"POST /apis/soil_moisture/briefing":              {scope: "device", need: devices.NeedRead, body: `{"name":"Walk","unitName":"Walk bureau","zsDeviceIds":[{"deviceId":{id}}],"regionList":[{"name":"Walk","deviceIds":[{id}]}]}`},
	"GET /apis/soil_moisture/briefing/device":        {scope: "account"},
	"GET /apis/soil_moisture/briefing/{id}":          {scope: "account"},
	"PUT /apis/soil_moisture/briefing/{id}":          {scope: "account"},
	"PUT /apis/soil_moisture/briefing/{id}/schedule": {scope: "account"},
	"GET /apis/soil_moisture/briefing/{id}/report":   {scope: "account"},
	"POST /apis/soil_moisture/briefing/{id}/export":  {scope: "account"},
	"GET /apis/soil_moisture/export/{taskId}":        {scope: "account"},
	"GET /apis/soil_moisture/export/{taskId}/file":   {scope: "account"},
	"DELETE /apis/soil_moisture/briefing/{id}":       {scope: "account"},
	"GET /apis/soil_moisture/template":               {scope: "account"},
	"GET /apis/soil_moisture/no_node_device":         {scope: "device", need: devices.NeedRead, path: "/apis/soil_moisture/no_node_device?deviceIds={id}"},

	"PUT /apis/grant/credential":       {scope: "device", need: devices.NeedOwner, body: `{"poiIds":[{id}],"purview":{"export":true}}`},
	"PUT /apis/transfer/credential":    {scope: "device", need: devices.NeedOwner, body: `{"poiIds":[{id}]}`},
	"GET /apis/device/credential/{id}": {scope: "public"},
	"POST /apis/grant/accept/{id}":     {scope: "account"},
	"GET /apis/authorized/devices":     {scope: "account"},
	"DELETE /apis/authorized/devices/{id}": {scope: "device", need: devices.NeedRead, changes: true,
		expect: map[role]string{owner: absentFor}},
	"GET /apis/granted/devices":         {scope: "account"},
	"DELETE /apis/granted/devices/{id}": {scope: "device", need: devices.NeedOwner, changes: true},
	"GET /apis/granted/users":           {scope: "account"},
	"DELETE /apis/granted/users/{id}":   {scope: "account"},
	"GET /apis/poi/{id}/authorized":     {scope: "device", need: devices.NeedOwner},
	"DELETE /apis/poi/{id}/authorized":  {scope: "device", need: devices.NeedOwner, path: "/apis/poi/{id}/authorized?uid={uid}", changes: true},
	"PUT /apis/poi/modify/permissions":  {scope: "device", need: devices.NeedOwner, body: `{"poiId":{id},"uid":{uid},"purview":{}}`},
	"GET /apis/poi/query/permissions":   {scope: "device", need: devices.NeedRead, path: "/apis/poi/query/permissions?poiId={id}"},

	"GET /apis/thingverse/device/{urn}":                   {scope: "device", need: devices.NeedRead},
	"GET /apis/thingverse/device/{urn}/metadata":          {scope: "device", need: devices.NeedRead},
	"GET /apis/thingverse/device/{urn}/telemetry":         {scope: "device", need: devices.NeedRead},
	"GET /apis/thingverse/device/{urn}/indicators":        {scope: "device", need: devices.NeedRead},
	"GET /apis/thingverse/device/{urn}/blobs":             {scope: "device", need: devices.NeedRead, kind: "ibiosense"},
	"GET /apis/thingverse/device/{urn}/et0":               {scope: "device", need: devices.NeedRead, kind: "type5"},
	"GET /apis/thingverse/device/{urn}/insect/statistics": {scope: "device", need: devices.NeedRead, kind: "ibiosense"},
	"PUT /apis/thingverse/device/{urn}/label":             {scope: "device", need: devices.NeedRename, body: `{"label":"Walked"}`},
	"POST /apis/thingverse/device/{urn}/services/{name}": {scope: "device", need: devices.NeedControl, kind: "type10",
		path: "/apis/thingverse/device/{urn}/services/openFor", body: `{"minutes":5}`},

	"GET /apis/integration/channel/list":              {scope: "account"},
	"GET /apis/integration/channel/get":               {scope: "account"},
	"POST /apis/integration/channel/create":           {scope: "device", need: devices.NeedExport, body: `{"name":"Walk","url":"http://127.0.0.1:9/hook","deviceIds":[{id}]}`},
	"PUT /apis/integration/channel/update":            {scope: "account"},
	"DELETE /apis/integration/channel/delete":         {scope: "account"},
	"PUT /apis/integration/channel/switch":            {scope: "account"},
	"GET /apis/integration/channel/selectDevices":     {scope: "account"},
	"PUT /apis/integration/channel/selectDevices":     {scope: "account"},
	"GET /apis/integration/channel/selector":          {scope: "account"},
	"GET /apis/integration/channel/getConnectionData": {scope: "account"},
	"POST /apis/integration/channel/secret":           {scope: "account"},
	"GET /apis/integration/channel/pushLogList":       {scope: "account"},
	"POST /apis/integration/channel/retry":            {scope: "account"},

	"GET /apis/openapi/applications":             {scope: "account"},
	"POST /apis/openapi/application":             {scope: "account"},
	"GET /apis/openapi/application/{id}":         {scope: "account"},
	"PUT /apis/openapi/application/{id}":         {scope: "account"},
	"DELETE /apis/openapi/application/{id}":      {scope: "account"},
	"PUT /apis/openapi/application/{id}/publish": {scope: "account"},
	"POST /apis/openapi/application/{id}/secret": {scope: "account"},
	"GET /apis/openapi/spec.json":                {scope: "public"},
	"GET /openapi/v1/devices":                    {scope: "public"},
	"GET /openapi/v1/devices/{sn}":               {scope: "public"},
	"GET /openapi/v1/devices/{sn}/latest":        {scope: "public"},
	"GET /openapi/v1/devices/{sn}/history":       {scope: "public"},
	"GET /apis/oem/gov-lsw/{id}/shanjing":        {scope: "public"},
	"GET /apis/oem/gov-lsw/{id}/pluviometer":     {scope: "public"},
	// The unified portal: its link is its authorization (TestPortal).
	"GET /apis/system/versionHistory":                {scope: "account"},
	"GET /apis/ai/reality/{id}":                      {scope: "device", need: devices.NeedRead},
	"GET /apis/ai/strategy":                          {scope: "device", need: devices.NeedRead, path: "/apis/ai/strategy?id={id}"},
	"POST /apis/ai/task":                             {scope: "device", need: devices.NeedRead, body: `{"deviceIds":[{id}]}`},
	"GET /apis/ai/task/today/{id}":                   {scope: "device", need: devices.NeedRead},
	"GET /apis/ai/task/list/{id}":                    {scope: "device", need: devices.NeedRead},
	"POST /apis/ai/task/feedback":                    {scope: "account"},
	"POST /apis/ai/farm/question":                    {scope: "device", need: devices.NeedRead, body: `{"id":{id},"question":"Should I irrigate?"}`},
	"GET /apis/overview":                             {scope: "account"}, // the caller's own devices only (TestOverview)
	"GET /apis/et0/areas":                            {scope: "account"},
	"POST /apis/et0/areas":                           {scope: "account"},
	"GET /apis/et0/areas/{id}":                       {scope: "account"},
	"DELETE /apis/et0/areas/{id}":                    {scope: "account"},
	"GET /apis/et0/areas/{id}/grid":                  {scope: "account"},
	"GET /apis/et0/areas/{id}/grid.tif":              {scope: "account"},
	"GET /apis/et0/areas/{id}/grid.csv":              {scope: "account"},
	"POST /apis/exper/coefficient":                   {scope: "account"},
	"POST /apis/exper/coefficient/export":            {scope: "account"},
	"GET /apis/uni/integration/theme":                {scope: "public"},
	"GET /apis/uni/device/{sn}":                      {scope: "public"},
	"GET /apis/uni/device/{sn}/metadata":             {scope: "public"},
	"GET /apis/uni/device/{sn}/datapoints":           {scope: "public"},
	"GET /apis/uni/device/{sn}/commands/definitions": {scope: "public"},
	"GET /apis/uni/device/{sn}/commands":             {scope: "public"},
	"POST /apis/uni/device/{sn}/commands":            {scope: "public"},

	"POST /ingest/v1/{kind}":       {scope: "public"},
	"POST /ingest/v1/commands/ack": {scope: "public"},
	"POST /activate":               {scope: "public"},
	// The broker's bearer token (TestBrokerAuth in internal/httpapi).
	"POST /broker/v1/authenticate": {scope: "public"},
	"POST /broker/v1/authorize":    {scope: "public"},
	"GET /healthz":                 {scope: "public"},
	"GET /readyz":                  {scope: "public"},
	"GET /metrics":                 {scope: "public"},
	"GET /":                        {scope: "public"},

	"GET /apis/poi/analysis/moisture":     {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/analysis/moisture?id={id}"},
	"GET /apis/poi/analysis/et_root":      {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/analysis/et_root?id={id}"},
	"GET /apis/poi/et0_kc":                {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/poi/et0_kc?id={id}"},
	"GET /apis/poi/data/sqy/query":        {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/data/sqy/query?id={id}"},
	"GET /apis/poi/param/list":            {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/param/list?id={id}"},
	"GET /apis/poi/data/query":            {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/data/query?id={id}"},
	"GET /apis/poi/week/weather":          {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/poi/week/weather?id={id}"},
	"GET /apis/poi/rainfall":              {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/poi/rainfall?id={id}"},
	"GET /apis/poi/et0":                   {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/poi/et0?id={id}"},
	"PUT /apis/poi/crop/update":           {scope: "device", need: devices.NeedSettings, kind: "zhi-shang", body: `{"id":{id},"cropName":"maize"}`},
	"POST /apis/poi/crop/update":          {scope: "device", need: devices.NeedSettings, kind: "zhi-shang", body: `{"id":{id},"cropName":"maize"}`},
	"GET /apis/poi/tilt/yaw":              {scope: "device", need: devices.NeedRead, kind: "shan-jing", path: "/apis/poi/tilt/yaw?id={id}"},
	"GET /apis/poi/seven/mete":            {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/poi/seven/mete?id={id}"},
	"GET /apis/poi/shang/status":          {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/status?id={id}"},
	"GET /apis/poi/shang/irriRecognition": {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/irriRecognition?id={id}"},
	"GET /apis/poi/shang/infiltration":    {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/infiltration?id={id}"},
	"GET /apis/poi/shang/waterlogging":    {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/waterlogging?id={id}"},
	"GET /apis/poi/shang/freezeThaw":      {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/freezeThaw?id={id}"},
	"GET /apis/poi/shang/rootdepth":       {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/rootdepth?id={id}"},
	"GET /apis/poi/shang/detail":          {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/detail?id={id}"},
	"GET /apis/poi/shang/nodes":           {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/nodes?id={id}"},
	"GET /apis/poi/shang/config":          {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/config?id={id}"},
	"PUT /apis/poi/shang/config":          {scope: "device", need: devices.NeedSettings, kind: "zhi-shang", path: "/apis/poi/shang/config?id={id}", body: `{"cropType":"maize","nodes":{soilNodes}}`},
	"GET /apis/poi/shang/etc_et0_kc":      {scope: "device", need: devices.NeedRead, kind: "zhi-shang", path: "/apis/poi/shang/etc_et0_kc?id={id}"},
	"GET /apis/poi/shan/trend":            {scope: "device", need: devices.NeedRead, kind: "shan-jing", path: "/apis/poi/shan/trend?id={id}"},

	"GET /apis/poi/{id}/pluviometer/early-warning": {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/latest":        {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/i-d":           {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/i-d/range":     {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/realtime":      {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/stats":         {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/stats_data":    {scope: "device", need: devices.NeedRead, kind: "pluviometer"},
	"GET /apis/poi/{id}/pluviometer/installing":    {scope: "device", need: devices.NeedRead, kind: "pluviometer"},

	"GET /apis/qi/{id}/data/realtime": {scope: "device", need: devices.NeedRead, kind: "type5"},
	"GET /apis/qi/weather/alert":      {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/qi/weather/alert?id={id}"},
	"GET /apis/qi/fwi/statistics":     {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/qi/fwi/statistics?id={id}"},
	"GET /apis/qi/fwi/history":        {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/qi/fwi/history?id={id}"},
	"GET /apis/qi/data/history":       {scope: "device", need: devices.NeedRead, kind: "type5", path: "/apis/qi/data/history?id={id}"},
}

// expected is the outcome of a role's call.
func (a access) expected(r role) string {
	if e, ok := a.expect[r]; ok {
		return e
	}
	switch r {
	case stranger:
		return missing
	case owner:
		return ok
	case with:
		if a.need == devices.NeedOwner {
			return modifyNo
		}
		return ok
	}
	switch a.need {
	case devices.NeedRead:
		return ok
	case devices.NeedExport:
		return exportNo
	}
	return modifyNo
}

// client is one logged-in account.
type client struct {
	t    *testing.T
	base string
	http *http.Client
	id   int64
	tag  int64
}

type answer struct {
	status int
	header http.Header
	raw    []byte
	Code   int             `json:"code"`
	Msg    string          `json:"message"`
	Data   json.RawMessage `json:"data"`
}

func (c *client) call(method, path, body string) answer {
	c.t.Helper()
	return c.callLang("en_US", method, path, body)
}

// callLang is call in a given language.
func (c *client) callLang(lang, method, path, body string) answer {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("lang", lang)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, header: res.Header}
	a.raw, _ = io.ReadAll(res.Body)
	_ = json.Unmarshal(a.raw, &a)
	return a
}

func (c *client) must(method, path, body string, out any) {
	c.t.Helper()
	a := c.call(method, path, body)
	if a.Code != 0 {
		c.t.Fatalf("%s %s: %d %s", method, path, a.Code, a.raw)
	}
	if out != nil {
		if err := json.Unmarshal(a.Data, out); err != nil {
			c.t.Fatal(err)
		}
	}
}

func loginAs(t *testing.T, m *app.Main, number, password string) *client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &client{t: t, base: m.URL(), http: &http.Client{Jar: jar}}
	var p struct{ ID int64 }
	c.must("POST", "/apis/account/login", fmt.Sprintf(`{"accountNumber":%q,"password":%q}`, number, password), &p)
	a, err := m.DB.FindAccountByNumber(context.Background(), number)
	if err != nil {
		t.Fatal(err)
	}
	c.id = a.ID
	var tag struct {
		ID int64 `json:"tagId"`
	}
	c.must("POST", "/apis/tag", fmt.Sprintf(`{"tag":"w%s"}`, number[len(number)-2:]), &tag)
	c.tag = tag.ID
	return c
}

// share gives grantee a grant on ids through a link, as the UI does.
func share(t *testing.T, from, to *client, ids []int64, purview string) {
	t.Helper()
	var link struct{ ID string }
	from.must("PUT", "/apis/grant/credential", fmt.Sprintf(`{"poiIds":%s,"purview":%s}`, jsonIDs(ids), purview), &link)
	to.must("POST", "/apis/grant/accept/"+url.PathEscape(link.ID), "", nil)
}

func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// TestAccess_EveryRoute walks the route table and calls every device-scoped
// route as a stranger, a grantee without the route's right, a grantee with
// every grantable right, and the owner; every other route must be listed
// as public or account-wide, and the latter answer code 2 without a session.
func TestAccess_EveryRoute(t *testing.T) {
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	go func() {
		for range smtp.C {
		}
	}()
	cfg := serveConfig(t)
	cfg.SMTPURL, cfg.MailFrom = smtp.URL(), "Fieldwatch <exports@fieldwatch.test>"
	cfg.PushAllowPrivate = true
	m := start(t, cfg)
	<-m.DemoLoaded() // the walk needs the demo devices and their history
	ctx := context.Background()
	for _, n := range []string{"stranger1", "grantee01", "grantee02"} {
		if _, err := m.Accounts.Create(ctx, n, "secret1", n); err != nil {
			t.Fatal(err)
		}
	}
	cs := [4]*client{}
	cs[stranger] = loginAs(t, m, "stranger1", "secret1")
	cs[without] = loginAs(t, m, "grantee01", "secret1")
	cs[with] = loginAs(t, m, "grantee02", "secret1")
	cs[owner] = loginAs(t, m, "demo01", "demo123456")

	// The demo devices, by page kind; a spare device for the removal.
	var list struct {
		List []struct {
			ID     int64
			SN     string
			Page   string
			TypeID int
			Slave  bool
		}
	}
	cs[owner].must("GET", "/apis/devices?size=100", "", &list)
	byKind := map[string][]int64{}
	sns := map[int64]string{987654321: "NOSUCH987654321"} // the missing device's SN
	var all []int64
	for _, d := range list.List {
		sns[d.ID] = d.SN
		if !d.Slave {
			byKind[d.Page] = append(byKind[d.Page], d.ID)
			byKind[fmt.Sprintf("type%d", d.TypeID)] = append(byKind[fmt.Sprintf("type%d", d.TypeID)], d.ID)
		}
		all = append(all, d.ID)
	}
	spare, _, err := m.Devices.Register(ctx, devices.Registration{SN: "ZS0000099001", TypeID: 21, Owner: cs[owner].id})
	if err != nil {
		t.Fatal(err)
	}
	// A device of no simulation for the key rotation: the demo fleet keeps
	// its devices' keys.
	rekey, _, err := m.Devices.Register(ctx, devices.Registration{SN: "ZS0000099002", TypeID: 21, Owner: cs[owner].id})
	if err != nil {
		t.Fatal(err)
	}
	byKind["spare"], byKind["rekey"] = []int64{spare.ID}, []int64{rekey.ID}
	sns[spare.ID], sns[rekey.ID] = spare.SN, rekey.SN
	all = append(all, spare.ID, rekey.ID)
	reshare := func(ids []int64) {
		share(t, cs[owner], cs[without], ids, `{}`)
		share(t, cs[owner], cs[with], ids, `{"rename":true,"settings":true,"export":true}`)
	}
	reshare(all)

	// An image and an export task of the owner's, for routes that need one.
	var images []struct{ ID int64 }
	if cam := byKind["ibiosense"]; len(cam) > 0 {
		waitFor(t, "a camera image", func() bool {
			cs[owner].must("GET", fmt.Sprintf("/apis/poi/%d/images", cam[0]), "", &images)
			return len(images) > 0
		})
	}
	now := time.Now()
	var task struct{ TaskID string }
	cs[owner].must("POST", fmt.Sprintf("/apis/poi/%d/datapoints/export", byKind["pluviometer"][0]),
		fmt.Sprintf(`{"params":["rainfall"],"email":"walk@example.com","begin":%d,"end":%d}`, now.Add(-time.Hour).UnixMilli(), now.UnixMilli()), &task)

	// A command to the valve controller the walk uses.
	var command struct{ ID int64 }
	cs[owner].must("POST", fmt.Sprintf("/apis/poi/%d/commands", byKind["type10"][0]), `{"name":"close"}`, &command)

	// The soil of every node of a soil station, for its settings.
	var soil struct{ Nodes []struct{ Depth int } }
	cs[owner].must("GET", fmt.Sprintf("/apis/poi/shang/config?id=%d", byKind["zhi-shang"][0]), "", &soil)
	var nodes []string
	for _, n := range soil.Nodes {
		nodes = append(nodes, fmt.Sprintf(`{"depth":%d,"fieldCapacity":30,"unitWeight":1.3}`, n.Depth))
	}
	soilNodes := "[" + strings.Join(nodes, ",") + "]"

	used := map[int64]bool{} // devices a changing call has used up
	pick := func(kind string) int64 {
		if kind == "" {
			kind = "zhi-shang"
		}
		for _, id := range byKind[kind] {
			if !used[id] {
				return id
			}
		}
		t.Fatalf("no %s device left", kind)
		return 0
	}
	fill := func(s string, id int64, c *client) string {
		image := int64(0)
		if len(images) > 0 {
			image = images[0].ID
		}
		return strings.NewReplacer("{urn}", "urn:fieldwatch:device:"+sns[id], "{id}", fmt.Sprint(id), "{uid}", fmt.Sprint(cs[without].id), "{tag}", fmt.Sprint(c.tag),
			"{image}", fmt.Sprint(image), "{task}", task.TaskID, "{command}", fmt.Sprint(command.ID),
			"{soilNodes}", soilNodes, "{begin}", fmt.Sprint(now.Add(-time.Hour).UnixMilli()), "{end}", fmt.Sprint(now.UnixMilli())).Replace(s)
	}

	anonymous := &client{t: t, base: m.URL(), http: &http.Client{}}
	routes := m.HTTP.Routes()
	if len(routes) < 100 {
		t.Fatalf("only %d routes", len(routes))
	}
	seen := map[string]bool{}
	for _, rt := range routes {
		seen[rt] = true
		a, listed := accessTable[rt]
		if !listed {
			t.Errorf("%s is not in the access table: decide who may call it", rt)
			continue
		}
		method, path, _ := strings.Cut(rt, " ")
		if a.scope != "device" {
			if a.scope == "account" && strings.HasPrefix(path, "/apis/") {
				p := strings.NewReplacer("{id}", "1").Replace(path)
				if got := anonymous.call(method, p, ""); got.Code != 2 {
					t.Errorf("%s without a session: code %d, want 2", rt, got.Code)
				}
			}
			continue
		}
		if a.path != "" {
			path = a.path
		}
		dev := pick(a.kind)
		if got := anonymous.call(method, fill(path, dev, anonymous), fill(a.body, dev, anonymous)); got.Code != 2 {
			t.Errorf("%s without a session: code %d, want 2", rt, got.Code)
		}
		for _, r := range []role{stranger, without, with, owner} {
			c := cs[r]
			if a.setup != "" {
				f := strings.SplitN(fill(a.setup, dev, c), " ", 3)
				c.call(f[0], f[1], f[2])
			}
			got := c.call(method, fill(path, dev, c), fill(a.body, dev, c))
			want := a.expected(r)
			bad := ""
			switch want {
			case ok:
				if got.Code != 0 {
					bad = "want code 0"
				}
			case passes:
				if got.Code == 1403 || got.Code == 1404 {
					bad = "want it past the permission check"
				}
			case missing:
				none := c.call(method, fill(path, 987654321, c), fill(a.body, 987654321, c))
				if got.Code == 0 || got.status != none.status || !bytes.Equal(got.raw, none.raw) {
					bad = fmt.Sprintf("want the answer for a missing device: %d %s", none.status, none.raw)
				}
			case modifyNo, exportNo:
				msg := map[string]string{modifyNo: "No permission to modify!", exportNo: "No permission to export!"}[want]
				if got.Code != 1403 || got.Msg != msg {
					bad = "want 1403 " + msg
				}
			case absentFor:
				if got.Code != 1404 {
					bad = "want 1404"
				}
			}
			if bad != "" {
				t.Errorf("%s %s as %s: %d %s: %s", method, path, roleNames[r], got.status, got.raw, bad)
			}
		}
		if a.changes {
			if a.kind == "spare" {
				used[dev] = true
			} else {
				reshare([]int64{dev})
			}
		}
	}
	// The owner's AI lab application and detection records: to anyone else,
	// grantees of the traps included, exactly what does not exist.
	var labApps []struct{ ID int64 }
	cs[owner].must("GET", "/apis/ailab/applications", "", &labApps)
	var records struct {
		List []struct{ ID int64 }
	}
	waitFor(t, "a demo detection record", func() bool {
		cs[owner].must("GET", "/apis/fw/detectReports?size=1", "", &records)
		return len(records.List) > 0
	})
	if len(labApps) == 0 {
		t.Fatal("the demo has no AI lab application")
	}
	for _, r := range []role{stranger, without, with} {
		c := cs[r]
		for _, x := range []struct{ method, path, body string }{
			{"GET", "/apis/ailab/applications/%d", ""},
			{"PUT", "/apis/ailab/applications/%d", `{"name":"Mine","type":"insect","modelId":1,"elements":[{"identifier":"moth"}],"deviceIds":[1]}`},
			{"PUT", "/apis/ailab/applications/%d/publish", `{"published":false}`},
			{"DELETE", "/apis/ailab/applications/%d", ""},
		} {
			got, none := c.call(x.method, fmt.Sprintf(x.path, labApps[0].ID), x.body), c.call(x.method, fmt.Sprintf(x.path, 987654321), x.body)
			if got.Code == 0 || got.status != none.status || !bytes.Equal(got.raw, none.raw) {
				t.Errorf("%s %s as %s: %s, none: %s", x.method, x.path, roleNames[r], got.raw, none.raw)
			}
		}
		got, none := c.call("DELETE", fmt.Sprintf("/apis/fw/detectReports/%d", records.List[0].ID), ""), c.call("DELETE", "/apis/fw/detectReports/987654321", "")
		if got.Code == 0 || !bytes.Equal(got.raw, none.raw) {
			t.Errorf("deleting the owner's record as %s: %s, none: %s", roleNames[r], got.raw, none.raw)
		}
		var theirs struct{ Total int }
		c.must("GET", "/apis/fw/detectReports", "", &theirs)
		if theirs.Total != 0 {
			t.Errorf("%s sees %d of the owner's records", roleNames[r], theirs.Total)
		}
	}

	for rt := range accessTable {
		if !seen[rt] {
			t.Errorf("%s is in the access table but not a route", rt)
		}
	}
}
