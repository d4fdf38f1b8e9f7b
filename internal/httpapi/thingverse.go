package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// URNPrefix starts the URN the thingverse device API names a device by:
// urn:fieldwatch:device:{sn} (docs/decisions.md, "Thingverse device URNs").
const URNPrefix = "urn:fieldwatch:device:"

// DeviceURN is the URN of the device with serial number sn.
func DeviceURN(sn string) string { return URNPrefix + sn }

// parseURN returns the SN a device URN names. The "urn" scheme and the
// namespace are case-insensitive (RFC 8141); the SN is as stored. Returns
// EINVALID (urn: thingverse.urn).
func parseURN(s string) (string, error) {
	if len(s) > len(URNPrefix) && strings.EqualFold(s[:len(URNPrefix)], URNPrefix) {
		if sn := s[len(URNPrefix):]; devices.ValidSN(sn) {
			return sn, nil
		}
	}
	return "", errs.Invalid("urn", "thingverse.urn")
}

// urn wraps a device-scoped handler of the thingverse API: like dev, but the
// device is named by {urn} in the path. A device the caller cannot see and
// one that does not exist answer alike.
func (s *Server) urn(need devices.Need, fn apiFunc) http.Handler {
	return s.authed(func(c *call) (any, error) {
		sn, err := parseURN(c.r.PathValue("urn"))
		if err != nil {
			return nil, err
		}
		d, err := s.Devices.FindBySN(c.r.Context(), sn)
		if err != nil {
			return nil, err
		}
		if c.device, c.right, err = s.Devices.Open(c.r.Context(), c.account.ID, d.ID, need); err != nil {
			return nil, err
		}
		return fn(c)
	})
}

// tvDevice serves GET /apis/thingverse/device/{urn}: its URN and the
// device as /apis/poi/detail shows it.
func (s *Server) tvDevice(c *call) (any, error) {
	d, err := s.poiDetail(c)
	if err != nil {
		return nil, err
	}
	return struct {
		URN    string `json:"urn"`
		Device any    `json:"device"`
	}{DeviceURN(c.device.SN), d}, nil
}

// labelBody is PUT /apis/thingverse/device/{urn}/label {label}.
type labelBody struct {
	Label string `json:"label"`
}

// tvLabel serves PUT /apis/thingverse/device/{urn}/label: renames the
// device (its label is its name) and answers its profile.
func (s *Server) tvLabel(c *call) (any, error) {
	var b labelBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	if err := s.Devices.Rename(c.r.Context(), c.account.ID, c.device.ID, strings.TrimSpace(b.Label)); err != nil {
		if e := errs.As(err); e != nil && e.Field == "name" {
			f := *e
			f.Field = "label"
			return nil, &f
		}
		return nil, err
	}
	var err error
	if c.device, c.right, err = s.Devices.Get(c.r.Context(), c.account.ID, c.device.ID); err != nil {
		return nil, err
	}
	return s.poiProfile(c)
}

// tvService serves POST /apis/thingverse/device/{urn}/services/{name}
// with the command's parameters as the body: the command as recorded,
// sent through the commands service with source "api".
func (s *Server) tvService(c *call) (any, error) {
	params, err := readBody(c)
	if err != nil {
		return nil, err
	}
	cmd, err := s.Commands.SendAuthorized(c.r.Context(), commands.Sender{Account: c.account.ID, Source: commands.SourceAPI},
		c.device, c.r.PathValue("name"), params)
	if err != nil {
		// The body is the parameters themselves: name the input as it is in it.
		if e := errs.As(err); e != nil && strings.HasPrefix(e.Field, "params.") {
			f := *e
			f.Field = strings.TrimPrefix(e.Field, "params.")
			return nil, &f
		}
		return nil, err
	}
	return toCommand(c.lang, c.device, cmd), nil
}

// tvInsects serves GET /apis/thingverse/device/{urn}/insect/statistics?days=
// (default 7, at most 90): an insect trap's catch per local day and in all.
func (s *Server) tvInsects(c *call) (any, error) {
	d := c.device
	if _, ok := d.Type().Param("insectCount"); !ok {
		return nil, errs.Invalid("urn", "thingverse.noInsects")
	}
	days, err := queryInt(c.r.URL.Query(), "days", 7, 1, 90)
	if err != nil {
		return nil, err
	}
	end := time.Now()
	begin := end.AddDate(0, 0, -(days - 1))
	ss, err := s.History.Read(c.r.Context(), telemetry.HistoryQuery{DeviceID: d.ID, Params: []string{"insectCount"},
		Begin: begin, End: end, Daily: true, Combine: telemetry.CombineNone})
	if err != nil {
		return nil, err
	}
	type dayDTO struct {
		Day   int64   `json:"day"` // local midnight, unix ms
		Count float64 `json:"count"`
	}
	out := struct {
		URN   string   `json:"urn"`
		Days  int      `json:"days"`
		Total float64  `json:"total"`
		List  []dayDTO `json:"list"`
	}{URN: DeviceURN(d.SN), Days: days, List: []dayDTO{}}
	for _, se := range ss {
		for _, day := range se.Days {
			out.List = append(out.List, dayDTO{Day: day.Day.UnixMilli(), Count: day.Sum})
			out.Total += day.Sum
		}
	}
	return out, nil
}

// oemFind returns the device named by {id} if the application reaches
// it; any other is ENOTFOUND.
func (s *Server) oemFind(c *call, app *openapi.App) (*devices.Device, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	d, err := s.Devices.Owned(c.r.Context(), app.OwnerID, id)
	if err != nil {
		return nil, err
	}
	if !app.InRange(d) {
		return nil, errs.NotFound()
	}
	return d, nil
}

// oemShanjing serves GET /apis/oem/gov-lsw/{id}/shanjing: a landslide
// monitor's latest tilt, its trend over the last 30 days and the warning
// state (docs/open-api.md, "Government views").
func (s *Server) oemShanjing(c *call, app *openapi.App) (any, error) {
	d, err := s.oemFind(c, app)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	y, err := s.Tilt.Yaw(c.r.Context(), d, readings.Range{})
	if err != nil {
		return nil, err
	}
	tr, err := s.Tilt.Trend(c.r.Context(), d, readings.Range{}, 0)
	if err != nil {
		return nil, err
	}
	trend := toTiltTrend(tr, c.lang)
	slips := 0
	for _, se := range trend.Series {
		if se.Trend != nil {
			slips += len(se.Trend.Steps)
		}
	}
	warning := "normal"
	if slips > 0 {
		warning = "slip"
	}
	var latest *yawPointDTO
	if y.Latest != nil {
		l := toYawPoint(*y.Latest)
		latest = &l
	}
	return struct {
		Device  oaDeviceDTO          `json:"device"`
		Warning string               `json:"warning"`
		Slips   int                  `json:"slips"`
		Latest  *yawPointDTO         `json:"latest"`
		Trend   []tiltTrendSeriesDTO `json:"trend"`
	}{toOADevice(d, c.lang, now), warning, slips, latest, trend.Series}, nil
}

// oemPluviometer serves GET /apis/oem/gov-lsw/{id}/pluviometer: a rain
// gauge's latest reading, its totals and the rainstorm warning level.
func (s *Server) oemPluviometer(c *call, app *openapi.App) (any, error) {
	d, err := s.oemFind(c, app)
	if err != nil {
		return nil, err
	}
	l, err := s.Rain.Latest(c.r.Context(), d)
	if err != nil {
		return nil, err
	}
	return struct {
		Device oaDeviceDTO   `json:"device"`
		Latest rainLatestDTO `json:"latest"`
	}{toOADevice(d, c.lang, time.Now()), toRainLatest(l)}, nil
}
