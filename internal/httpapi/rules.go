package httpapi

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/rules"
)

// ruleDTO is a rule as the API shows it.
type ruleDTO struct {
	*rules.Rule
	TypeName   string `json:"typeName"`
	CreateTime int64  `json:"createTime"`
	UpdateTime int64  `json:"updateTime"`
}

func toRuleDTO(r *rules.Rule, lang i18n.Lang) ruleDTO {
	d := ruleDTO{Rule: r, CreateTime: r.CreatedAt.UnixMilli(), UpdateTime: r.UpdatedAt.UnixMilli()}
	if t, ok := devices.TypeByID(r.TypeID); ok {
		d.TypeName = t.Name(lang)
	}
	if d.DeviceIDs == nil {
		d.DeviceIDs = []int64{}
	}
	return d
}

// listRules serves GET /apis/rules (and the legacy /apis/event/rules).
func (s *Server) listRules(c *call) (any, error) {
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Rules.List(c.r.Context(), c.account.ID, p.page, p.size)
	if err != nil {
		return nil, err
	}
	out := make([]ruleDTO, len(list))
	for i, r := range list {
		out[i] = toRuleDTO(r, c.lang)
	}
	return pageDTO[ruleDTO]{List: out, Total: total}, nil
}

// createRule serves POST /apis/rule.
func (s *Server) createRule(c *call) (any, error) {
	var r rules.Rule
	if err := decode(c, &r); err != nil {
		return nil, err
	}
	r.ID, r.Lang = 0, c.lang
	if err := s.Rules.Create(c.r.Context(), c.account.ID, &r); err != nil {
		return nil, err
	}
	return toRuleDTO(&r, c.lang), nil
}

// getRule serves GET /apis/rule/{id}.
func (s *Server) getRule(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	r, err := s.Rules.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toRuleDTO(r, c.lang), nil
}

// putRule serves PUT /apis/rule/{id}: the whole rule, or with
// ?includes=enabled {enabled} or ?includes=deviceIds {deviceIds} one part.
func (s *Server) putRule(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	switch inc := c.r.URL.Query().Get("includes"); inc {
	case "":
		var r rules.Rule
		if err := decode(c, &r); err != nil {
			return nil, err
		}
		r.ID, r.Lang = id, c.lang
		if err := s.Rules.Update(ctx, c.account.ID, &r); err != nil {
			return nil, err
		}
	case "enabled":
		var b struct {
			Enabled *bool `json:"enabled"`
		}
		if err := decode(c, &b); err != nil {
			return nil, err
		}
		if b.Enabled == nil {
			return nil, errs.Invalid("enabled", "error.required")
		}
		if err := s.Rules.SetEnabled(ctx, c.account.ID, id, *b.Enabled); err != nil {
			return nil, err
		}
	case "deviceIds":
		var b struct {
			DeviceIDs []int64 `json:"deviceIds"`
		}
		if err := decode(c, &b); err != nil {
			return nil, err
		}
		if err := s.Rules.SetDevices(ctx, c.account.ID, id, b.DeviceIDs); err != nil {
			return nil, err
		}
	default:
		return nil, errs.Invalid("includes", "rule.includes.invalid")
	}
	return s.getRule(c)
}

// deleteRule serves DELETE /apis/rule/{id}.
func (s *Server) deleteRule(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Rules.Delete(c.r.Context(), c.account.ID, id)
}

type ruleTypeDTO struct {
	TypeID   int    `json:"typeId"`
	TypeName string `json:"typeName"`
	Count    int    `json:"count"`
}

// ruleTypes serves GET /apis/rule/types: the device types the caller has
// devices of, for the rule form's type picker.
func (s *Server) ruleTypes(c *call) (any, error) {
	all, err := s.Devices.All(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	counts := map[int]int{}
	for _, d := range all {
		counts[d.TypeID]++
	}
	out := []ruleTypeDTO{}
	for id, n := range counts {
		if t, ok := devices.TypeByID(id); ok {
			out = append(out, ruleTypeDTO{TypeID: id, TypeName: t.Name(c.lang), Count: n})
		}
	}
	slices.SortFunc(out, func(a, b ruleTypeDTO) int { return cmp.Compare(a.TypeID, b.TypeID) })
	return out, nil
}

type ruleDeviceDTO struct {
	ID     int64  `json:"id"`
	SN     string `json:"sn"`
	Name   string `json:"name"`
	TypeID int    `json:"typeId"`
}

// ruleDevices serves GET /apis/rule/devices?typeId= (and the legacy
// /apis/event/devices): the caller's devices a rule of that type may use.
func (s *Server) ruleDevices(c *call) (any, error) {
	f := devices.Filter{Belong: devices.BelongMine, Limit: devices.MaxPage, Sort: "name"}
	if v := c.r.URL.Query().Get("typeId"); v != "" {
		t, err := strconv.Atoi(v)
		if err != nil {
			return nil, errs.Invalid("typeId", "rule.type.unknown")
		}
		f.TypeID = &t
	}
	var out []ruleDeviceDTO
	for f.Offset = 0; ; f.Offset += f.Limit {
		list, total, err := s.Devices.List(c.r.Context(), c.account.ID, f)
		if err != nil {
			return nil, err
		}
		for _, d := range list {
			out = append(out, ruleDeviceDTO{ID: d.ID, SN: d.SN, Name: d.Name, TypeID: d.TypeID})
		}
		if f.Offset+f.Limit >= total {
			break
		}
	}
	if out == nil {
		out = []ruleDeviceDTO{}
	}
	return out, nil
}

type ruleParamDTO struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Precision int    `json:"precision"`
	Nodes     []int  `json:"nodes"`
}

// ruleParams serves GET /apis/rule/params?deviceId=: the parameters and
// nodes a rule may test for that device (or ?typeId= for a type).
func (s *Server) ruleParams(c *call) (any, error) {
	var typeID int
	if v := c.r.URL.Query().Get("typeId"); v != "" && c.r.URL.Query().Get("deviceId") == "" {
		t, err := strconv.Atoi(v)
		if err != nil {
			return nil, errs.Invalid("typeId", "rule.type.unknown")
		}
		typeID = t
	} else {
		id, err := queryID(c, "deviceId")
		if err != nil {
			return nil, err
		}
		d, _, err := s.Devices.Get(c.r.Context(), c.account.ID, id)
		if err != nil {
			return nil, err
		}
		typeID = d.TypeID
	}
	t, ok := devices.TypeByID(typeID)
	if !ok {
		return nil, errs.Invalid("typeId", "rule.type.unknown")
	}
	var out []ruleParamDTO
	add := func(ps []devices.Param) {
		for _, p := range ps {
			_, nodes, _ := (rules.RegistryCatalogue{}).Param(t.ID, p.ID)
			if nodes == nil {
				nodes = []int{}
			}
			out = append(out, ruleParamDTO{ID: p.ID, Name: p.Name(c.lang), Unit: p.Unit, Precision: p.Precision, Nodes: nodes})
		}
	}
	add(t.Params)
	if st := t.SlaveType(); st != nil {
		add(st.Params)
	}
	p, _, _ := (rules.RegistryCatalogue{}).Param(t.ID, rules.ParamOffline)
	add([]devices.Param{*p})
	return out, nil
}

// ruleTemplates serves GET /apis/rule/templates?typeId=: the built-in
// rules that apply to a type, ready to fill in.
func (s *Server) ruleTemplates(c *call) (any, error) {
	t, ok := devices.TypeByID(atoi(c.r.URL.Query().Get("typeId")))
	if !ok {
		return nil, errs.Invalid("typeId", "rule.type.unknown")
	}
	type tplDTO struct {
		ID   string     `json:"id"`
		Name string     `json:"name"`
		Rule rules.Rule `json:"rule"`
	}
	var out []tplDTO
	for _, tp := range rules.TemplatesFor(t) {
		r := tp.Build(t, c.lang)
		r.DeviceIDs = []int64{}
		out = append(out, tplDTO{ID: tp.ID, Name: tp.Name(c.lang), Rule: r})
	}
	return out, nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// messageDTO is an event as SPEC.md §3 names a message's fields.
type messageDTO struct {
	MessageID    int64          `json:"messageId"`
	RuleID       int64          `json:"ruleId"`
	RuleDeviceID int64          `json:"ruleDeviceId"`
	SN           string         `json:"sn"`
	RuleName     string         `json:"ruleName"`
	TypeID       int            `json:"typeId"`
	DeviceType   string         `json:"deviceType"`
	Time         int64          `json:"time"`
	Description  string         `json:"description"`
	Kind         rules.Kind     `json:"kind"`
	Level        rules.Level    `json:"level"`
	Read         bool           `json:"read"`
	Values       []rules.Judged `json:"values"`
}

func (s *Server) toMessage(e *rules.Event, lang i18n.Lang) messageDTO {
	m := messageDTO{MessageID: e.ID, RuleID: e.RuleID, RuleDeviceID: e.DeviceID, SN: e.SN, RuleName: e.RuleName, TypeID: e.TypeID,
		Time: e.At.UnixMilli(), Kind: e.Kind, Level: e.Level, Read: e.Read, Values: e.Values}
	if m.Values == nil {
		m.Values = []rules.Judged{}
	}
	if t, ok := devices.TypeByID(e.TypeID); ok {
		m.DeviceType = t.Name(lang)
	}
	m.Description = notify.Describe(e, lang)
	return m
}

func (s *Server) eventFilter(c *call) (rules.EventFilter, error) {
	q := c.r.URL.Query()
	var f rules.EventFilter
	p, err := readPage(c)
	if err != nil {
		return f, err
	}
	f.Page, f.Size = p.page, p.size
	if f.DeviceID, err = queryOptID(q, "deviceId"); err != nil {
		return f, err
	}
	if f.RuleID, err = queryOptID(q, "ruleId"); err != nil {
		return f, err
	}
	switch l := rules.Level(q.Get("level")); l {
	case "", rules.LevelNormal, rules.LevelAlarm:
		f.Level = l
	default:
		return f, errs.Invalid("level", "rule.level.invalid")
	}
	switch k := rules.Kind(q.Get("kind")); k {
	case "", rules.KindWarning, rules.KindCommon:
		f.Kind = k
	default:
		return f, errs.Invalid("kind", "rule.kind.invalid")
	}
	if f.UnreadOnly, err = queryBool(q, "unread"); err != nil {
		return f, err
	}
	for name, dst := range map[string]*time.Time{"begin": &f.Begin, "end": &f.End} {
		if v := q.Get(name); v != "" {
			ms, err := strconv.ParseInt(v, 10, 64)
			if err != nil || ms < 0 {
				return f, errs.Invalid(name, "query.time")
			}
			*dst = time.UnixMilli(ms)
		}
	}
	return f, nil
}

// listEvents serves GET /apis/event/events and /apis/event/messages.
func (s *Server) listEvents(c *call) (any, error) {
	f, err := s.eventFilter(c)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Rules.Events(c.r.Context(), c.account.ID, f)
	if err != nil {
		return nil, err
	}
	out := make([]messageDTO, len(list))
	for i, e := range list {
		out[i] = s.toMessage(e, c.lang)
	}
	return pageDTO[messageDTO]{List: out, Total: total}, nil
}

// unreadMessages serves OPTIONS /apis/event/messages: the unread count.
func (s *Server) unreadMessages(c *call) (any, error) {
	n, err := s.Rules.Unread(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	return map[string]int{"unread": n}, nil
}

// readMessages serves PUT /apis/event/messages/read {ids}: marks messages
// read, all of them when ids is empty.
func (s *Server) readMessages(c *call) (any, error) {
	var b struct {
		IDs []int64 `json:"ids"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	n, err := s.Rules.MarkRead(c.r.Context(), c.account.ID, b.IDs)
	if err != nil {
		return nil, err
	}
	return map[string]int{"updated": n}, nil
}

// ruleIDs serves GET /apis/jianli/rule_id: the ids of the caller's rules
// (a legacy call the old console used to tell whether any rule exists).
func (s *Server) ruleIDs(c *call) (any, error) {
	var ids []int64
	for page := 1; ; page++ {
		list, total, err := s.Rules.List(c.r.Context(), c.account.ID, page, 100)
		if err != nil {
			return nil, err
		}
		for _, r := range list {
			ids = append(ids, r.ID)
		}
		if page*100 >= total {
			break
		}
	}
	if ids == nil {
		ids = []int64{}
	}
	return ids, nil
}
