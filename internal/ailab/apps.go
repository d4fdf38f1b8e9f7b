package ailab

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Application types: what an application looks at, which decides the
// devices it may watch.
const (
	AppInsect   = "insect"   // insect traps' catch boards (type 20)
	AppSeedling = "seedling" // seedling monitors' crops (type 22)
)

// AppTypes maps each application type to the device types it may watch.
var AppTypes = map[string][]int{AppInsect: {20}, AppSeedling: {22}}

// DetectParam is the device parameter a detection writes: the sum of the
// application's element values in a picture (devices.Type catalogues of
// the camera types hold it).
const DetectParam = "detectCount"

// Limits of an application.
const (
	MaxAppName        = 32
	MaxAppMediumName  = 64
	MaxAppDescription = 500
	MaxAppDevices     = 200
)

// App is a detection application: a model run on each new picture of the
// devices it watches while it is published.
type App struct {
	ID          int64          `json:"id"`
	OwnerID     int64          `json:"-"`
	Name        string         `json:"name"`
	MediumName  string         `json:"mediumName"`
	Description string         `json:"description"`
	Type        string         `json:"type"`
	ModelID     int64          `json:"modelId"`
	Elements    []ModelElement `json:"elements"`
	DeviceIDs   []int64        `json:"deviceIds"`
	Published   bool           `json:"published"`
	CreatedAt   time.Time      `json:"-"`
	UpdatedAt   time.Time      `json:"-"`
}

// Check refuses an application whose form is incomplete or out of bounds,
// naming the field: a missing name, type, model, element or device is
// 'Please fill in the form completely' (ailab.app.incomplete).
func (a *App) Check() error {
	a.Name = strings.TrimSpace(a.Name)
	a.MediumName = strings.TrimSpace(a.MediumName)
	switch {
	case a.Name == "":
		return errs.Invalid("name", "ailab.app.incomplete")
	case utf8.RuneCountInString(a.Name) > MaxAppName:
		return errs.Invalid("name", "ailab.app.tooLong").With(map[string]any{"max": MaxAppName})
	case utf8.RuneCountInString(a.MediumName) > MaxAppMediumName:
		return errs.Invalid("mediumName", "ailab.app.tooLong").With(map[string]any{"max": MaxAppMediumName})
	case utf8.RuneCountInString(a.Description) > MaxAppDescription:
		return errs.Invalid("description", "ailab.app.tooLong").With(map[string]any{"max": MaxAppDescription})
	case a.Type == "":
		return errs.Invalid("type", "ailab.app.incomplete")
	case AppTypes[a.Type] == nil:
		return errs.Invalid("type", "ailab.app.badType")
	case a.ModelID <= 0:
		return errs.Invalid("modelId", "ailab.app.incomplete")
	case len(a.Elements) == 0:
		return errs.Invalid("elements", "ailab.app.incomplete")
	case len(a.DeviceIDs) == 0:
		return errs.Invalid("deviceIds", "ailab.app.incomplete")
	case len(a.DeviceIDs) > MaxAppDevices:
		return errs.Invalid("deviceIds", "ailab.app.tooManyDevices").With(map[string]any{"max": MaxAppDevices})
	}
	seen := map[int64]bool{}
	ids := a.DeviceIDs[:0]
	for _, id := range a.DeviceIDs {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	a.DeviceIDs = ids
	return nil
}

// MatchElements replaces the application's elements, given by identifier,
// with the model's own (name, unit, identifier), in the model's output
// order. An identifier the model does not give is refused naming elements.
func (a *App) MatchElements(m Manifest) error {
	want := map[string]bool{}
	for _, e := range a.Elements {
		want[e.Identifier] = true
	}
	var out []ModelElement
	for _, e := range m.Elements {
		if want[e.Identifier] {
			out = append(out, e)
			delete(want, e.Identifier)
		}
	}
	if len(want) > 0 {
		missing := make([]string, 0, len(want))
		for id := range want {
			missing = append(missing, id)
		}
		slices.Sort(missing)
		return errs.Invalid("elements", "ailab.app.unknownElement").With(map[string]any{"elements": strings.Join(missing, ", ")})
	}
	a.Elements = out
	return nil
}

// RecordPackage is one element's result in a detection record: Valid is the
// element's value (a count in whole units, never below 0; the boxes kept;
// a class score), Average the model's mean output behind it (the count
// before rounding; the boxes' mean score; the score).
type RecordPackage struct {
	Identifier string  `json:"identifier"`
	Name       string  `json:"name"`
	Unit       string  `json:"unit"`
	Average    float64 `json:"average"`
	Valid      float64 `json:"valid"`
}

// Record is a detection record: one run of an application on one picture.
type Record struct {
	ID         int64           `json:"id"`
	OwnerID    int64           `json:"-"`
	AppID      *int64          `json:"appId"`
	AppName    string          `json:"appName"`
	DeviceID   int64           `json:"deviceId"`
	DeviceName string          `json:"deviceName"`
	SN         string          `json:"sn"`
	ImageID    *int64          `json:"imageId"`
	DetectedAt time.Time       `json:"-"`
	Location   string          `json:"location"`
	Lat        *float64        `json:"lat"`
	Lng        *float64        `json:"lng"`
	Packages   []RecordPackage `json:"packages"`
	Millis     float64         `json:"millis"`
	CreatedAt  time.Time       `json:"-"`
}

// Packages turns a model's result into the application's packages: its
// elements only, in its order.
func Packages(res *Result, elements []ModelElement) []RecordPackage {
	out := make([]RecordPackage, 0, len(elements))
	for _, e := range elements {
		p := RecordPackage{Identifier: e.Identifier, Name: e.Name, Unit: e.Unit}
		for _, v := range res.Values {
			if v.Identifier != e.Identifier {
				continue
			}
			switch res.Kind {
			case KindCount:
				p.Average, p.Valid = v.Value, math.Round(v.Value)
			case KindBoxes:
				p.Valid = v.Value
				var sum float64
				for _, b := range res.Boxes {
					if b.Element == e.Identifier {
						sum += b.Score
					}
				}
				if v.Value > 0 {
					p.Average = sum / v.Value
				}
			default:
				p.Average, p.Valid = v.Value, v.Value
			}
		}
		out = append(out, p)
	}
	return out
}

// Total is the reading a record writes (DetectParam): the sum of its
// packages' valid values. Only counting models (count, boxes) write one.
func Total(kind string, ps []RecordPackage) (float64, bool) {
	if kind != KindCount && kind != KindBoxes {
		return 0, false
	}
	var t float64
	for _, p := range ps {
		t += p.Valid
	}
	return t, true
}

// RecordFilter selects detection records.
type RecordFilter struct {
	DeviceID   int64
	AppID      int64
	Begin, End time.Time // zero: open
	Offset     int
	Limit      int // 0: all
}

// Job states.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
)

// Job is one run of an application on one picture, claimed by a worker.
type Job struct {
	ID       int64
	AppID    int64
	ImageID  int64
	DeviceID int64
	Attempts int // including the one running
}

// JobCounts are an application's jobs by state.
type JobCounts struct {
	Queued  int `json:"queued"`
	Running int `json:"running"`
	Done    int `json:"done"`
	Failed  int `json:"failed"`
}

// Work is what a claimed job runs on: the application, the device as it is
// now, and the picture.
type Work struct {
	Job        Job
	App        App
	DeviceName string
	SN         string
	TypeID     int
	Location   string
	Lat, Lng   *float64
	PictureAt  time.Time
	Picture    []byte
}
