package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// Names of what the demo creates besides its devices; an account keeps one
// of each, found again by its name.
const (
	channelName = "示范数据推送"
	appName     = "示范应用"
)

// demoRule is an alert rule of the demo: a condition on a parameter of one
// device type, with its threshold at a quantile of the history the demo is
// about to backfill, so the rule fires a few times in it whatever the
// season; a silent day after each event keeps it to about one a day.
type demoRule struct {
	name     string
	typeID   int
	param    string
	node     int // 0: a surface parameter
	agg      rules.Agg
	op       rules.Op
	quantile float64
	level    rules.Level
}

var demoRules = []demoRule{
	{"空气湿度偏高", 5, "airHumidity", 0, rules.AggMax, rules.OpGTE, 0.9, rules.LevelNormal},
	{"表层土壤偏干", 2, "soilMoisture", 10, rules.AggMin, rules.OpLTE, 0.1, rules.LevelAlarm},
}

// pushTypes are the device types whose reports the demo's channel pushes.
var pushTypes = []int{5}

// features gives the demo account something in every part of the console:
// soil settings on every soil device, alert rules (whose events the
// backfill makes through the rules engine), a data-push channel to the
// in-process receiver, an open-API application and an AI lab application
// counting the traps' insects. Each is made when
// missing and otherwise left as the user changed it; the channel follows
// the receiver to its address of this run.
func (f *Farm) features(ctx context.Context, owner int64, own []*devices.Device) error {
	if f.Soil != nil {
		if err := f.soilSettings(ctx, own); err != nil {
			return err
		}
	}
	if f.Rules != nil {
		if err := f.rules(ctx, owner, own); err != nil {
			return err
		}
	}
	if f.Push != nil && f.Receiver != nil {
		if err := f.channel(ctx, owner, own); err != nil {
			return err
		}
	}
	if f.OpenAPI != nil {
		if err := f.app(ctx, owner); err != nil {
			return err
		}
	}
	if f.Lab != nil {
		if err := f.lab(ctx, owner, own); err != nil {
			return err
		}
	}
	return nil
}

// soilSettings fills the settings of each soil device that has none: a
// loam whose field capacity rises with depth, under winter wheat sown two
// months ago.
func (f *Farm) soilSettings(ctx context.Context, own []*devices.Device) error {
	now := time.Now()
	sown := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.Local).AddDate(0, -2, 0)
	area := 30.0
	for _, d := range own {
		cfg, err := f.Soil.Settings(ctx, d)
		if errs.KindOf(err) == errs.EInvalid {
			continue // not a soil device
		}
		if err != nil {
			return err
		}
		if cfg.Configured {
			continue
		}
		var nodes []soil.NodeConfig
		for _, n := range cfg.Nodes {
			fc := 28 + 4*math.Min(float64(n.Depth), 100)/100
			nodes = append(nodes, soil.NodeConfig{Depth: n.Depth, FieldCapacity: math.Round(fc*10) / 10, UnitWeight: 1.4})
		}
		in := soil.SettingsInput{Nodes: nodes, CropType: "wheat", IrrigationMethod: "sprinkler", PlantingTime: &sown, AreaMu: &area}
		if _, err := f.Soil.SaveSettings(ctx, d, in); err != nil {
			return fmt.Errorf("soil settings of %s: %w", d.SN, err)
		}
	}
	return nil
}

func (f *Farm) rules(ctx context.Context, owner int64, own []*devices.Device) error {
	list, _, err := f.Rules.List(ctx, owner, 1, 1000)
	if err != nil {
		return err
	}
	for _, dr := range demoRules {
		if slices.ContainsFunc(list, func(r *rules.Rule) bool { return r.Name == dr.name }) {
			continue
		}
		var ids []int64
		var values []float64
		for _, d := range own {
			if d.TypeID == dr.typeID && !d.Slave {
				ids = append(ids, d.ID)
				values = append(values, f.history(d, dr.param, dr.node)...)
			}
		}
		if len(ids) == 0 || len(values) == 0 {
			continue
		}
		slices.Sort(values)
		threshold := values[int(dr.quantile*float64(len(values)-1))]
		x := rules.Expression{Param: dr.param, Agg: dr.agg, Op: dr.op, Threshold: &threshold}
		if dr.node != 0 {
			x.Nodes = []int{dr.node}
		}
		r := &rules.Rule{Name: dr.name, Enabled: true, TypeID: dr.typeID, DeviceIDs: ids, Level: dr.level,
			Expressions: []rules.Expression{x}, SilentHours: 24}
		if err := f.Rules.Create(ctx, owner, r); err != nil {
			return fmt.Errorf("demo rule %s: %w", dr.name, err)
		}
	}
	return nil
}

// history is what the backfill will report of one parameter of d: the same
// simulation over the same steps.
func (f *Farm) history(d *devices.Device, param string, node int) []float64 {
	sim := simOf(d, 0)
	now := time.Now()
	var out []float64
	for at := backfillFrom(now, f.Days, d); at.Before(now); at = at.Add(historyStep) {
		var p struct {
			Values map[string]float64            `json:"values"`
			Nodes  map[string]map[string]float64 `json:"nodes"`
		}
		if json.Unmarshal(sim.Telemetry(at), &p) != nil {
			continue
		}
		v, ok := p.Values[param]
		if node != 0 {
			v, ok = p.Nodes[strconv.Itoa(node)][param]
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// channel keeps the demo's push channel pointed at this run's receiver.
func (f *Farm) channel(ctx context.Context, owner int64, own []*devices.Device) error {
	var ids []int64
	for _, d := range own {
		if slices.Contains(pushTypes, d.TypeID) {
			ids = append(ids, d.ID)
		}
	}
	list, err := f.Push.List(ctx, owner, push.KindChannel)
	if err != nil {
		return err
	}
	for _, c := range list {
		if c.Name != channelName {
			continue
		}
		if c.URL == f.Receiver.URL() {
			return nil
		}
		c.URL = f.Receiver.URL()
		return f.Push.Update(ctx, c)
	}
	_, err = f.Push.Create(ctx, &push.Channel{OwnerID: owner, Kind: push.KindChannel, Name: channelName,
		URL: f.Receiver.URL(), Enabled: true, DeviceIDs: ids})
	return err
}

// app makes the demo's published open-API application over all its devices.
func (f *Farm) app(ctx context.Context, owner int64) error {
	list, err := f.OpenAPI.List(ctx, owner)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(list, func(a *openapi.App) bool { return a.Name == appName }) {
		return nil
	}
	a := &openapi.App{OwnerID: owner, Name: appName, AllDevices: true}
	if _, err := f.OpenAPI.Create(ctx, a); err != nil {
		return err
	}
	_, err = f.OpenAPI.Publish(ctx, owner, a.ID, true)
	return err
}
