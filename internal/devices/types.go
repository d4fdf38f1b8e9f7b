// Package devices describes the field devices the console manages.
//
// This file is the device type registry: every type id of the product, what
// the device measures, how its readings are named on the wire and on screen,
// and which detail page shows it. It is fixed data; docs/device-types.md
// describes the same table for people, and a test keeps the two in step.
package devices

import (
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Category is the device type group the device list filters by.
type Category string

const (
	CategoryMeteorology Category = "meteorology"
	CategorySoil        Category = "soil"
	CategoryDisaster    Category = "disaster"
	CategoryIrrigation  Category = "irrigation"
	CategoryEcology     Category = "ecology"
)

// Categories lists every category in the order the device list shows them.
var Categories = []Category{CategoryMeteorology, CategorySoil, CategoryDisaster, CategoryIrrigation, CategoryEcology}

// Page is the kind of detail page a device opens, spelled as in its route
// (/apps/poi/{page}/… on desktop, …/realtime/{page} on mobile).
type Page string

const (
	PageLiquidometer Page = "liquidometer"
	PageIBioSense    Page = "ibiosense"   // insect and seedling camera monitor
	PageTianqi       Page = "tianqi"      // weather station
	PagePluviometer  Page = "pluviometer" // rain gauge
	PageMoisture     Page = "moisture"
	PageZhiShang     Page = "zhi-shang" // soil moisture station with ET and irrigation analyses
	PageYunYao       Page = "yun-yao"
	PageDCR004       Page = "dcr004"
	PageShanJing     Page = "shan-jing" // landslide tilt sensor
)

// Pages lists every detail page kind.
var Pages = []Page{PageLiquidometer, PageIBioSense, PageTianqi, PagePluviometer, PageMoisture, PageZhiShang, PageYunYao, PageDCR004, PageShanJing}

// Agg is a daily aggregation of a parameter's readings.
type Agg string

const (
	AggAvg  Agg = "avg"
	AggMin  Agg = "min"
	AggMax  Agg = "max"
	AggSum  Agg = "sum"
	AggLast Agg = "last"
)

// Aggs lists every daily aggregation.
var Aggs = []Agg{AggAvg, AggMin, AggMax, AggSum, AggLast}

// Names holds a display name in each product language.
type Names struct {
	ZhCN, ZhTW, EnUS string
}

// In returns the name in lang; an unknown language gets the default one.
func (n Names) In(lang i18n.Lang) string {
	switch lang {
	case i18n.ZhTW:
		return n.ZhTW
	case i18n.EnUS:
		return n.EnUS
	}
	return n.ZhCN
}

// Param is one measured quantity of a device type.
type Param struct {
	ID        string // wire name in device payloads and the API; never renamed
	Names     Names
	Unit      string // SI symbol; "" for counts and states
	Precision int    // decimals shown
	PerNode   bool   // one reading per node depth of the type, else one per device
	Daily     []Agg  // aggregations the daily history shows
	// Min and Max bound physically possible readings; anything outside is
	// a sensor fault and is rejected rather than stored.
	Min, Max float64
	// Detected: the server writes it, from what an AI lab application
	// finds in the device's pictures (docs/ai-lab.md); a device never
	// sends it, and a payload holding it is refused as an unknown parameter.
	Detected bool
}

// Name returns the parameter's name in lang.
func (p *Param) Name(lang i18n.Lang) string { return p.Names.In(lang) }

// InRange reports whether v is a possible reading (NaN never is).
func (p *Param) InRange(v float64) bool { return v >= p.Min && v <= p.Max }

// Slave is a measuring unit that cannot reach the network itself and
// reports through the host device it is paired with.
type Slave struct {
	Model  string
	Names  Names
	Params []Param
}

// Name returns the slave's name in lang.
func (s *Slave) Name(lang i18n.Lang) string { return s.Names.In(lang) }

// Param returns the slave parameter with the given identifier.
func (s *Slave) Param(id string) (*Param, bool) { return findParam(s.Params, id) }

// Type is a device type: one typeId of the product.
type Type struct {
	ID       int
	Model    string
	Names    Names
	Category Category
	Page     Page
	// Interval is the nominal time between reports. Devices may report
	// sooner on an event (rain, tilt, button press), rarely later.
	Interval time.Duration
	Solar    bool   // solar-charged: the battery sags at night, so low voltage at dawn is normal
	Camera   bool   // uploads images besides readings
	Nodes    []int  // depths in cm, shallowest first, of the readings of PerNode params
	Slave    *Slave // the paired slave unit, if the type has one
	Params   []Param
	// Commands are what the device accepts over its downlink (commands.go);
	// a slave, without a modem, accepts none.
	Commands []CommandDef
}

// Name returns the type's name in lang.
func (t *Type) Name(lang i18n.Lang) string { return t.Names.In(lang) }

// Param returns the parameter with the given identifier.
func (t *Type) Param(id string) (*Param, bool) { return findParam(t.Params, id) }

func findParam(ps []Param, id string) (*Param, bool) {
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i], true
		}
	}
	return nil, false
}

// Types returns every device type, sorted by id. The types are shared and
// must not be modified.
func Types() []*Type { return slices.Clone(registry) }

// TypeByID returns the type with the given id.
func TypeByID(id int) (*Type, bool) {
	i, ok := slices.BinarySearchFunc(registry, id, func(t *Type, id int) int { return t.ID - id })
	if !ok {
		return nil, false
	}
	return registry[i], true
}

var (
	daily3    = []Agg{AggAvg, AggMin, AggMax}
	dailySum  = []Agg{AggSum}
	dailyPeak = []Agg{AggAvg, AggMax}
	dailyTilt = []Agg{AggAvg, AggMin, AggMax, AggLast}
)

// Parameters shared by several types. Each catalogue below copies them.
var (
	airTemp = Param{ID: "airTemp", Names: Names{"空气温度", "空氣溫度", "Air temperature"},
		Unit: "°C", Precision: 1, Daily: daily3, Min: -50, Max: 70}
	airHumidity = Param{ID: "airHumidity", Names: Names{"空气湿度", "空氣濕度", "Air humidity"},
		Unit: "%RH", Precision: 0, Daily: daily3, Min: 0, Max: 100}
	pressure = Param{ID: "pressure", Names: Names{"大气压", "大氣壓", "Air pressure"},
		Unit: "hPa", Precision: 1, Daily: daily3, Min: 300, Max: 1100}
	windSpeed = Param{ID: "windSpeed", Names: Names{"风速", "風速", "Wind speed"},
		Unit: "m/s", Precision: 1, Daily: dailyPeak, Min: 0, Max: 75}
	// Directions are angles: an arithmetic mean of 350° and 10° is wrong,
	// so the day shows only the last reading.
	windDirection = Param{ID: "windDirection", Names: Names{"风向", "風向", "Wind direction"},
		Unit: "°", Precision: 0, Daily: []Agg{AggLast}, Min: 0, Max: 360}
	// Rainfall is the amount fallen since the previous report.
	rainfall = Param{ID: "rainfall", Names: Names{"降雨量", "降雨量", "Rainfall"},
		Unit: "mm", Precision: 1, Daily: dailySum, Min: 0, Max: 300}
	solarRadiation = Param{ID: "solarRadiation", Names: Names{"太阳总辐射", "太陽總輻射", "Solar radiation"},
		Unit: "W/m²", Precision: 0, Daily: dailyPeak, Min: 0, Max: 2000}
	illuminance = Param{ID: "illuminance", Names: Names{"光照度", "光照度", "Illuminance"},
		Unit: "lx", Precision: 0, Daily: dailyPeak, Min: 0, Max: 200000}
	co2 = Param{ID: "co2", Names: Names{"二氧化碳浓度", "二氧化碳濃度", "CO₂ concentration"},
		Unit: "ppm", Precision: 0, Daily: daily3, Min: 0, Max: 10000}
	leafWetness = Param{ID: "leafWetness", Names: Names{"叶面湿度", "葉面濕度", "Leaf wetness"},
		Unit: "%", Precision: 0, Daily: dailyPeak, Min: 0, Max: 100}
	pm25 = Param{ID: "pm25", Names: Names{"PM2.5", "PM2.5", "PM2.5"},
		Unit: "µg/m³", Precision: 0, Daily: dailyPeak, Min: 0, Max: 1000}
	pm10 = Param{ID: "pm10", Names: Names{"PM10", "PM10", "PM10"},
		Unit: "µg/m³", Precision: 0, Daily: dailyPeak, Min: 0, Max: 2000}
	tvoc = Param{ID: "tvoc", Names: Names{"总挥发性有机物", "總揮發性有機物", "TVOC"},
		Unit: "µg/m³", Precision: 0, Daily: dailyPeak, Min: 0, Max: 60000}

	// Volumetric water content, the quantity field capacity is set in.
	soilMoisture = Param{ID: "soilMoisture", Names: Names{"土壤体积含水量", "土壤體積含水量", "Soil moisture"},
		Unit: "%", Precision: 1, PerNode: true, Daily: daily3, Min: 0, Max: 100}
	soilTemp = Param{ID: "soilTemp", Names: Names{"土壤温度", "土壤溫度", "Soil temperature"},
		Unit: "°C", Precision: 1, PerNode: true, Daily: daily3, Min: -40, Max: 80}
	ec = Param{ID: "ec", Names: Names{"土壤电导率", "土壤電導率", "Soil electrical conductivity"},
		Unit: "µS/cm", Precision: 0, PerNode: true, Daily: daily3, Min: 0, Max: 20000}

	// Tilt is signed around each axis; a day shows its mean, as every other
	// reading does, with its extremes and where it ended, since slow drift
	// is what a landslide warning watches.
	tiltX = Param{ID: "tiltX", Names: Names{"X轴倾角", "X軸傾角", "Tilt X"},
		Unit: "°", Precision: 2, Daily: dailyTilt, Min: -90, Max: 90}
	tiltY = Param{ID: "tiltY", Names: Names{"Y轴倾角", "Y軸傾角", "Tilt Y"},
		Unit: "°", Precision: 2, Daily: dailyTilt, Min: -90, Max: 90}
	tiltAngle = Param{ID: "tiltAngle", Names: Names{"倾斜角", "傾斜角", "Tilt angle"},
		Unit: "°", Precision: 2, Daily: dailyTilt, Min: 0, Max: 90}

	// Level above the gauge's zero, which the installer sets.
	waterLevel = Param{ID: "waterLevel", Names: Names{"液位", "液位", "Water level"},
		Unit: "m", Precision: 2, Daily: []Agg{AggMax, AggLast}, Min: 0, Max: 100}
	waterTemp = Param{ID: "waterTemp", Names: Names{"水温", "水溫", "Water temperature"},
		Unit: "°C", Precision: 1, Daily: daily3, Min: -10, Max: 60}

	// Insects caught since the previous report.
	insectCount = Param{ID: "insectCount", Names: Names{"虫口数", "蟲口數", "Insect count"},
		Unit: "", Precision: 0, Daily: dailySum, Min: 0, Max: 10000}

	// What an AI lab application counted in a camera picture (the sum of
	// its elements' values), written by the server; a day shows the mean
	// and the peak, as each picture counts what the board holds then.
	detectInsects = Param{ID: "detectCount", Names: Names{"识别虫数", "識別蟲數", "Insects detected"},
		Unit: "", Precision: 0, Daily: dailyPeak, Min: 0, Max: 100000, Detected: true}
	detectSeedlings = Param{ID: "detectCount", Names: Names{"识别株数", "識別株數", "Plants detected"},
		Unit: "", Precision: 0, Daily: dailyPeak, Min: 0, Max: 100000, Detected: true}

	// 0 closed, 1 open; the daily max shows whether the valve opened at all.
	valveState = Param{ID: "valveState", Names: Names{"阀门状态", "閥門狀態", "Valve state"},
		Unit: "", Precision: 0, Daily: []Agg{AggMax, AggLast}, Min: 0, Max: 1}
	flowRate = Param{ID: "flowRate", Names: Names{"瞬时流量", "瞬時流量", "Flow rate"},
		Unit: "m³/h", Precision: 2, Daily: dailyPeak, Min: 0, Max: 500}
	// Water delivered since the previous report.
	waterVolume = Param{ID: "waterVolume", Names: Names{"灌溉水量", "灌溉水量", "Irrigation volume"},
		Unit: "m³", Precision: 2, Daily: dailySum, Min: 0, Max: 10000}
	pipePressure = Param{ID: "pipePressure", Names: Names{"管道压力", "管道壓力", "Pipe pressure"},
		Unit: "MPa", Precision: 2, Daily: daily3, Min: 0, Max: 2.5}

	// Battery voltage: 3.6 V lithium cells in sleepy probes, 12 V packs
	// in solar stations. Under 3.2 V on a lithium cell needs charging.
	battery = Param{ID: "battery", Names: Names{"电池电压", "電池電壓", "Battery voltage"},
		Unit: "V", Precision: 2, Daily: []Agg{AggMin, AggLast}, Min: 0, Max: 20}
	signal = Param{ID: "signal", Names: Names{"信号强度", "訊號強度", "Signal strength"},
		Unit: "dBm", Precision: 0, Daily: []Agg{AggAvg, AggMin}, Min: -140, Max: 0}
)

// soilDepths are the standard six nodes; the briefing bands 0-20, 20-40 and
// 40-60 cm each take two of them.
var soilDepths = []int{10, 20, 30, 40, 50, 60}

// rainGauge is the catalogue of the rain gauge family (types 6 and 9).
var rainGauge = []Param{rainfall, battery, signal}

// registry holds every type, sorted by id (TypeByID relies on it).
var registry = []*Type{
	{
		ID: 1, Model: "SMP003",
		Names:    Names{"三层土壤墒情探头", "三層土壤墒情探頭", "3-depth soil moisture probe"},
		Category: CategorySoil, Page: PageMoisture,
		Interval: 60 * time.Minute,
		Nodes:    []int{10, 20, 30},
		Params:   []Param{soilMoisture, soilTemp, battery, signal},
	},
	{
		ID: 2, Model: "ZS006",
		Names:    Names{"智墒土壤墒情站", "智墒土壤墒情站", "Zhishang soil moisture station"},
		Category: CategorySoil, Page: PageZhiShang,
		Interval: 30 * time.Minute, Solar: true,
		Nodes:  soilDepths,
		Params: []Param{soilMoisture, soilTemp, ec, battery, signal},
	},
	{
		ID: 3, Model: "DCR004",
		Names:    Names{"管式土壤剖面墒情仪", "管式土壤剖面墒情儀", "Tube soil moisture profiler"},
		Category: CategorySoil, Page: PageDCR004,
		Interval: 60 * time.Minute,
		Nodes:    []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
		Params:   []Param{soilMoisture, soilTemp, battery, signal},
	},
	{
		ID: 4, Model: "TQC005",
		Names:    Names{"五要素小型气象站", "五要素小型氣象站", "Compact 5-element weather station"},
		Category: CategoryMeteorology, Page: PageTianqi,
		Interval: 10 * time.Minute, Solar: true,
		Params: []Param{airTemp, airHumidity, pressure, windSpeed, windDirection, battery, signal},
	},
	{
		ID: 5, Model: "TQS010",
		Names:    Names{"自动气象站", "自動氣象站", "Automatic weather station"},
		Category: CategoryMeteorology, Page: PageTianqi,
		Interval: 10 * time.Minute, Solar: true,
		Params: []Param{airTemp, airHumidity, pressure, windSpeed, windDirection, rainfall,
			solarRadiation, battery, signal},
	},
	{
		ID: 6, Model: "RG001",
		Names:    Names{"雨量计", "雨量計", "Rain gauge"},
		Category: CategoryDisaster, Page: PagePluviometer,
		Interval: 10 * time.Minute, Solar: true,
		Params: rainGauge,
	},
	{
		ID: 7, Model: "TQA012",
		Names:    Names{"空气质量气象站", "空氣品質氣象站", "Weather and air quality station"},
		Category: CategoryMeteorology, Page: PageTianqi,
		Interval: 10 * time.Minute, Solar: true,
		Params: []Param{airTemp, airHumidity, pressure, windSpeed, windDirection, rainfall,
			pm25, pm10, tvoc, battery, signal},
	},
	{
		ID: 8, Model: "SJ001",
		Names:    Names{"山体滑坡倾角监测仪", "山體滑坡傾角監測儀", "Landslide tilt monitor"},
		Category: CategoryDisaster, Page: PageShanJing,
		Interval: 60 * time.Minute,
		Params:   []Param{tiltX, tiltY, tiltAngle, battery, signal},
	},
	{
		ID: 9, Model: "RG002",
		Names:    Names{"雨量计（二代）", "雨量計（二代）", "Rain gauge (2nd generation)"},
		Category: CategoryDisaster, Page: PagePluviometer,
		Interval: 5 * time.Minute, Solar: true,
		Params: rainGauge,
	},
	{
		ID: 10, Model: "YY001",
		Names:    Names{"灌溉阀控器", "灌溉閥控器", "Irrigation valve controller"},
		Category: CategoryIrrigation, Page: PageYunYao,
		// Commands take effect at the next report, so the controller
		// reports often enough for an operator to see a valve respond.
		Interval: 5 * time.Minute, Solar: true,
		Params: []Param{valveState, flowRate, waterVolume, pipePressure, battery, signal},
	},
	{
		ID: 14, Model: "TQN008",
		Names:    Names{"农田小气候站", "農田小氣候站", "Farmland microclimate station"},
		Category: CategoryMeteorology, Page: PageTianqi,
		Interval: 10 * time.Minute, Solar: true,
		Params: []Param{airTemp, airHumidity, windSpeed, windDirection, rainfall,
			illuminance, co2, leafWetness, battery, signal},
	},
	{
		ID: 17, Model: "LQ001",
		Names:    Names{"液位计", "液位計", "Liquid level gauge"},
		Category: CategoryEcology, Page: PageLiquidometer,
		Interval: 30 * time.Minute,
		Params:   []Param{waterLevel, waterTemp, battery, signal},
	},
	{
		ID: 19, Model: "LQM001",
		Names:    Names{"液位计主机", "液位計主機", "Liquid level gauge host"},
		Category: CategoryEcology, Page: PageLiquidometer,
		Interval: 30 * time.Minute, Solar: true,
		Slave: &Slave{
			Model:  "LQS001",
			Names:  Names{"液位计从机", "液位計從機", "Liquid level gauge slave"},
			Params: []Param{waterLevel, battery, signal},
		},
		Params: []Param{waterLevel, waterTemp, battery, signal},
	},
	{
		ID: 20, Model: "IBS001",
		Names:    Names{"虫情测报灯", "蟲情測報燈", "Insect monitoring trap"},
		Category: CategoryEcology, Page: PageIBioSense,
		Interval: 60 * time.Minute, Solar: true, Camera: true,
		Params: []Param{insectCount, detectInsects, airTemp, airHumidity, battery, signal},
	},
	{
		ID: 21, Model: "ZSQ006",
		Names:    Names{"墒情气象一体站", "墒情氣象一體站", "Soil moisture and weather station"},
		Category: CategorySoil, Page: PageZhiShang,
		Interval: 30 * time.Minute, Solar: true,
		Nodes: soilDepths,
		Params: []Param{soilMoisture, soilTemp, ec, airTemp, airHumidity, rainfall,
			battery, signal},
	},
	{
		ID: 22, Model: "IBS002",
		Names:    Names{"苗情监测仪", "苗情監測儀", "Seedling growth monitor"},
		Category: CategoryEcology, Page: PageIBioSense,
		Interval: 60 * time.Minute, Solar: true, Camera: true,
		Params: []Param{detectSeedlings, airTemp, airHumidity, illuminance, battery, signal},
	},
}

// SlaveType returns the slave unit as a type of its own (same id, page and
// interval as its host, the slave's model and catalogue), so that its reports
// decode and store like any device's. Nil when the type has no slave.
func (t *Type) SlaveType() *Type {
	if t.Slave == nil {
		return nil
	}
	return &Type{
		ID: t.ID, Model: t.Slave.Model, Names: t.Slave.Names, Category: t.Category, Page: t.Page,
		Interval: t.Interval, Params: t.Slave.Params,
	}
}
