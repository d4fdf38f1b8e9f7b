package httpapi

import (
	"net/url"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Onboarding: what a device label says, binding a device to the account
// that holds its label, the owner's view of its credentials, and the
// device's own activation call (docs/decisions.md, "Labels and binding").

// labelURL is the address a device's QR label encodes: the /apps/info page
// with the label code, under --public-url or else the address the caller
// reached the console at.
func (s *Server) labelURL(c *call, sn string) string {
	return s.baseURL(c) + "/apps/info?code=" + url.QueryEscape(s.Devices.LabelCode(sn))
}

// credentialsDTO is what the owner needs to connect a device.
type credentialsDTO struct {
	SN          string `json:"sn"`
	Username    string `json:"username"`
	Key         string `json:"key"`
	Topic       string `json:"topic"`
	StatusTopic string `json:"statusTopic"`
	// MQTTHost and MQTTPort are the embedded broker as the console's users
	// reach the server; MQTTPort is 0 when the server runs no broker.
	MQTTHost  string `json:"mqttHost"`
	MQTTPort  int    `json:"mqttPort"`
	IngestURL string `json:"ingestUrl"`
	LabelCode string `json:"labelCode"`
	LabelURL  string `json:"labelUrl"`
}

func (s *Server) toCredentials(c *call, d *devices.Device, key string) credentialsDTO {
	base := s.baseURL(c)
	host := c.r.Host
	if u, err := url.Parse(base); err == nil {
		host = u.Hostname()
	}
	return credentialsDTO{SN: d.SN, Username: d.SN, Key: key,
		Topic: "devices/" + d.SN + "/telemetry", StatusTopic: "devices/" + d.SN + "/status",
		MQTTHost: host, MQTTPort: s.MQTTPort, IngestURL: base + "/ingest/v1/telemetry",
		LabelCode: s.Devices.LabelCode(d.SN), LabelURL: s.labelURL(c, d.SN)}
}

// poiEncryption serves GET /apis/poi/encryption?id=: the device's MQTT and
// HTTP credentials, for its owner.
func (s *Server) poiEncryption(c *call) (any, error) {
	d, key, err := s.Devices.Credentials(c.r.Context(), c.account.ID, c.device.ID)
	if err != nil {
		return nil, err
	}
	return s.toCredentials(c, d, key), nil
}

// rotateKey serves POST /apis/poi/encryption/rotate?id=: a new key for the
// device, for its owner; the old one stops working at once.
func (s *Server) rotateKey(c *call) (any, error) {
	d, key, err := s.Devices.RotateKey(c.r.Context(), c.account.ID, c.device.ID)
	if err != nil {
		return nil, err
	}
	return s.toCredentials(c, d, key), nil
}

// scanDTO is what a label says, for the caller: the device's type and SN,
// and who holds it: the caller (with its id and name), another account
// (never named) or nobody.
type scanDTO struct {
	SN       string `json:"sn"`
	TypeID   int    `json:"typeId"`
	TypeName string `json:"typeName"`
	Model    string `json:"model"`
	// Holder is mine, other or free.
	Holder string `json:"holder"`
	Bound  bool   `json:"bound"`
	Mine   bool   `json:"mine"`
	Slave  bool   `json:"slave"`
	ID     *int64 `json:"id,omitempty"`
	HashID string `json:"hashId,omitempty"`
	Name   string `json:"name,omitempty"`
	// Page is the device's detail page kind, for opening it.
	Page string `json:"page"`
}

func (s *Server) scan(c *call, code string) (any, error) {
	sc, err := s.Devices.Scan(c.r.Context(), c.account.ID, code)
	if err != nil {
		return nil, err
	}
	d, t := sc.Device, sc.Device.Type()
	out := scanDTO{SN: d.SN, TypeID: d.TypeID, TypeName: t.Name(c.lang), Model: t.Model,
		Holder: "free", Bound: sc.Bound, Mine: sc.Mine, Slave: d.Slave, Page: string(t.Page)}
	switch {
	case sc.Mine:
		out.Holder, out.ID, out.HashID, out.Name = "mine", &d.ID, d.HashID, d.Name
	case sc.Bound:
		out.Holder = "other"
	}
	return out, nil
}

// poiScan serves GET /apis/poi/scan?code=: what a device label says. The
// code is the label's text, its URL, or the SN and check code typed.
func (s *Server) poiScan(c *call) (any, error) {
	code := c.r.URL.Query().Get("code")
	if code == "" {
		return nil, errs.Invalid("code", "error.required")
	}
	return s.scan(c, code)
}

// poiBind serves PUT /apis/poi/scan/bind {code, name}.
func (s *Server) poiBind(c *call) (any, error) {
	var b bindBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	return s.bind(c, b.Code, b.Name)
}

func (s *Server) bind(c *call, code, name string) (any, error) {
	d, err := s.Devices.Bind(c.r.Context(), c.account.ID, code, name)
	if err != nil {
		return nil, err
	}
	return s.toDevice(c, d, time.Now()), nil
}

// bindBody is a scanned label's code and the name to give the device.
type bindBody struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

func (b *bindBody) validate() error {
	if b.Code == "" {
		return errs.Invalid("code", "error.required")
	}
	return nil
}

// typedLabel is a label read by eye: the SN and the check code printed
// under the QR code.
type typedLabel struct {
	SN   string `json:"sn"`
	Code string `json:"code"`
	Name string `json:"name"`
}

func (b *typedLabel) validate() error {
	if b.SN == "" {
		return errs.Invalid("sn", "error.required")
	}
	if !devices.ValidSN(b.SN) {
		return errs.Invalid("sn", "device.sn.invalid")
	}
	if b.Code == "" {
		return errs.Invalid("code", "error.required")
	}
	return nil
}

func (b *typedLabel) label() string { return "fw:" + b.SN + ":" + b.Code }

// bixuDetect serves GET /apis/bixu/detect?sn=&code=: GET /apis/poi/scan for a
// label typed by hand.
func (s *Server) bixuDetect(c *call) (any, error) {
	q := c.r.URL.Query()
	b := typedLabel{SN: q.Get("sn"), Code: q.Get("code")}
	if err := b.validate(); err != nil {
		return nil, err
	}
	return s.scan(c, b.label())
}

// bixuBind serves POST /apis/bixu/bind {sn, code, name}: PUT
// /apis/poi/scan/bind for a label typed by hand.
func (s *Server) bixuBind(c *call) (any, error) {
	var b typedLabel
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	return s.bind(c, b.label(), b.Name)
}

// activate serves POST /activate: a device, authenticated with HTTP Basic
// (SN, key) as for ingest, learns where to send its reports, how often, and
// whether it has an owner yet. Nothing is stored; the call may be repeated
// at every power-on.
func (s *Server) activate(c *call) (any, error) {
	sn, key, ok := c.r.BasicAuth()
	if !ok {
		c.w.Header().Set("WWW-Authenticate", `Basic realm="fieldwatch devices", charset="UTF-8"`)
		return nil, errs.New(errs.EUnauthorized, "ingest.badCredentials")
	}
	d, err := s.Devices.Activate(c.r.Context(), sn, key)
	if err != nil {
		if errs.KindOf(err) == errs.EUnauthorized {
			c.w.Header().Set("WWW-Authenticate", `Basic realm="fieldwatch devices", charset="UTF-8"`)
		}
		return nil, err
	}
	cred := s.toCredentials(c, d, "")
	return struct {
		SN             string `json:"sn"`
		TypeID         int    `json:"typeId"`
		Bound          bool   `json:"bound"`
		ReportInterval int    `json:"reportInterval"` // minutes
		Topic          string `json:"topic"`
		StatusTopic    string `json:"statusTopic"`
		MQTTHost       string `json:"mqttHost"`
		MQTTPort       int    `json:"mqttPort"`
		IngestURL      string `json:"ingestUrl"`
		ServerTime     int64  `json:"serverTime"`
	}{d.SN, d.TypeID, d.OwnerID != 0, int(d.Interval() / time.Minute), cred.Topic, cred.StatusTopic,
		cred.MQTTHost, cred.MQTTPort, cred.IngestURL, time.Now().UnixMilli()}, nil
}
