package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// settingsDTO is a soil device's settings as the settings form shows them.
type settingsDTO struct {
	Configured       bool        `json:"configured"` // every node has its soil set
	Nodes            []nodeDTO   `json:"nodes"`
	CropType         string      `json:"cropType"`
	CropName         string      `json:"cropName"` // the crop type's name in the caller's language
	CropVariety      string      `json:"cropVariety"`
	IrrigationMethod string      `json:"irrigationMethod"`
	PlantingTime     *int64      `json:"plantingTime"`
	AreaMu           *float64    `json:"areaMu"`
	EnableTime       *int64      `json:"enableTime"`
	Upload           bool        `json:"upload"`
	UpdatedAt        *int64      `json:"updatedAt"`
	CropTypes        []optionDTO `json:"cropTypes"`
	Methods          []optionDTO `json:"irrigationMethods"`
	CanEdit          bool        `json:"canEdit"`
}

// nodeDTO is one node's soil, with what follows from it.
type nodeDTO struct {
	Depth         int      `json:"depth"`
	Thickness     float64  `json:"thickness"`
	FieldCapacity *float64 `json:"fieldCapacity"`
	UnitWeight    *float64 `json:"unitWeight"`
	Saturation    *float64 `json:"saturation"`
}

// optionDTO is one choice of a settings list.
type optionDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func toNodes(ns []soil.Node) []nodeDTO {
	out := make([]nodeDTO, len(ns))
	for i, n := range ns {
		out[i] = nodeDTO(n)
	}
	return out
}

// optMsPtr is an optional time as unix ms: null for none or the zero time.
func optMsPtr(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	return optMs(*t)
}

func toSettings(cfg *soil.Config, canEdit bool, lang i18n.Lang) settingsDTO {
	v := settingsDTO{Configured: cfg.Configured, Nodes: toNodes(cfg.Nodes), CanEdit: canEdit}
	if st := cfg.Settings; st != nil {
		v.CropType, v.CropVariety, v.IrrigationMethod = st.CropType, st.CropVariety, st.IrrigationMethod
		v.AreaMu, v.Upload = st.AreaMu, st.Upload
		if c, ok := soil.CropByID(st.CropType); ok {
			v.CropName = c.Names.In(lang)
		}
		v.PlantingTime, v.EnableTime, v.UpdatedAt = optMsPtr(st.PlantingTime), optMsPtr(st.EnableTime), optMs(st.UpdatedAt)
	}
	for _, c := range soil.Crops {
		v.CropTypes = append(v.CropTypes, optionDTO{c.ID, c.Names.In(lang)})
	}
	for _, m := range soil.IrrigationMethods {
		v.Methods = append(v.Methods, optionDTO{m.ID, m.Names.In(lang)})
	}
	return v
}

func (s *Server) soilConfig(c *call) (any, error) {
	cfg, err := s.Soil.Settings(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, c.right.Settings, c.lang), nil
}

// soilSettingsBody is a PUT of the soil settings. Times are unix ms.
type soilSettingsBody struct {
	Nodes []struct {
		Depth         int     `json:"depth"`
		FieldCapacity float64 `json:"fieldCapacity"`
		UnitWeight    float64 `json:"unitWeight"`
	} `json:"nodes"`
	CropType         string   `json:"cropType"`
	CropVariety      string   `json:"cropVariety"`
	IrrigationMethod string   `json:"irrigationMethod"`
	PlantingTime     *int64   `json:"plantingTime"`
	AreaMu           *float64 `json:"areaMu"`
	EnableTime       *int64   `json:"enableTime"`
	Upload           bool     `json:"upload"`
}

// timeOf is an optional unix ms time.
func timeOf(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := time.UnixMilli(*v)
	return &t
}

// settingsWrite decodes a settings write's body into v and authorizes the
// device it names, in its body or its query, for the settings right.
func (s *Server) settingsWrite(c *call, v any) (*devices.Device, error) {
	id, err := bodyWithID(c, v)
	if err != nil {
		return nil, err
	}
	d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, id, devices.NeedSettings)
	return d, err
}

func (s *Server) putSoilConfig(c *call) (any, error) {
	var in soilSettingsBody
	d, err := s.settingsWrite(c, &in)
	if err != nil {
		return nil, err
	}
	st := soil.SettingsInput{CropType: in.CropType, CropVariety: in.CropVariety, IrrigationMethod: in.IrrigationMethod,
		PlantingTime: timeOf(in.PlantingTime), AreaMu: in.AreaMu, EnableTime: timeOf(in.EnableTime), Upload: in.Upload}
	if in.Nodes != nil {
		st.Nodes = make([]soil.NodeConfig, len(in.Nodes))
		for i, n := range in.Nodes {
			st.Nodes[i] = soil.NodeConfig(n)
		}
	}
	cfg, err := s.Soil.SaveSettings(c.r.Context(), d, st)
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, true, c.lang), nil
}

// cropBody is the crop of POST/PUT /apis/poi/crop/update (SPEC §3 "Crop
// info: sowTime, cropName, area"); absent fields keep their value.
type cropBody struct {
	SowTime     *int64   `json:"sowTime"`
	CropName    *string  `json:"cropName"`
	CropVariety *string  `json:"cropVariety"`
	Area        *float64 `json:"area"` // mu
}

func (s *Server) updateCrop(c *call) (any, error) {
	var in cropBody
	d, err := s.settingsWrite(c, &in)
	if err != nil {
		return nil, err
	}
	cfg, err := s.Soil.UpdateCrop(c.r.Context(), d, soil.CropInput{SowTime: timeOf(in.SowTime), CropName: in.CropName,
		CropVariety: in.CropVariety, Area: in.Area})
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, true, c.lang), nil
}
