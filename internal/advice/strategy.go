package advice

import (
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// Strategy is the season plan of a field: the crop's stages with their
// dates and what each asks for, the irrigation strategy and the risks ahead.
type Strategy struct {
	Crop       *CropState  `json:"crop"`
	Stages     []StagePlan `json:"stages"`
	Irrigation []string    `json:"irrigation"`
	Risks      []string    `json:"risks"`
	// Missing says, in words, what the plan lacks (no crop, no soil set).
	Missing []string `json:"missing"`
}

// StagePlan is one stage of the plan.
type StagePlan struct {
	Stage
	Name    string `json:"name"`
	Advice  string `json:"advice"`
	Current bool   `json:"current"`
}

// Strategy builds the season plan from r.
func (s *Service) Strategy(r *Reality, lang i18n.Lang) *Strategy {
	T := func(key string, p map[string]any) string { return i18n.T(lang, "advice."+key, p) }
	st := &Strategy{Crop: r.Crop, Stages: []StagePlan{}, Irrigation: []string{}, Risks: []string{}, Missing: []string{}}
	if r.Crop == nil {
		st.Missing = append(st.Missing, T("strategy.noCrop", nil))
	} else {
		for _, sg := range r.Crop.Stages {
			st.Stages = append(st.Stages, StagePlan{Stage: sg, Name: T("stage."+sg.Stage, nil), Advice: T("strategy.stage."+sg.Stage, nil),
				Current: sg.Stage == r.Crop.Stage})
		}
		if r.Crop.Irrigation != "" {
			if names, ok := soil.IrrigationMethodByID(r.Crop.Irrigation); ok {
				st.Irrigation = append(st.Irrigation, T("strategy.method", map[string]any{"method": names.In(lang)}))
			}
		}
	}
	if len(r.Water) == 0 {
		st.Missing = append(st.Missing, T("strategy.noWater", nil))
	}
	for _, w := range r.Water {
		st.Irrigation = append(st.Irrigation, T("strategy.refill", map[string]any{"refill": w.RefillRelative, "raw": num(&w.RAW, 1),
			"depth": num(&w.RootDepthCM, 0), "fc": num(&w.FieldCapacity, 2)}))
		if w.ETcRate != nil && *w.ETcRate > 0 {
			days := w.RAW / *w.ETcRate
			st.Irrigation = append(st.Irrigation, T("strategy.interval", map[string]any{"raw": num(&w.RAW, 1), "etc": num(w.ETcRate, 2),
				"days": num(&days, 1)}))
		}
	}
	if r.Crop != nil && (r.Crop.Stage == "mid" || r.Crop.Stage == "development") {
		st.Irrigation = append(st.Irrigation, T("strategy.critical", nil))
	}
	if f := r.Forecast; f != nil {
		if f.Frost != nil {
			st.Risks = append(st.Risks, T("strategy.risk.frost", map[string]any{"temp": num(&f.Frost.Temp, 1), "day": f.Frost.Day}))
		}
		if f.Heat != nil {
			st.Risks = append(st.Risks, T("strategy.risk.heat", map[string]any{"temp": num(&f.Heat.Temp, 1), "day": f.Heat.Day}))
		}
	}
	for _, w := range r.Water {
		if w.Waterlogged {
			st.Risks = append(st.Risks, T("strategy.risk.waterlogging", map[string]any{"relative": num(&w.Relative, 1)}))
		}
		if w.Drought != "none" && w.Drought != "" {
			st.Risks = append(st.Risks, T("strategy.risk.drought", map[string]any{"grade": i18n.T(lang, "drought."+w.Drought, nil)}))
		}
	}
	for _, in := range r.Insects {
		if in.Doubled {
			st.Risks = append(st.Risks, T("strategy.risk.pests", map[string]any{"count": num(&in.Windows[0], 0), "base": num(&in.Base, 0)}))
		}
	}
	if len(r.Alerts) > 0 {
		st.Risks = append(st.Risks, T("strategy.risk.alerts", map[string]any{"count": len(r.Alerts)}))
	}
	return st
}
