package httpapi

import (
	_ "embed"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

type appDTO struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	AppKey     string  `json:"appKey"`
	PushURL    string  `json:"pushUrl"`
	Range      string  `json:"range"`
	DeviceIDs  []int64 `json:"deviceIds"`
	Published  bool    `json:"published"`
	ChannelID  *int64  `json:"channelId"`
	CreateTime int64   `json:"createTime"`
}

func toApp(a *openapi.App) appDTO {
	out := appDTO{ID: a.ID, Name: a.Name, AppKey: a.AppKey, PushURL: a.PushURL, Range: "devices", DeviceIDs: a.DeviceIDs,
		Published: a.Published, CreateTime: a.CreatedAt.UnixMilli()}
	if a.AllDevices {
		out.Range = "all"
	}
	if out.DeviceIDs == nil {
		out.DeviceIDs = []int64{}
	}
	if a.ChannelID != 0 {
		id := a.ChannelID
		out.ChannelID = &id
	}
	return out
}

type appBody struct {
	Name      string  `json:"name"`
	PushURL   string  `json:"pushUrl"`
	Range     string  `json:"range"`
	DeviceIDs []int64 `json:"deviceIds"`
}

func (b *appBody) validate() error {
	switch b.Range {
	case "", "all", "devices":
		return nil
	}
	return errs.Invalid("range", "query.unknownValue")
}

func (b *appBody) app(owner int64) *openapi.App {
	return &openapi.App{OwnerID: owner, Name: b.Name, PushURL: b.PushURL, DeviceIDs: b.DeviceIDs, AllDevices: b.Range != "devices"}
}

// appList serves GET /apis/openapi/applications.
func (s *Server) appList(c *call) (any, error) {
	as, err := s.OpenAPI.List(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	all := make([]appDTO, len(as))
	for i, a := range as {
		all[i] = toApp(a)
	}
	return page(c, all)
}

// appCreate serves POST /apis/openapi/application: the answer carries the
// secret, the only time it is shown.
func (s *Server) appCreate(c *call) (any, error) {
	var b appBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	a := b.app(c.account.ID)
	secret, err := s.OpenAPI.Create(c.r.Context(), a)
	if err != nil {
		return nil, err
	}
	return struct {
		appDTO
		AppSecret string `json:"appSecret"`
	}{toApp(a), secret}, nil
}

// appGet serves GET /apis/openapi/application/{id}.
func (s *Server) appGet(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	a, err := s.OpenAPI.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toApp(a), nil
}

// appUpdate serves PUT /apis/openapi/application/{id}.
func (s *Server) appUpdate(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var b appBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	a := b.app(c.account.ID)
	a.ID = id
	if err := s.OpenAPI.Update(c.r.Context(), a); err != nil {
		return nil, err
	}
	return toApp(a), nil
}

// appDelete serves DELETE /apis/openapi/application/{id}.
func (s *Server) appDelete(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.OpenAPI.Delete(c.r.Context(), c.account.ID, id)
}

// appPublish serves PUT /apis/openapi/application/{id}/publish {published}.
func (s *Server) appPublish(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var b publishBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	a, err := s.OpenAPI.Publish(c.r.Context(), c.account.ID, id, *b.Published)
	if err != nil {
		return nil, err
	}
	return toApp(a), nil
}

// publishBody says whether an application is published.
type publishBody struct {
	Published *bool `json:"published"`
}

func (b *publishBody) validate() error {
	if b.Published == nil {
		return errs.Invalid("published", "error.required")
	}
	return nil
}

// appSecret serves POST /apis/openapi/application/{id}/secret.
func (s *Server) appSecret(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	secret, err := s.OpenAPI.ResetSecret(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return struct {
		AppSecret string `json:"appSecret"`
	}{secret}, nil
}

//go:embed openapi.json
var openAPIDoc []byte

// openAPISpec serves the OpenAPI 3.1 document of the open API.
func (s *Server) openAPISpec(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(openAPIDoc)
}

// signedFunc answers a call of the open API for an application.
type signedFunc func(c *call, app *openapi.App) (any, error)

// maxSignedBody bounds what a signed call may send.
const maxSignedBody = 1 << 20

// signed wraps an open-API handler: the request must carry a valid
// signature of a published application (docs/open-api.md).
func (s *Server) signed(fn signedFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, lang: i18n.Parse(r.Header.Get("lang"))}
		s.serveAPI(w, r, c, func(c *call) (any, error) {
			body, err := io.ReadAll(io.LimitReader(r.Body, maxSignedBody+1))
			if err != nil || len(body) > maxSignedBody {
				return nil, errs.New(errs.EInvalid, "error.badJSON")
			}
			app, err := openapi.Authenticate(r.Context(), s.OpenAPI.Store, s.OpenAPI.Keys, openapi.Request{
				Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: body,
				Key: r.Header.Get(openapi.HeaderKey), Timestamp: r.Header.Get(openapi.HeaderTimestamp),
				Nonce: r.Header.Get(openapi.HeaderNonce), Signature: r.Header.Get(openapi.HeaderSignature),
			}, time.Now())
			if err != nil {
				return nil, err
			}
			return fn(c, app)
		})
	})
}

type oaDeviceDTO struct {
	ID             int64    `json:"id"`
	SN             string   `json:"sn"`
	Name           string   `json:"name"`
	TypeID         int      `json:"typeId"`
	Model          string   `json:"model"`
	TypeName       string   `json:"typeName"`
	Category       string   `json:"category"`
	Status         string   `json:"status"`
	Lat            *float64 `json:"lat"`
	Lng            *float64 `json:"lng"`
	LastReportTime *int64   `json:"lastReportTime"`
	APIOnly        bool     `json:"apiOnly"`
}

func toOADevice(d *devices.Device, lang i18n.Lang, now time.Time) oaDeviceDTO {
	out := oaDeviceDTO{ID: d.ID, SN: d.SN, Name: d.Name, TypeID: d.TypeID, Status: string(d.StatusAt(now)),
		Lat: d.Lat, Lng: d.Lng, LastReportTime: ms(d.LastReportAt), APIOnly: d.APIOnly}
	if t := d.Type(); t != nil {
		out.Model, out.TypeName, out.Category = t.Model, t.Name(lang), string(t.Category)
	}
	return out
}

// oaDevices serves GET /openapi/v1/devices: the devices in the
// application's range.
func (s *Server) oaDevices(c *call, app *openapi.App) (any, error) {
	ds, err := s.OpenAPI.Store.AppDevices(c.r.Context(), app)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	all := make([]oaDeviceDTO, len(ds))
	for i, d := range ds {
		all[i] = toOADevice(d, c.lang, now)
	}
	return page(c, all)
}

// oaFind returns the device named by {sn} if the application reaches it;
// any other is ENOTFOUND.
func (s *Server) oaFind(c *call, app *openapi.App) (*devices.Device, error) {
	d, err := s.Devices.FindBySN(c.r.Context(), c.r.PathValue("sn"))
	if err != nil {
		return nil, err
	}
	if !app.InRange(d) {
		return nil, errs.NotFound()
	}
	return d, nil
}

type oaParamDTO struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Precision int    `json:"precision"`
	PerNode   bool   `json:"perNode"`
}

// oaDevice serves GET /openapi/v1/devices/{sn}: metadata and the
// parameter catalogue.
func (s *Server) oaDevice(c *call, app *openapi.App) (any, error) {
	d, err := s.oaFind(c, app)
	if err != nil {
		return nil, err
	}
	out := struct {
		oaDeviceDTO
		Nodes  []int        `json:"nodes"`
		Params []oaParamDTO `json:"params"`
	}{oaDeviceDTO: toOADevice(d, c.lang, time.Now()), Nodes: []int{}, Params: []oaParamDTO{}}
	if t := d.Type(); t != nil {
		if t.Nodes != nil {
			out.Nodes = t.Nodes
		}
		for _, p := range t.Params {
			out.Params = append(out.Params, oaParamDTO{p.ID, p.Name(c.lang), p.Unit, p.Precision, p.PerNode})
		}
	}
	return out, nil
}

// oaLatest serves GET /openapi/v1/devices/{sn}/latest: the newest value of
// every parameter, with its time.
func (s *Server) oaLatest(c *call, app *openapi.App) (any, error) {
	d, err := s.oaFind(c, app)
	if err != nil {
		return nil, err
	}
	rs, err := s.History.Latest(c.r.Context(), d.ID)
	if err != nil {
		return nil, err
	}
	type value struct {
		Param string  `json:"param"`
		Node  int     `json:"node"`
		TS    int64   `json:"ts"`
		Value float64 `json:"value"`
	}
	out := struct {
		SN     string  `json:"sn"`
		Values []value `json:"values"`
	}{SN: d.SN, Values: []value{}}
	for _, r := range rs {
		out.Values = append(out.Values, value{r.Param, r.Node, r.Time.UnixMilli(), r.Value})
	}
	return out, nil
}

// Limits of one history call.
const (
	oaMaxRaw   = 31 * 24 * time.Hour
	oaMaxDaily = 366 * 24 * time.Hour
)

// oaHistory serves GET /openapi/v1/devices/{sn}/history?begin&end[&dim=raw|daily][&params=a,b][&nodes=10,20].
func (s *Server) oaHistory(c *call, app *openapi.App) (any, error) {
	d, err := s.oaFind(c, app)
	if err != nil {
		return nil, err
	}
	q := c.r.URL.Query()
	bound := func(name string) (time.Time, error) {
		n, err := strconv.ParseInt(q.Get(name), 10, 64)
		if err != nil || n <= 0 {
			return time.Time{}, errs.Invalid(name, "openapi.time")
		}
		return time.UnixMilli(n), nil
	}
	begin, err := bound("begin")
	if err != nil {
		return nil, err
	}
	end, err := bound("end")
	if err != nil {
		return nil, err
	}
	dim := q.Get("dim")
	limit := oaMaxRaw
	switch dim {
	case "", "raw":
		dim = "raw"
	case "daily":
		limit = oaMaxDaily
	default:
		return nil, errs.Invalid("dim", "query.unknownValue")
	}
	if !end.After(begin) || end.Sub(begin) > limit {
		return nil, errs.Invalid("end", "openapi.range").With(map[string]any{"days": int(limit.Hours() / 24)})
	}
	tq := telemetry.HistoryQuery{DeviceID: d.ID, Begin: begin, End: end, Daily: dim == "daily"}
	t := d.Type()
	if v := q.Get("params"); v != "" {
		for p := range strings.SplitSeq(v, ",") {
			if t == nil {
				break
			}
			if _, ok := t.Param(p); !ok {
				return nil, errs.Invalid("params", "query.unknownValue")
			}
			tq.Params = append(tq.Params, p)
		}
	}
	if v := q.Get("nodes"); v != "" {
		for n := range strings.SplitSeq(v, ",") {
			depth, err := strconv.Atoi(n)
			if err != nil {
				return nil, errs.Invalid("nodes", "query.unknownValue")
			}
			tq.Nodes = append(tq.Nodes, depth)
		}
	}
	series, err := s.History.Read(c.r.Context(), tq)
	if err != nil {
		return nil, err
	}
	if dim == "raw" {
		type column struct {
			Param  string    `json:"param"`
			Node   int       `json:"node"`
			Times  []int64   `json:"times"`
			Values []float64 `json:"values"`
		}
		out := make([]column, len(series))
		for i, x := range series {
			out[i] = column{x.Param, x.Node, nonNil(x.TS), nonNil(x.V)}
		}
		return struct {
			SN     string   `json:"sn"`
			Dim    string   `json:"dim"`
			Series []column `json:"series"`
		}{d.SN, dim, out}, nil
	}
	type day struct {
		Param string  `json:"param"`
		Node  int     `json:"node"`
		Day   string  `json:"day"`
		Min   float64 `json:"min"`
		Max   float64 `json:"max"`
		Avg   float64 `json:"avg"`
		Sum   float64 `json:"sum"`
		Count int     `json:"count"`
	}
	out := []day{}
	for _, sr := range series {
		for _, x := range sr.Days {
			out = append(out, day{x.Param, x.Node, x.Day.In(s.location()).Format(time.DateOnly), x.Min, x.Max, x.Sum / float64(max(x.Count, 1)), x.Sum, x.Count})
		}
	}
	return struct {
		SN   string `json:"sn"`
		Dim  string `json:"dim"`
		Days []day  `json:"days"`
	}{d.SN, dim, out}, nil
}
