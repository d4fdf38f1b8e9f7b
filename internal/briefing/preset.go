// Package briefing makes the soil-moisture briefing (墒情简报) a county
// agriculture or water bureau sends every week or ten days: per region and
// depth band the mean moisture, relative moisture and GB/T 32136-2015 drought
// grade, waterlogging, rainfall, the forecast and advice (SPEC §3 "Soil
// briefing config", §7 "Moisture briefing").
package briefing

import (
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Limits of a preset.
const (
	MaxName       = 32
	MaxText       = 64 // province, city, district, company, unit name
	MaxRegions    = 50
	MaxDevices    = 500 // soil devices of a preset
	MaxWeather    = 50
	MaxRecipients = 10
)

// Bands are the briefing depth bands of SPEC §9, cm.
var Bands = [3][2]int{{0, 20}, {20, 40}, {40, 60}}

// DefaultBandNodes are the nodes (depths, cm) each band takes when a
// preset names none: the two standard nodes inside it.
var DefaultBandNodes = [3][]int{{10, 20}, {30, 40}, {50, 60}}

// Period is how often a briefing comes out and how long a span it covers.
type Period string

const (
	PeriodWeek  Period = "week"  // 7 days
	PeriodDekad Period = "dekad" // 10 days (旬)
)

// Days is the period's length.
func (p Period) Days() int {
	if p == PeriodDekad {
		return 10
	}
	return 7
}

// Template ids.
const (
	TemplateCounty = "county-weekly"
	TemplateFarm   = "farm"
)

// Region is a named area and its soil devices.
type Region struct {
	Name      string  `json:"name"`
	DeviceIDs []int64 `json:"deviceIds"`
}

// SoilDevice is a soil device of the preset with an optional field
// capacity (vol %) that overrides its settings' per-node values.
type SoilDevice struct {
	DeviceID      int64    `json:"deviceId"`
	FieldCapacity *float64 `json:"fieldCapacity,omitempty"`
}

// Schedule says when the briefing is made and mailed by itself.
type Schedule struct {
	Enabled bool `json:"enabled"`
	// Weekday (0 Sunday … 6 Saturday) of a weekly briefing; a dekad
	// briefing comes out on the 1st, 11th and 21st of the month.
	Weekday int `json:"weekday"`
	Hour    int `json:"hour"`
	Minute  int `json:"minute"`
}

// Preset is a briefing configuration (SPEC §3 "Soil briefing config").
type Preset struct {
	ID         int64     `json:"configId"`
	OwnerID    int64     `json:"-"`
	Name       string    `json:"name"`
	TemplateID string    `json:"templateId"`
	Province   string    `json:"province"`
	City       string    `json:"city"`
	District   string    `json:"district"`
	Company    string    `json:"company"`
	UnitName   string    `json:"unitName"`
	Lang       i18n.Lang `json:"lang"`
	Regions    []Region  `json:"regionList"`
	// Depth1..3 are the nodes (depths, cm) of the bands 0–20, 20–40 and
	// 40–60 cm; a device's band value is the mean of its nodes among them.
	Depth1        []int             `json:"depth1"`
	Depth2        []int             `json:"depth2"`
	Depth3        []int             `json:"depth3"`
	SoilDevices   []SoilDevice      `json:"zsDeviceIds"`
	WeatherIDs    []int64           `json:"tqDeviceIds"`
	Stage         agro.DroughtStage `json:"stage"`
	ReferenceNode int               `json:"referenceNode"` // the band (1–3) the headline grade and the advice read
	Period        Period            `json:"period"`
	Schedule      Schedule          `json:"schedule"`
	Recipients    []string          `json:"recipients"`
	// LastRunAt is the scheduled time of the last scheduled report queued
	// (the store keeps it; the API shows it).
	LastRunAt *time.Time `json:"-"`
	CreatedAt time.Time  `json:"-"`
	UpdatedAt time.Time  `json:"-"`
}

// BandNodes returns the nodes of band i (0–2).
func (p *Preset) BandNodes(i int) []int {
	return [3][]int{p.Depth1, p.Depth2, p.Depth3}[i]
}

// DeviceIDs returns every soil device of the preset, in its order.
func (p *Preset) DeviceIDs() []int64 {
	out := make([]int64, len(p.SoilDevices))
	for i, d := range p.SoilDevices {
		out[i] = d.DeviceID
	}
	return out
}

// FieldCapacity returns the override of a device, if any.
func (p *Preset) FieldCapacity(id int64) *float64 {
	for _, d := range p.SoilDevices {
		if d.DeviceID == id {
			return d.FieldCapacity
		}
	}
	return nil
}

func textField(field, v string, required bool) error {
	if required && strings.TrimSpace(v) == "" {
		return errs.Invalid(field, "error.required")
	}
	if utf8.RuneCountInString(v) > MaxText {
		return errs.Invalid(field, "briefing.text.tooLong").With(map[string]any{"max": MaxText})
	}
	return nil
}

// Normalize fills defaults (template, bands, stage, period, reference band,
// language) and trims text.
func (p *Preset) Normalize() {
	for _, s := range []*string{&p.Name, &p.Province, &p.City, &p.District, &p.Company, &p.UnitName} {
		*s = strings.TrimSpace(*s)
	}
	if p.TemplateID == "" {
		p.TemplateID = TemplateCounty
	}
	for i, d := range []*[]int{&p.Depth1, &p.Depth2, &p.Depth3} {
		if len(*d) == 0 {
			*d = slices.Clone(DefaultBandNodes[i])
		}
		slices.Sort(*d)
		*d = slices.Compact(*d)
	}
	if p.Stage == "" {
		p.Stage = agro.DroughtOtherStage
	}
	if p.Period == "" {
		p.Period = PeriodWeek
	}
	if p.ReferenceNode == 0 {
		p.ReferenceNode = 1
	}
	if p.Lang == "" {
		p.Lang = i18n.Default
	}
	for i := range p.Regions {
		p.Regions[i].Name = strings.TrimSpace(p.Regions[i].Name)
	}
	for i := range p.Recipients {
		p.Recipients[i] = strings.TrimSpace(p.Recipients[i])
	}
	if p.Regions == nil {
		p.Regions = []Region{}
	}
	if p.SoilDevices == nil {
		p.SoilDevices = []SoilDevice{}
	}
	if p.WeatherIDs == nil {
		p.WeatherIDs = []int64{}
	}
	if p.Recipients == nil {
		p.Recipients = []string{}
	}
}

// Validate checks the preset's own fields (not whether its devices are the
// caller's: Service does that). Returns EINVALID naming the field.
func (p *Preset) Validate() error {
	if strings.TrimSpace(p.Name) == "" {
		return errs.Invalid("name", "error.required")
	}
	if utf8.RuneCountInString(p.Name) > MaxName {
		return errs.Invalid("name", "briefing.text.tooLong").With(map[string]any{"max": MaxName})
	}
	if p.TemplateID != TemplateCounty && p.TemplateID != TemplateFarm {
		return errs.Invalid("templateId", "briefing.template.unknown")
	}
	for _, err := range []error{textField("province", p.Province, false), textField("city", p.City, false),
		textField("district", p.District, false), textField("company", p.Company, false), textField("unitName", p.UnitName, true)} {
		if err != nil {
			return err
		}
	}
	if p.Lang != i18n.ZhCN && p.Lang != i18n.ZhTW && p.Lang != i18n.EnUS {
		return errs.Invalid("lang", "briefing.lang.invalid")
	}
	if _, err := agro.ParseDroughtStage(string(p.Stage)); err != nil {
		return errs.Invalid("stage", "briefing.stage.invalid")
	}
	if p.Period != PeriodWeek && p.Period != PeriodDekad {
		return errs.Invalid("period", "briefing.period.invalid")
	}
	if p.ReferenceNode < 1 || p.ReferenceNode > 3 {
		return errs.Invalid("referenceNode", "briefing.reference.invalid")
	}
	for i, field := range []string{"depth1", "depth2", "depth3"} {
		for _, n := range p.BandNodes(i) {
			if n <= Bands[i][0] || n > Bands[i][1] {
				return errs.Invalid(field, "briefing.depth.outside").With(map[string]any{"from": Bands[i][0], "to": Bands[i][1]})
			}
		}
	}
	if len(p.SoilDevices) == 0 {
		return errs.Invalid("zsDeviceIds", "briefing.devices.required")
	}
	if len(p.SoilDevices) > MaxDevices {
		return errs.Invalid("zsDeviceIds", "briefing.devices.tooMany").With(map[string]any{"max": MaxDevices})
	}
	soil := map[int64]bool{}
	for _, d := range p.SoilDevices {
		if soil[d.DeviceID] {
			return errs.Invalid("zsDeviceIds", "briefing.devices.duplicate")
		}
		soil[d.DeviceID] = true
		if fc := d.FieldCapacity; fc != nil && !(*fc >= 5 && *fc <= 70) {
			return errs.Invalid("zsDeviceIds", "briefing.fieldCapacity.range")
		}
	}
	if len(p.Regions) == 0 {
		return errs.Invalid("regionList", "briefing.regions.required")
	}
	if len(p.Regions) > MaxRegions {
		return errs.Invalid("regionList", "briefing.regions.tooMany").With(map[string]any{"max": MaxRegions})
	}
	names := map[string]bool{}
	for _, r := range p.Regions {
		if r.Name == "" {
			return errs.Invalid("regionList", "briefing.region.name")
		}
		if utf8.RuneCountInString(r.Name) > MaxText {
			return errs.Invalid("regionList", "briefing.text.tooLong").With(map[string]any{"max": MaxText})
		}
		if names[r.Name] {
			return errs.Invalid("regionList", "briefing.region.duplicate").With(map[string]any{"name": r.Name})
		}
		names[r.Name] = true
		if len(r.DeviceIDs) == 0 {
			return errs.Invalid("regionList", "briefing.region.empty").With(map[string]any{"name": r.Name})
		}
		for _, id := range r.DeviceIDs {
			if !soil[id] {
				return errs.Invalid("regionList", "briefing.region.device").With(map[string]any{"name": r.Name})
			}
		}
	}
	if len(p.WeatherIDs) > MaxWeather {
		return errs.Invalid("tqDeviceIds", "briefing.devices.tooMany").With(map[string]any{"max": MaxWeather})
	}
	s := p.Schedule
	if s.Weekday < 0 || s.Weekday > 6 || s.Hour < 0 || s.Hour > 23 || s.Minute < 0 || s.Minute > 59 {
		return errs.Invalid("schedule", "briefing.schedule.invalid")
	}
	if len(p.Recipients) > MaxRecipients {
		return errs.Invalid("recipients", "briefing.recipients.tooMany").With(map[string]any{"max": MaxRecipients})
	}
	for _, r := range p.Recipients {
		if a, err := mail.ParseAddress(r); err != nil || a.Address != r {
			return errs.Invalid("recipients", "briefing.recipients.invalid").With(map[string]any{"address": r})
		}
	}
	if s.Enabled && len(p.Recipients) == 0 {
		return errs.Invalid("recipients", "briefing.recipients.required")
	}
	return nil
}

// Template is a starting point for a preset.
type Template struct {
	ID          string `json:"templateId"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Preset      Preset `json:"preset"`
}

// Templates returns the templates in lang: the county weekly report (several
// regions, the three bands, weekly on Monday at 08:00) and the single-farm
// report (one region, every ten days).
func Templates(lang i18n.Lang) []Template {
	county := Preset{TemplateID: TemplateCounty, Name: i18n.T(lang, "briefing.template.county", nil), Lang: lang,
		Period: PeriodWeek, Schedule: Schedule{Weekday: 1, Hour: 8}}
	farm := Preset{TemplateID: TemplateFarm, Name: i18n.T(lang, "briefing.template.farm", nil), Lang: lang,
		Period: PeriodDekad, Schedule: Schedule{Hour: 8},
		Regions: []Region{{Name: i18n.T(lang, "briefing.template.farmRegion", nil)}}}
	county.Normalize()
	farm.Normalize()
	return []Template{
		{ID: TemplateCounty, Name: county.Name, Description: i18n.T(lang, "briefing.template.countyDesc", nil), Preset: county},
		{ID: TemplateFarm, Name: farm.Name, Description: i18n.T(lang, "briefing.template.farmDesc", nil), Preset: farm},
	}
}
