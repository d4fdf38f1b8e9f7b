package soil

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// Crop is a crop the ET analysis knows: its FAO-56 single crop coefficient
// curve. Kc ini, mid and end are FAO-56 Table 12 ("Single (time-averaged)
// crop coefficients, Kc, and mean maximum plant heights for non stressed,
// well-managed crops in subhumid climates (RHmin ≈ 45%, u2 ≈ 2 m/s)"); a
// leaf row that leaves Kc ini blank takes its group's value. Stage lengths
// (days) are one row of FAO-56 Table 11 ("Lengths of crop development
// stages for various planting periods and climatic regions"), each named
// below with its planting time and region. Where Table 12 prints a range,
// the comment says which value is taken and why; crops_test.go pins every
// number to the published rows.
type Crop struct {
	ID    string
	Names devices.Names
	Curve agro.CropCurve
}

// Crops are the crop types of the settings. Every crop but "other" has its
// own rows in both tables; "other" has no curve: its ET analysis shows ET0
// only.
var Crops = []Crop{
	// Table 12 "Winter Wheat – with non-frozen soils": 0.7, 1.15, 0.25–0.4;
	// Kc end 0.4, the higher value, is the table's for hand-harvested crops
	// (0.25 for grain left to dry before machine harvest).
	// Table 11 "Winter Wheat": 30/140/40/30 (240), November, Mediterranean.
	{"wheat", devices.Names{ZhCN: "冬小麦", ZhTW: "冬小麥", EnUS: "Winter wheat"},
		agro.CropCurve{Initial: 30, Development: 140, Mid: 40, Late: 30, KcIni: 0.7, KcMid: 1.15, KcEnd: 0.4}},
	// Table 12 "Maize, Field (grain) (field corn)": 0.3, 1.20, 0.60–0.35;
	// Kc end 0.60 is the table's for harvest at high grain moisture (0.35
	// after the grain dries in the field).
	// Table 11 "Maize (grain)": 20/35/40/30 (125), June, Nigeria (humid).
	{"maize", devices.Names{ZhCN: "玉米", ZhTW: "玉米", EnUS: "Maize"},
		agro.CropCurve{Initial: 20, Development: 35, Mid: 40, Late: 30, KcIni: 0.3, KcMid: 1.2, KcEnd: 0.6}},
	// Table 12 "Rice": 1.05, 1.20, 0.90–0.60; Kc end 0.90, the first value
	// of the printed range.
	// Table 11 "Rice": 30/30/60/30 (150), Dec; May, Tropics; Mediterranean.
	{"rice", devices.Names{ZhCN: "水稻", ZhTW: "水稻", EnUS: "Rice"},
		agro.CropCurve{Initial: 30, Development: 30, Mid: 60, Late: 30, KcIni: 1.05, KcMid: 1.2, KcEnd: 0.9}},
	// Table 12 "Cotton": 0.35, 1.15–1.20, 0.70–0.50; Kc mid 1.20, the upper
	// value; Kc end 0.60, the middle of the printed range.
	// Table 11 "Cotton": 30/50/60/55 (195), Mar–May, Egypt; Pakistan; Calif.
	{"cotton", devices.Names{ZhCN: "棉花", ZhTW: "棉花", EnUS: "Cotton"},
		agro.CropCurve{Initial: 30, Development: 50, Mid: 60, Late: 55, KcIni: 0.35, KcMid: 1.2, KcEnd: 0.6}},
	// Table 12 "Soybeans": Kc ini blank, the legumes' 0.40; 1.15, 0.50.
	// Table 11 "Soybeans": 20/30–35/60/25 (140), May, Central USA; the
	// development stage is printed "30/35", and 35 gives the printed total.
	{"soybean", devices.Names{ZhCN: "大豆", ZhTW: "大豆", EnUS: "Soybean"},
		agro.CropCurve{Initial: 20, Development: 35, Mid: 60, Late: 25, KcIni: 0.4, KcMid: 1.15, KcEnd: 0.5}},
	// Table 12 "Potato": 0.50, 1.15, 0.75.
	// Table 11 "Potato": 25/30/45/30 (130), May, Continental Climate.
	{"potato", devices.Names{ZhCN: "马铃薯", ZhTW: "馬鈴薯", EnUS: "Potato"},
		agro.CropCurve{Initial: 25, Development: 30, Mid: 45, Late: 30, KcIni: 0.5, KcMid: 1.15, KcEnd: 0.75}},
	// Table 12 "Tomato": 0.6, 1.15, 0.70–0.90; Kc end 0.80, the middle of
	// the printed range.
	// Table 11 "Tomato": 30/40/40/25 (135), January, Arid Region.
	{"tomato", devices.Names{ZhCN: "番茄", ZhTW: "番茄", EnUS: "Tomato"},
		agro.CropCurve{Initial: 30, Development: 40, Mid: 40, Late: 25, KcIni: 0.6, KcMid: 1.15, KcEnd: 0.8}},
	{"other", devices.Names{ZhCN: "其他", ZhTW: "其他", EnUS: "Other"}, agro.CropCurve{}},
}

// CropByID returns a crop of Crops.
func CropByID(id string) (*Crop, bool) {
	for i := range Crops {
		if Crops[i].ID == id {
			return &Crops[i], true
		}
	}
	return nil, false
}

// HasCurve reports whether the crop has a Kc curve.
func (c *Crop) HasCurve() bool { return c.Curve.Length() > 0 }

// IrrigationMethods are the irrigation methods of the settings.
var IrrigationMethods = []struct {
	ID    string
	Names devices.Names
}{
	{"flood", devices.Names{ZhCN: "漫灌", ZhTW: "漫灌", EnUS: "Flood"}},
	{"furrow", devices.Names{ZhCN: "沟灌", ZhTW: "溝灌", EnUS: "Furrow"}},
	{"sprinkler", devices.Names{ZhCN: "喷灌", ZhTW: "噴灌", EnUS: "Sprinkler"}},
	{"drip", devices.Names{ZhCN: "滴灌", ZhTW: "滴灌", EnUS: "Drip"}},
	{"microSprinkler", devices.Names{ZhCN: "微喷灌", ZhTW: "微噴灌", EnUS: "Micro-sprinkler"}},
	{"none", devices.Names{ZhCN: "雨养（不灌溉）", ZhTW: "雨養（不灌溉）", EnUS: "Rain-fed"}},
}

// IrrigationMethodByID returns the names of a method of IrrigationMethods.
func IrrigationMethodByID(id string) (devices.Names, bool) {
	for _, m := range IrrigationMethods {
		if m.ID == id {
			return m.Names, true
		}
	}
	return devices.Names{}, false
}

// Calendar is the crop on a plot by day: its Kc and growth stage. The zero
// Calendar, for a plot without a crop that has a Kc curve or without a
// planting day, gives none.
type Calendar struct {
	crop    *Crop
	planted time.Time
	rd      *readings.Reader
}

// calendar is the crop calendar of st (nil: none).
func (s *Service) calendar(st *Settings) Calendar {
	c, planted, ok := st.crop()
	if !ok {
		return Calendar{}
	}
	return Calendar{crop: c, planted: planted, rd: s.rd}
}

// day is the day of the season of date: 1 on the planting day.
func (c Calendar) day(date time.Time) int {
	return int(math.Round(c.rd.Midnight(date).Sub(c.rd.Midnight(c.planted)).Hours()/24)) + 1
}

// On is the crop's coefficient on date: none outside the season.
func (c Calendar) On(date time.Time) weather.CropDay {
	if c.crop == nil {
		return weather.CropDay{}
	}
	kc, stage := c.crop.Curve.Kc(c.day(date))
	if stage == agro.StageOutside {
		return weather.CropDay{Stage: string(stage)}
	}
	return weather.CropDay{Kc: readings.Ptr(readings.Round(kc, 3)), Stage: string(stage)}
}

// CropOf returns the crop calendar of d's plot (weather.Crops).
func (s *Service) CropOf(ctx context.Context, d *devices.Device) (weather.Crop, error) {
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	return s.calendar(st), nil
}

// CropToday is the crop the ET analysis uses, and where it stands today.
type CropToday struct {
	Crop    *Crop
	Variety string
	Planted time.Time
	// DayOfSeason is today's: 1 on the planting day.
	DayOfSeason int
	weather.CropDay
}

// cropToday is the crop of st today, nil without one.
func (s *Service) cropToday(st *Settings) *CropToday {
	cal := s.calendar(st)
	if cal.crop == nil {
		return nil
	}
	now := s.rd.Now()
	return &CropToday{Crop: cal.crop, Variety: st.CropVariety, Planted: cal.planted, DayOfSeason: cal.day(now), CropDay: cal.On(now)}
}
