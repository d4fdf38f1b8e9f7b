package httpapi

import (
	"encoding/json"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// poiInfo serves GET /apis/poi/info?id= (or ?hashId=): the header of a detail page.
func (s *Server) poiInfo(c *call) (any, error) {
	d, r := c.device, c.right
	return withRight(s.toDevice(c, d, time.Now()), r), nil
}

// poiDetail serves GET /apis/poi/detail?id= (or ?hashId=): everything about a device,
// with its latest readings and, for its owner, why its last report was refused.
func (s *Server) poiDetail(c *call) (any, error) {
	d, r := c.device, c.right
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
	d := c.device
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
	d := c.device
	return profileBody{Name: d.Name, Location: d.Location, Lng: d.Lng, Lat: d.Lat, Altitude: d.Altitude,
		InstallTime: ms(d.InstallAt)}, nil
}

// putProfile serves PUT /apis/poi/{id}/profile.
func (s *Server) putProfile(c *call) (any, error) {
	id := c.device.ID
	var b profileBody
	if err := decode(c, &b); err != nil {
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
	var err error
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
	rs, err := s.History.Latest(c.r.Context(), d.ID)
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
	d := c.device
	list, err := s.latest(c, d)
	if err != nil {
		return nil, err
	}
	return struct {
		LastReportTime *int64      `json:"lastReportTime"`
		List           []latestDTO `json:"list"`
	}{ms(d.LastReportAt), list}, nil
}

// poiIndicator serves GET /apis/poi/{id}/indicator: battery, signal,
// charge voltage and last report, with the charging advice when low.
func (s *Server) poiIndicator(c *call) (any, error) {
	d := c.device
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
	d := c.device
	return toSales(d), nil
}

// poiRemove serves DELETE /apis/poi/{id}/remove.
func (s *Server) poiRemove(c *call) (any, error) {
	id := c.device.ID
	return nil, s.Devices.Remove(c.r.Context(), c.account.ID, id)
}

// configBody is a device's settings as the config calls carry them:
// reportInterval in minutes, 1 to 1440, or null for the type's interval.
type configBody struct {
	ReportInterval *int `json:"reportInterval"`
}

func (b *configBody) validate() error {
	if b.ReportInterval != nil && (*b.ReportInterval < devices.MinReportInterval || *b.ReportInterval > devices.MaxReportInterval) {
		return errs.Invalid("reportInterval", "device.config.interval").
			With(map[string]any{"min": devices.MinReportInterval, "max": devices.MaxReportInterval})
	}
	return nil
}

func toConfigBody(cfg devices.Config) configBody {
	if cfg.ReportInterval == 0 {
		return configBody{}
	}
	return configBody{ReportInterval: &cfg.ReportInterval}
}

// poiConfig serves GET /apis/poi/{id}/config.
func (s *Server) poiConfig(c *call) (any, error) {
	return toConfigBody(c.device.Config), nil
}

// putConfig serves PUT /apis/poi/{id}/config.
func (s *Server) putConfig(c *call) (any, error) {
	id := c.device.ID
	var b configBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	var cfg devices.Config
	if b.ReportInterval != nil {
		cfg.ReportInterval = *b.ReportInterval
	}
	if err := s.Devices.UpdateConfig(c.r.Context(), c.account.ID, id, cfg); err != nil {
		return nil, err
	}
	out := configAnswer{configBody: toConfigBody(cfg)}
	// The device learns its interval by a command, which the answer names
	// so the page can follow it.
	d := *c.device
	d.Config = cfg
	if t := d.Type(); s.Commands != nil && t != nil {
		if _, ok := t.Command(devices.CmdReportInterval); ok {
			params, _ := json.Marshal(map[string]int{"minutes": int(d.Interval() / time.Minute)})
			cmd, err := s.Commands.SendAuthorized(c.r.Context(), commands.Sender{Account: c.account.ID, Source: commands.SourceSettings},
				&d, devices.CmdReportInterval, params)
			if err != nil {
				return nil, err
			}
			dto := toCommand(c.lang, &d, cmd)
			out.Command = &dto
		}
	}
	return out, nil
}

// configAnswer is the saved settings and the command that takes them to
// the device (none for a slave, which has no downlink).
type configAnswer struct {
	configBody
	Command *commandDTO `json:"command,omitempty"`
}

// poiTopology serves GET /apis/poi/topology?id=: a host and its slaves.
func (s *Server) poiTopology(c *call) (any, error) {
	id := c.device.ID
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
