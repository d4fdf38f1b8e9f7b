package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

// deviceDTO is a device as the web app sees it. Times are unix milliseconds.
type deviceDTO struct {
	ID             int64          `json:"id"`
	PoiID          int64          `json:"poiId"`
	DeviceID       int64          `json:"deviceId"`
	HashID         string         `json:"hashId"`
	SN             string         `json:"sn"`
	Name           string         `json:"name"`
	TypeID         int            `json:"typeId"`
	TypeName       string         `json:"typeName"`
	Model          string         `json:"model"`
	Category       string         `json:"category"`
	Page           string         `json:"page"`
	Slave          bool           `json:"slave"`
	Status         string         `json:"status"`
	StatusName     string         `json:"statusName"`
	Group          string         `json:"group"`
	State          string         `json:"state"`
	Belong         string         `json:"belong"`
	Battery        *float64       `json:"battery"`
	LowBattery     bool           `json:"lowBattery"`
	Signal         *float64       `json:"signal"`
	ChargeVoltage  *float64       `json:"chargeVoltage"`
	LastReportTime *int64         `json:"lastReportTime"`
	Location       string         `json:"location"`
	Lng            *float64       `json:"lng"`
	Lat            *float64       `json:"lat"`
	Altitude       *float64       `json:"altitude"`
	InstallTime    *int64         `json:"installTime"`
	Tags           []devices.Tag  `json:"tags"`
	Faults         []int          `json:"faults"`
	LastError      *lastErrorDTO  `json:"lastError,omitempty"`
	Right          *rightDTO      `json:"right,omitempty"`
	Config         devices.Config `json:"config"`
}

type rightDTO struct {
	Owner    bool `json:"owner"`
	Rename   bool `json:"rename"`
	Settings bool `json:"settings"`
	Export   bool `json:"export"`
}

type lastErrorDTO struct {
	Time    int64  `json:"time"`
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func ms(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	v := t.UnixMilli()
	return &v
}

func (s *Server) toDevice(c *call, d *devices.Device, now time.Time) deviceDTO {
	st := d.StatusAt(now)
	dto := deviceDTO{
		ID: d.ID, PoiID: d.ID, DeviceID: d.ID, HashID: d.HashID, SN: d.SN, Name: d.Name, TypeID: d.TypeID,
		Slave: d.Slave, Status: string(st), StatusName: sheet.StatusName(st, c.lang), Group: string(devices.GroupOf(st)),
		State: string(d.State), Belong: string(devices.BelongMine),
		Battery: d.Battery, Signal: d.Signal, ChargeVoltage: d.ChargeVoltage,
		LowBattery:     d.Battery != nil && *d.Battery < devices.LowBattery,
		LastReportTime: ms(d.LastReportAt), Location: d.Location, Lng: d.Lng, Lat: d.Lat, Altitude: d.Altitude,
		InstallTime: ms(d.InstallAt), Tags: d.Tags, Faults: d.Faults, Config: d.Config,
	}
	if c.account != nil && d.OwnerID == c.account.ID {
		dto.Right = toRight(devices.OwnerRight)
	} else if c.account != nil {
		dto.Belong = string(devices.BelongShared)
		if d.Grant != nil {
			dto.Right = toRight(*d.Grant)
		}
	}
	if dto.Tags == nil {
		dto.Tags = []devices.Tag{}
	}
	if dto.Faults == nil {
		dto.Faults = []int{}
	}
	if t := d.Type(); t != nil {
		dto.TypeName, dto.Model, dto.Category, dto.Page = t.Name(c.lang), t.Model, string(t.Category), string(t.Page)
	}
	return dto
}

func withRight(dto deviceDTO, r devices.Right) deviceDTO {
	dto.Right = toRight(r)
	return dto
}

func toRight(r devices.Right) *rightDTO {
	return &rightDTO{Owner: r.Owner, Rename: r.Rename, Settings: r.Settings, Export: r.Export}
}

// pathID reads a numeric path value; anything else is ENOTFOUND, like an
// id that does not exist.
func pathID(c *call, name string) (int64, error) {
	id, err := strconv.ParseInt(c.r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.ErrNotFound
	}
	return id, nil
}

// queryID reads ?{name}= as a device id.
func queryID(c *call, name string) (int64, error) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return 0, errs.Invalid(name, "error.required")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.ErrNotFound
	}
	return id, nil
}

// queryInt reads an optional integer query value.
func queryInt(q url.Values, name string, def, lo, hi int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, errs.Invalid(name, "query.intRange").With(map[string]any{"min": lo, "max": hi})
	}
	return n, nil
}

type pageDTO[T any] struct {
	List  []T `json:"list"`
	Total int `json:"total"`
}

// listDevices serves GET /apis/devices.
func (s *Server) listDevices(c *call) (any, error) {
	q := c.r.URL.Query()
	f := devices.Filter{NameOrSN: q.Get("nameOrSn"), Sort: q.Get("sort")}
	if v := q.Get("status"); v != "" {
		st := devices.Status(v)
		if !contains(devices.Statuses, st) {
			return nil, errs.Invalid("status", "query.unknownValue")
		}
		f.Status = &st
	}
	if v := q.Get("typeId"); v != "" {
		id, err := strconv.Atoi(v)
		if _, ok := devices.TypeByID(id); err != nil || !ok {
			return nil, errs.Invalid("typeId", "query.unknownValue")
		}
		f.TypeID = &id
	}
	if v := q.Get("category"); v != "" {
		cat := devices.Category(v)
		if !contains(devices.Categories, cat) {
			return nil, errs.Invalid("category", "query.unknownValue")
		}
		f.Category = &cat
	}
	switch b := devices.Belong(q.Get("belong")); b {
	case "", devices.BelongAll, devices.BelongMine, devices.BelongShared:
		f.Belong = b
	default:
		return nil, errs.Invalid("belong", "query.unknownValue")
	}
	if v := q.Get("tagId"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, errs.Invalid("tagId", "query.unknownValue")
		}
		f.TagID = &id
	}
	if f.Sort != "" && !contains([]string{"name", "sn", "type", "status", "lastReport", "created"}, f.Sort) {
		return nil, errs.Invalid("sort", "query.unknownValue")
	}
	switch strings.ToLower(q.Get("order")) {
	case "", "asc", "ascend":
	case "desc", "descend":
		f.Desc = true
	default:
		return nil, errs.Invalid("order", "query.unknownValue")
	}
	page, err := queryInt(q, "page", 1, 1, 1<<20)
	if err != nil {
		return nil, err
	}
	size, err := queryInt(q, "size", 20, 1, devices.MaxPage)
	if err != nil {
		return nil, err
	}
	f.Limit, f.Offset = size, (page-1)*size
	list, total, err := s.Devices.List(c.r.Context(), c.account.ID, f)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := pageDTO[deviceDTO]{List: make([]deviceDTO, len(list)), Total: total}
	for i, d := range list {
		out.List[i] = s.toDevice(c, d, now)
	}
	return out, nil
}

func contains[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// mapAll serves GET /apis/map/all: every visible device with coordinates
// and status, and the count per map group. Ten thousand devices make a
// megabyte of JSON, so it is written by hand rather than through reflection.
func (s *Server) mapAll(c *call) (any, error) {
	groups := map[devices.Group]int{devices.GroupWorking: 0, devices.GroupFault: 0, devices.GroupNotDeployed: 0}
	// The answer is written as the rows arrive (about 200 bytes a device),
	// into a buffer kept for the next map: no list of ten thousand points
	// is built first, and no 2 MB buffer is grown and dropped per request.
	buf := mapBuffers.Get().(*[]byte)
	b := (*buf)[:0]
	b = append(b, `{"code":0,"message":"","data":{"list":[`...)
	n := 0
	err := s.Devices.Map(c.r.Context(), c.account.ID, func(d *devices.MapPoint) {
		g := devices.GroupOf(d.Status)
		groups[g]++
		if n++; n > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, d.ID, 10)
		b = append(b, `,"hashId":`...)
		b = appendJSONString(b, d.HashID)
		b = append(b, `,"sn":`...)
		b = appendJSONString(b, d.SN)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, d.Name)
		b = append(b, `,"typeId":`...)
		b = strconv.AppendInt(b, int64(d.TypeID), 10)
		b = append(b, `,"page":"`...)
		if t, ok := devices.TypeByID(d.TypeID); ok {
			b = append(b, t.Page...)
		}
		b = append(b, `","status":"`...)
		b = append(b, d.Status...)
		b = append(b, `","group":"`...)
		b = append(b, g...)
		b = append(b, `","lng":`...)
		if d.HasPos {
			b = strconv.AppendFloat(b, d.Lng, 'f', -1, 64)
			b = append(b, `,"lat":`...)
			b = strconv.AppendFloat(b, d.Lat, 'f', -1, 64)
		} else {
			b = append(b, `null,"lat":null`...)
		}
		b = append(b, `,"lastReportTime":`...)
		if d.LastReport != 0 {
			b = strconv.AppendInt(b, d.LastReport, 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, '}')
	})
	if err != nil {
		return nil, err
	}
	b = append(b, `],"groups":`...)
	gj, _ := json.Marshal(groups)
	b = append(b, gj...)
	b = append(b, "}}\n"...)
	return &download{contentType: "application/json; charset=utf-8", body: b, cache: "no-store",
		release: func() {
			if cap(b) <= maxMapBuffer {
				*buf = b
				mapBuffers.Put(buf)
			}
		}}, nil
}

// mapBuffers keeps map answers' buffers for reuse; one larger than
// maxMapBuffer (a fleet of about 40,000 devices) is left to the collector.
var mapBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxMapBuffer = 8 << 20

// appendJSONString appends s as a JSON string (names are user text), as
// encoding/json would: valid UTF-8 other than the characters JSON or HTML
// escape (and U+2028, U+2029) is copied as it is; anything else goes
// through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendMarshalled(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendMarshalled(b, s)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendMarshalled(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// device is the device dev() found and authorized for this call. Only
// device-scoped routes (dev in the route table) call it.
func (s *Server) device(c *call) (*devices.Device, devices.Right, error) {
	if c.device == nil {
		return nil, devices.Right{}, errs.Internal("%s %s is not a device-scoped route", c.r.Method, c.r.URL.Path)
	}
	return c.device, c.right, nil
}

// poiInfo serves GET /apis/poi/info?id= (or ?hashId=): the header of a detail page.
func (s *Server) poiInfo(c *call) (any, error) {
	d, r, err := s.device(c)
	if err != nil {
		return nil, err
	}
	return withRight(s.toDevice(c, d, time.Now()), r), nil
}

// poiDetail serves GET /apis/poi/detail?id= (or ?hashId=): everything about a device,
// with its latest readings and, for its owner, why its last report was refused.
func (s *Server) poiDetail(c *call) (any, error) {
	d, r, err := s.device(c)
	if err != nil {
		return nil, err
	}
	dto := withRight(s.toDevice(c, d, time.Now()), r)
	if r.Owner && d.LastError != nil {
		dto.LastError = &lastErrorDTO{Time: d.LastError.At.UnixMilli(), Code: d.LastError.Code, Field: d.LastError.Field,
			Message: i18n.Message(c.lang, d.LastError.Code, "", withField(d.LastError.Params, d.LastError.Field))}
	}
	latest, err := s.latest(c, d)
	if err != nil {
		return nil, err
	}
	return struct {
		deviceDTO
		Sales  salesDTO    `json:"sales"`
		Latest []latestDTO `json:"latest"`
	}{dto, toSales(d), latest}, nil
}

// withField names the JSON path of a device error in its message.
func withField(params map[string]any, field string) map[string]any {
	out := map[string]any{"field": field}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// poiIntro serves GET /apis/poi/{id}/intro: what kind of device this is.
func (s *Server) poiIntro(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	t := d.Type()
	return struct {
		ID       int64  `json:"id"`
		SN       string `json:"sn"`
		TypeID   int    `json:"typeId"`
		TypeName string `json:"typeName"`
		Model    string `json:"model"`
		Category string `json:"category"`
		Page     string `json:"page"`
		Interval int    `json:"interval"` // minutes
		Solar    bool   `json:"solar"`
		Camera   bool   `json:"camera"`
		Nodes    []int  `json:"nodes"`
		Slave    bool   `json:"slave"`
	}{d.ID, d.SN, d.TypeID, t.Name(c.lang), t.Model, string(t.Category), string(t.Page),
		int(d.Interval() / time.Minute), t.Solar, t.Camera, nonNil(t.Nodes), d.Slave}, nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

type profileBody struct {
	Name        string   `json:"name"`
	Location    string   `json:"location"`
	Lng         *float64 `json:"lng"`
	Lat         *float64 `json:"lat"`
	Altitude    *float64 `json:"altitude"`
	InstallTime *int64   `json:"installTime"`
}

// poiProfile serves GET /apis/poi/{id}/profile.
func (s *Server) poiProfile(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	return profileBody{Name: d.Name, Location: d.Location, Lng: d.Lng, Lat: d.Lat, Altitude: d.Altitude,
		InstallTime: ms(d.InstallAt)}, nil
}

// putProfile serves PUT /apis/poi/{id}/profile.
func (s *Server) putProfile(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	var b profileBody
	if err := decode(c.r, &b); err != nil {
		return nil, err
	}
	p := devices.Profile{Name: b.Name, Location: b.Location, Lng: b.Lng, Lat: b.Lat, Altitude: b.Altitude}
	if b.InstallTime != nil {
		t := time.UnixMilli(*b.InstallTime)
		p.InstallAt = &t
	}
	if err := s.Devices.UpdateProfile(c.r.Context(), c.account.ID, id, p); err != nil {
		return nil, err
	}
	// Answer what was saved: the device dev() loaded is from before it.
	if c.device, c.right, err = s.Devices.Get(c.r.Context(), c.account.ID, id); err != nil {
		return nil, err
	}
	return s.poiProfile(c)
}

type latestDTO struct {
	Param     string  `json:"param"`
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Precision int     `json:"precision"`
	Node      int     `json:"node"`
	Time      int64   `json:"time"`
	Value     float64 `json:"value"`
}

func (s *Server) latest(c *call, d *devices.Device) ([]latestDTO, error) {
	rs, err := s.Telemetry.Latest(c.r.Context(), d.ID)
	if err != nil {
		return nil, err
	}
	t := d.Type()
	out := make([]latestDTO, 0, len(rs))
	for _, r := range rs {
		l := latestDTO{Param: r.Param, Node: r.Node, Time: r.Time.UnixMilli(), Value: r.Value}
		if p, ok := t.Param(r.Param); ok {
			l.Name, l.Unit, l.Precision = p.Name(c.lang), p.Unit, p.Precision
		}
		out = append(out, l)
	}
	return out, nil
}

// poiDetect serves GET /apis/poi/{id}/detect: the latest value of each parameter.
func (s *Server) poiDetect(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	list, err := s.latest(c, d)
	if err != nil {
		return nil, err
	}
	return struct {
		LastReportTime *int64      `json:"lastReportTime"`
		List           []latestDTO `json:"list"`
	}{ms(d.LastReportAt), list}, nil
}

// poiTags serves GET /apis/poi/{id}/tags.
func (s *Server) poiTags(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	return nonNil(d.Tags), nil
}

// poiIndicator serves GET /apis/poi/{id}/indicator: battery, signal,
// charge voltage and last report, with the charging advice when low.
func (s *Server) poiIndicator(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	low := d.Battery != nil && *d.Battery < devices.LowBattery
	advice := ""
	if low {
		advice = i18n.T(c.lang, "device.battery.chargeAdvice", nil)
	}
	st := d.StatusAt(time.Now())
	return struct {
		Battery        *float64 `json:"battery"`
		LowBattery     bool     `json:"lowBattery"`
		Advice         string   `json:"advice"`
		Signal         *float64 `json:"signal"`
		ChargeVoltage  *float64 `json:"chargeVoltage"`
		LastReportTime *int64   `json:"lastReportTime"`
		Status         string   `json:"status"`
		Faults         []int    `json:"faults"`
	}{d.Battery, low, advice, d.Signal, d.ChargeVoltage, ms(d.LastReportAt), string(st), nonNil(d.Faults)}, nil
}

type salesDTO struct {
	InstallTime      *int64 `json:"installTime"`
	ServiceUntil     *int64 `json:"serviceUntil"`
	WarrantyUntil    *int64 `json:"warrantyUntil"`
	ServiceExpired   bool   `json:"serviceExpired"`
	WarrantyExpired  bool   `json:"warrantyExpired"`
	RegistrationTime int64  `json:"registrationTime"`
}

func toSales(d *devices.Device) salesDTO {
	now := time.Now()
	return salesDTO{
		InstallTime: ms(d.InstallAt), ServiceUntil: ms(d.ServiceUntil), WarrantyUntil: ms(d.WarrantyUntil),
		ServiceExpired:   d.ServiceUntil != nil && now.After(*d.ServiceUntil),
		WarrantyExpired:  d.WarrantyUntil != nil && now.After(*d.WarrantyUntil),
		RegistrationTime: d.CreatedAt.UnixMilli(),
	}
}

// poiSales serves GET /apis/poi/{id}/sales: data service period and warranty.
func (s *Server) poiSales(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	return toSales(d), nil
}

// poiRemove serves DELETE /apis/poi/{id}/remove.
func (s *Server) poiRemove(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return nil, s.Devices.Remove(c.r.Context(), c.account.ID, id)
}

// poiConfig serves GET /apis/poi/{id}/config.
func (s *Server) poiConfig(c *call) (any, error) {
	d, _, err := s.device(c)
	if err != nil {
		return nil, err
	}
	return d.Config, nil
}

// putConfig serves PUT /apis/poi/{id}/config.
func (s *Server) putConfig(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	var cfg devices.Config
	if err := decode(c.r, &cfg); err != nil {
		return nil, err
	}
	if err := s.Devices.UpdateConfig(c.r.Context(), c.account.ID, id, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// poiEncryption serves GET /apis/poi/encryption?id=: the device's MQTT and
// HTTP credentials, for its owner.
func (s *Server) poiEncryption(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	d, key, err := s.Devices.Credentials(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return struct {
		SN        string `json:"sn"`
		Username  string `json:"username"`
		Key       string `json:"key"`
		Topic     string `json:"topic"`
		Status    string `json:"statusTopic"`
		LabelCode string `json:"labelCode"`
	}{d.SN, d.SN, key, "devices/" + d.SN + "/telemetry", "devices/" + d.SN + "/status", s.Devices.LabelCode(d.SN)}, nil
}

// poiTopology serves GET /apis/poi/topology?id=: a host and its slaves.
func (s *Server) poiTopology(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	host, slaves, err := s.Devices.Topology(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := struct {
		Host   deviceDTO   `json:"host"`
		Slaves []deviceDTO `json:"slaves"`
	}{Host: s.toDevice(c, host, now), Slaves: []deviceDTO{}}
	for _, sl := range slaves {
		out.Slaves = append(out.Slaves, s.toDevice(c, sl, now))
	}
	return out, nil
}

// poiScan serves GET /apis/poi/scan?code=: what a device label says.
func (s *Server) poiScan(c *call) (any, error) {
	code := c.r.URL.Query().Get("code")
	if code == "" {
		return nil, errs.Invalid("code", "error.required")
	}
	sc, err := s.Devices.Scan(c.r.Context(), c.account.ID, code)
	if err != nil {
		return nil, err
	}
	t := sc.Device.Type()
	out := struct {
		SN       string `json:"sn"`
		TypeID   int    `json:"typeId"`
		TypeName string `json:"typeName"`
		Model    string `json:"model"`
		Bound    bool   `json:"bound"`
		Mine     bool   `json:"mine"`
		ID       *int64 `json:"id,omitempty"`
		Name     string `json:"name,omitempty"`
	}{SN: sc.Device.SN, TypeID: sc.Device.TypeID, TypeName: t.Name(c.lang), Model: t.Model, Bound: sc.Bound, Mine: sc.Mine}
	if sc.Mine {
		out.ID, out.Name = &sc.Device.ID, sc.Device.Name
	}
	return out, nil
}

// poiBind serves PUT /apis/poi/scan/bind {code, name}.
func (s *Server) poiBind(c *call) (any, error) {
	var b struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}
	if err := decode(c.r, &b); err != nil {
		return nil, err
	}
	if b.Code == "" {
		return nil, errs.Invalid("code", "error.required")
	}
	d, err := s.Devices.Bind(c.r.Context(), c.account.ID, b.Code, b.Name)
	if err != nil {
		return nil, err
	}
	return s.toDevice(c, d, time.Now()), nil
}

// exportDevices serves GET /apis/export/device/info: the device list as XLSX.
func (s *Server) exportDevices(c *call) (any, error) {
	list, err := s.Devices.All(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := sheet.DeviceList(&buf, c.lang, list, time.Now(), s.location()); err != nil {
		return nil, errs.Internal("export devices: %w", err)
	}
	name := "devices-" + time.Now().In(s.location()).Format("20060102") + ".xlsx"
	return &download{
		contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		filename:    name, body: buf.Bytes(),
	}, nil
}

// download is a handler result sent as a file instead of the envelope.
type download struct {
	contentType string
	filename    string // empty: shown inline
	body        []byte
	cache       string
	release     func() // if set, called once body is written
}

func (d *download) write(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", d.contentType)
	h.Set("Content-Length", strconv.Itoa(len(d.body)))
	if d.filename != "" {
		h.Set("Content-Disposition", `attachment; filename="`+d.filename+`"; filename*=UTF-8''`+url.PathEscape(d.filename))
	}
	if d.cache != "" {
		h.Set("Cache-Control", d.cache)
	}
	w.WriteHeader(http.StatusOK)
	w.Write(d.body)
	if d.release != nil {
		d.release()
	}
}

func (s *Server) location() *time.Location {
	if s.Location != nil {
		return s.Location
	}
	return time.Local
}

// listTags serves GET /apis/tags.
func (s *Server) listTags(c *call) (any, error) { return s.Devices.Tags(c.r.Context(), c.account.ID) }

// createTag serves POST /apis/tag {tag}.
func (s *Server) createTag(c *call) (any, error) {
	var b struct {
		Tag string `json:"tag"`
	}
	if err := decode(c.r, &b); err != nil {
		return nil, err
	}
	return s.Devices.CreateTag(c.r.Context(), c.account.ID, b.Tag)
}

// deleteTag serves DELETE /apis/tag/{id}.
func (s *Server) deleteTag(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Devices.DeleteTag(c.r.Context(), c.account.ID, id)
}

// tagDevice serves POST /apis/poi/{id}/tag {tagId}.
func (s *Server) tagDevice(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		TagID int64 `json:"tagId"`
	}
	if err := decode(c.r, &b); err != nil {
		return nil, err
	}
	if b.TagID == 0 {
		return nil, errs.Invalid("tagId", "error.required")
	}
	if err := s.Devices.TagDevice(c.r.Context(), c.account.ID, id, b.TagID); err != nil {
		return nil, err
	}
	d, _, err := s.Devices.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return nonNil(d.Tags), nil
}

// untagDevice serves DELETE /apis/poi/{id}/tag/{tagId}.
func (s *Server) untagDevice(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	tag, err := pathID(c, "tagId")
	if err != nil {
		return nil, err
	}
	return nil, s.Devices.UntagDevice(c.r.Context(), c.account.ID, id, tag)
}
