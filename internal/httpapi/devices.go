package httpapi

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
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
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	f.Limit, f.Offset = p.size, p.offset()
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
