package advice

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Task kinds.
const (
	KindIrrigate     = "irrigate"
	KindFrost        = "frost"
	KindHeat         = "heat"
	KindScout        = "scout"
	KindWaterlogging = "waterlogging"
)

// Task statuses: open until the farmer answers.
const (
	StatusOpen      = "open"
	StatusDone      = "done"
	StatusNotDone   = "notDone"
	StatusNotUseful = "notUseful"
)

// Feedbacks are the statuses a farmer may give a task.
var Feedbacks = []string{StatusDone, StatusNotDone, StatusNotUseful}

// MaxNote bounds a feedback note, characters.
const MaxNote = 500

// Facts are the numbers a task was derived from, kept with it so its
// arithmetic can be shown later in any language.
type Facts struct {
	// Irrigation.
	ProbeAt        *Millis  `json:"probeAt,omitempty"`
	ProbeDepletion *float64 `json:"probeDepletion,omitempty"`
	RainSince      *float64 `json:"rainSince,omitempty"`
	ETcRate        *float64 `json:"etcRate,omitempty"`
	HoursSince     *float64 `json:"hoursSince,omitempty"`
	ETcSince       *float64 `json:"etcSince,omitempty"`
	Depletion      *float64 `json:"depletion,omitempty"`
	RAW            *float64 `json:"raw,omitempty"`
	Amount         *float64 `json:"amount,omitempty"` // mm
	VolumeM3       *float64 `json:"volumeM3,omitempty"`
	// Frost and heat.
	Temp *float64 `json:"temp,omitempty"`
	Day  string   `json:"day,omitempty"`
	At   *Millis  `json:"at,omitempty"`
	// Scouting.
	Count *float64 `json:"count,omitempty"`
	Base  *float64 `json:"base,omitempty"`
	Param string   `json:"param,omitempty"`
	// Waterlogging.
	Relative *float64 `json:"relative,omitempty"`

	Sources []Source `json:"sources"`
}

// Task is a proposed task of a day, kept per account.
type Task struct {
	ID         int64
	AccountID  int64
	DeviceID   int64
	Day        string // local date
	Kind       string
	Facts      Facts
	DueAt      *time.Time
	Status     string
	Note       string
	CreatedAt  time.Time
	FeedbackAt *time.Time
}

// Store keeps the tasks.
type Store interface {
	// SaveAdviceTasks records the tasks proposed for a device on a day:
	// new ones are added, open ones get the new facts, answered ones are
	// kept as answered, and open ones no longer proposed are removed. It
	// returns every task of that device and day.
	SaveAdviceTasks(ctx context.Context, account, device int64, day string, tasks []Task, now time.Time) ([]Task, error)
	// AdviceTasks lists an account's tasks of a device, newest day first,
	// from day `since` on.
	AdviceTasks(ctx context.Context, account, device int64, since string, limit int) ([]Task, error)
	// AdviceTask returns one of the account's tasks; ENOTFOUND otherwise.
	AdviceTask(ctx context.Context, account, id int64) (*Task, error)
	// SetAdviceFeedback answers one of the account's tasks; ENOTFOUND
	// otherwise.
	SetAdviceFeedback(ctx context.Context, account, id int64, status, note string, at time.Time) error
	// NotUsefulKinds are the kinds of the device's tasks marked not useful
	// on day.
	NotUsefulKinds(ctx context.Context, account, device int64, day string) ([]string, error)
}

// propose derives the tasks of each device of r, as the advisor sees them.
func propose(r *Reality) map[int64][]Task {
	out := map[int64][]Task{}
	add := func(t Task) { out[t.DeviceID] = append(out[t.DeviceID], t) }
	for _, w := range r.Water {
		if w.NeedsWater {
			amount := math.Round(w.Depletion)
			f := Facts{ProbeAt: &w.ProbeAt, ProbeDepletion: ptr(w.ProbeDepletion), RainSince: ptr(w.RainSince), ETcRate: w.ETcRate,
				HoursSince: ptr(w.HoursSince), ETcSince: ptr(w.ETcSince), Depletion: ptr(w.Depletion), RAW: ptr(w.RAW), Amount: &amount,
				Sources: w.Sources}
			if w.AreaMu != nil {
				f.VolumeM3 = ptr(readings.Round(amount/1000**w.AreaMu*666.67, 1))
			}
			due := endOfDay(r.now)
			add(Task{DeviceID: w.DeviceID, Kind: KindIrrigate, Facts: f, DueAt: &due})
		}
		if w.Waterlogged {
			add(Task{DeviceID: w.DeviceID, Kind: KindWaterlogging, Facts: Facts{Relative: ptr(w.Relative), Sources: w.Sources}})
		}
	}
	lead := r.Devices[0].ID
	if r.Forecast != nil {
		if fr := r.Forecast.Frost; fr != nil {
			t := Task{DeviceID: lead, Kind: KindFrost, Facts: Facts{Temp: ptr(fr.Temp), Day: fr.Day, At: fr.At, Sources: r.Forecast.Sources}}
			if fr.At != nil {
				due := fr.At.T()
				t.DueAt = &due
			}
			add(t)
		}
		if h := r.Forecast.Heat; h != nil {
			add(Task{DeviceID: lead, Kind: KindHeat, Facts: Facts{Temp: ptr(h.Temp), Day: h.Day, Sources: r.Forecast.Sources}})
		}
	}
	for _, in := range r.Insects {
		if in.Doubled {
			add(Task{DeviceID: in.DeviceID, Kind: KindScout, Facts: Facts{Count: ptr(in.Windows[0]), Base: ptr(in.Base), Param: in.Param,
				Sources: in.Sources}})
		}
	}
	return out
}

func ptr(v float64) *float64 { return &v }

// endOfDay is the last moment of t's local day.
func endOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, t.Location()).Add(-time.Minute)
}

// Today proposes today's tasks for the field of r and records them: a
// task of a kind the farmer marked not useful yesterday for the same device
// is not proposed again today.
func (s *Service) Today(ctx context.Context, owner int64, r *Reality) ([]Task, error) {
	now := r.now.In(s.o.Readings.Location())
	yesterday := s.day(s.o.Readings.Midnight(now).Add(-12 * time.Hour))
	proposed := propose(r)
	var out []Task
	for _, d := range r.Devices {
		suppressed, err := s.o.Store.NotUsefulKinds(ctx, owner, d.ID, yesterday)
		if err != nil {
			return nil, err
		}
		var keep []Task
		for _, t := range proposed[d.ID] {
			if !slices.Contains(suppressed, t.Kind) {
				t.AccountID, t.Day = owner, r.Day
				keep = append(keep, t)
			}
		}
		saved, err := s.o.Store.SaveAdviceTasks(ctx, owner, d.ID, r.Day, keep, now)
		if err != nil {
			return nil, err
		}
		out = append(out, saved...)
	}
	return out, nil
}

// History lists an account's tasks of a device over the last days.
func (s *Service) History(ctx context.Context, owner, device int64, days int) ([]Task, error) {
	since := s.day(s.o.Readings.Midnight(s.now()).AddDate(0, 0, -days+1))
	return s.o.Store.AdviceTasks(ctx, owner, device, since, 500)
}

// Feedback records the farmer's answer on one of their tasks. Returns
// EINVALID naming status or note, ENOTFOUND for a task that is not theirs.
func (s *Service) Feedback(ctx context.Context, owner, id int64, status, note string) (*Task, error) {
	note = strings.TrimSpace(note)
	if status == "" {
		return nil, errs.Invalid("status", "error.required")
	}
	if !slices.Contains(Feedbacks, status) {
		return nil, errs.Invalid("status", "advice.status.unknown")
	}
	if utf8.RuneCountInString(note) > MaxNote {
		return nil, errs.Invalid("note", "advice.note.tooLong").With(map[string]any{"max": MaxNote})
	}
	if err := s.o.Store.SetAdviceFeedback(ctx, owner, id, status, note, s.now()); err != nil {
		return nil, err
	}
	return s.o.Store.AdviceTask(ctx, owner, id)
}

// Text is a task in words: its title and the steps of its arithmetic.
type Text struct {
	Title string   `json:"title"`
	Steps []string `json:"steps"`
}

// num shows a number with at most digits decimals, trailing zeros dropped.
func num(v *float64, digits int) string {
	if v == nil {
		return "--"
	}
	return fmt.Sprint(readings.Round(*v, digits))
}

// Describe puts a task in words in lang; name is its device's name.
func (s *Service) Describe(t *Task, name string, lang i18n.Lang) Text {
	loc := s.o.Readings.Location()
	f := t.Facts
	clock := func(m *Millis) string {
		if m == nil {
			return "--"
		}
		return m.T().In(loc).Format("01-02 15:04")
	}
	T := func(key string, p map[string]any) string { return i18n.T(lang, "advice."+key, p) }
	switch t.Kind {
	case KindIrrigate:
		steps := []string{
			T("irrigate.probe", map[string]any{"at": clock(f.ProbeAt), "probe": num(f.ProbeDepletion, 1)}),
			T("irrigate.since", map[string]any{"probe": num(f.ProbeDepletion, 1), "rain": num(f.RainSince, 1), "etc": num(f.ETcSince, 2),
				"rate": num(f.ETcRate, 2), "hours": num(f.HoursSince, 2), "depletion": num(f.Depletion, 1)}),
			T("irrigate.rule", map[string]any{"depletion": num(f.Depletion, 1), "raw": num(f.RAW, 1), "amount": num(f.Amount, 0)}),
		}
		if f.ETcRate == nil {
			steps[1] = T("irrigate.sinceNoET", map[string]any{"probe": num(f.ProbeDepletion, 1), "rain": num(f.RainSince, 1),
				"depletion": num(f.Depletion, 1)})
		}
		if f.VolumeM3 != nil {
			steps = append(steps, T("irrigate.volume", map[string]any{"volume": num(f.VolumeM3, 1)}))
		}
		return Text{Title: T("irrigate.title", map[string]any{"amount": num(f.Amount, 0), "device": name}), Steps: steps}
	case KindFrost:
		title := T("frost.titleDay", map[string]any{"temp": num(f.Temp, 1), "day": f.Day})
		if f.At != nil {
			title = T("frost.title", map[string]any{"temp": num(f.Temp, 1), "at": clock(f.At)})
		}
		return Text{Title: title, Steps: []string{T("frost.rule", map[string]any{"temp": num(f.Temp, 1), "day": f.Day, "limit": FrostTemp})}}
	case KindHeat:
		return Text{Title: T("heat.title", map[string]any{"temp": num(f.Temp, 1), "day": f.Day}),
			Steps: []string{T("heat.rule", map[string]any{"temp": num(f.Temp, 1), "limit": HeatTemp})}}
	case KindScout:
		return Text{Title: T("scout.title", map[string]any{"device": name}),
			Steps: []string{T("scout.rule", map[string]any{"count": num(f.Count, 0), "base": num(f.Base, 0), "min": ScoutMinCount})}}
	case KindWaterlogging:
		return Text{Title: T("waterlogging.title", map[string]any{"device": name}),
			Steps: []string{T("waterlogging.rule", map[string]any{"relative": num(f.Relative, 1), "limit": WaterloggedRelative})}}
	}
	return Text{Title: t.Kind}
}

// DeviceName is d's name, else its SN.
func DeviceName(d *devices.Device) string {
	if d.Name != "" {
		return d.Name
	}
	return d.SN
}
