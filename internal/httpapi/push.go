package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/push"
)

type channelDTO struct {
	ID           int64    `json:"id"`
	Name         string   `json:"name"`
	URL          string   `json:"url"`
	Enabled      bool     `json:"enabled"`
	DeviceIDs    []int64  `json:"deviceIds"`
	CreateTime   int64    `json:"createTime"`
	LastActivity *int64   `json:"lastActivity"`
	P50          *int64   `json:"p50"` // ms
	P95          *int64   `json:"p95"`
	SuccessRate  *float64 `json:"successRate"` // 0..1, null when nothing was attempted
	Attempted    int      `json:"attempted"`
	Failed       int      `json:"failed"`
	Pending      int      `json:"pending"`
	Window       string   `json:"window"`
}

func toChannel(c *push.Channel, st *push.Stats, window string) channelDTO {
	out := channelDTO{ID: c.ID, Name: c.Name, URL: c.URL, Enabled: c.Enabled, DeviceIDs: c.DeviceIDs,
		CreateTime: c.CreatedAt.UnixMilli(), Window: window}
	if out.DeviceIDs == nil {
		out.DeviceIDs = []int64{}
	}
	if st != nil {
		out.LastActivity = ms(st.LastActivity)
		out.Attempted, out.Failed, out.Pending = st.Attempted, st.Failed, st.Pending
		if st.Succeeded > 0 {
			p50, p95 := st.P50.Milliseconds(), st.P95.Milliseconds()
			out.P50, out.P95 = &p50, &p95
		}
		if r := st.SuccessRate(); r >= 0 {
			out.SuccessRate = &r
		}
	}
	return out
}

// window reads ?window= (SPEC §9 log filters), default 1 h.
func window(c *call) (string, time.Time, error) {
	w := c.r.URL.Query().Get("window")
	if w == "" {
		w = "1h"
	}
	d, ok := push.Windows[w]
	if !ok {
		return "", time.Time{}, errs.Invalid("window", "query.unknownValue")
	}
	return w, time.Now().Add(-d), nil
}

// channelList serves GET …/list: the channels with their live figures.
func (s *Server) channelList(c *call) (any, error) {
	w, since, err := window(c)
	if err != nil {
		return nil, err
	}
	cs, err := s.Push.List(c.r.Context(), c.account.ID, push.KindChannel)
	if err != nil {
		return nil, err
	}
	all := make([]channelDTO, len(cs))
	for i, ch := range cs {
		st, err := s.Push.Stats(c.r.Context(), c.account.ID, ch.ID, since)
		if err != nil {
			return nil, err
		}
		all[i] = toChannel(ch, &st, w)
	}
	return page(c, all)
}

// channelGet serves GET …/get?id=: one channel with its figures.
func (s *Server) channelGet(c *call) (any, error) {
	_, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	w, since, err := window(c)
	if err != nil {
		return nil, err
	}
	ch, err := s.Push.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	if ch.Kind != push.KindChannel { // an application's push address is not a channel
		return nil, errs.NotFound()
	}
	st, err := s.Push.Stats(c.r.Context(), c.account.ID, ch.ID, since)
	if err != nil {
		return nil, err
	}
	return toChannel(ch, &st, w), nil
}

type channelBody struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	URL       string  `json:"url"`
	DeviceIDs []int64 `json:"deviceIds"`
	Enabled   *bool   `json:"enabled"`
}

// channelCreate serves POST …/create; the answer carries the signing
// secret, the only time it is shown.
func (s *Server) channelCreate(c *call) (any, error) {
	var b channelBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	ch := &push.Channel{OwnerID: c.account.ID, Name: b.Name, URL: b.URL, DeviceIDs: b.DeviceIDs}
	secret, err := s.Push.Create(c.r.Context(), ch)
	if err != nil {
		return nil, err
	}
	return struct {
		channelDTO
		Secret string `json:"secret"`
	}{toChannel(ch, nil, ""), secret}, nil
}

// channelUpdate serves PUT …/update.
func (s *Server) channelUpdate(c *call) (any, error) {
	var b channelBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	ch := &push.Channel{ID: b.ID, OwnerID: c.account.ID, Name: b.Name, URL: b.URL, DeviceIDs: b.DeviceIDs}
	if err := s.Push.Update(c.r.Context(), ch); err != nil {
		return nil, err
	}
	return toChannel(ch, nil, ""), nil
}

// channelID reads the channel from ?id= or a body's id.
func channelID(c *call, body *channelBody) (int64, error) {
	if v := c.r.URL.Query().Get("id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return 0, errs.NotFound()
		}
		return id, nil
	}
	if body != nil && body.ID > 0 {
		return body.ID, nil
	}
	return 0, errs.Invalid("id", "error.required")
}

func channelBodyID(c *call) (*channelBody, int64, error) {
	var b channelBody
	if c.r.Method != http.MethodGet && c.r.Method != http.MethodDelete {
		if err := decodeOptional(c, &b); err != nil {
			return nil, 0, err
		}
	}
	id, err := channelID(c, &b)
	return &b, id, err
}

// channelDelete serves DELETE …/delete?id=.
func (s *Server) channelDelete(c *call) (any, error) {
	_, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	return nil, s.Push.Delete(c.r.Context(), c.account.ID, id)
}

// channelSwitch serves PUT …/switch {id, enabled}.
func (s *Server) channelSwitch(c *call) (any, error) {
	b, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	if b.Enabled == nil {
		return nil, errs.Invalid("enabled", "error.required")
	}
	return nil, s.Push.Switch(c.r.Context(), c.account.ID, id, *b.Enabled)
}

// channelDevices serves GET …/selectDevices?id=: the channel's devices.
func (s *Server) channelDevices(c *call) (any, error) {
	_, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	ch, err := s.Push.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return s.deviceChoices(c, ch.DeviceIDs)
}

// channelSetDevices serves PUT …/selectDevices {id, deviceIds}.
func (s *Server) channelSetDevices(c *call) (any, error) {
	b, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	return nil, s.Push.SetDevices(c.r.Context(), c.account.ID, id, b.DeviceIDs)
}

type choiceDTO struct {
	PoiID    int64  `json:"poiId"`
	Name     string `json:"name"`
	SN       string `json:"sn"`
	TypeID   int    `json:"typeId"`
	TypeName string `json:"typeName"`
	Category string `json:"category"`
}

// deviceChoices describes devices the caller may push; ids nil means all.
func (s *Server) deviceChoices(c *call, ids []int64) (any, error) {
	list, err := s.Devices.All(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	out := []choiceDTO{}
	for _, d := range list {
		if ids != nil && !want[d.ID] {
			continue
		}
		if d.OwnerID != c.account.ID && (d.Grant == nil || !d.Grant.Export) {
			continue // pushing data out is an export
		}
		ch := choiceDTO{PoiID: d.ID, Name: d.Name, SN: d.SN, TypeID: d.TypeID}
		if t := d.Type(); t != nil {
			ch.TypeName, ch.Category = t.Name(c.lang), string(t.Category)
		}
		out = append(out, ch)
	}
	return out, nil
}

// channelSelector serves GET …/selector: every device the caller may push.
func (s *Server) channelSelector(c *call) (any, error) { return s.deviceChoices(c, nil) }

// channelConnection serves GET …/getConnectionData?id=: what a receiver
// needs to know (never the secret: it was shown at creation).
func (s *Server) channelConnection(c *call) (any, error) {
	_, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	ch, err := s.Push.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	example := json.RawMessage(`{"deliveryId":1,"channelId":` + strconv.FormatInt(ch.ID, 10) +
		`,"device":{"id":42,"sn":"ZSQ00600012345","typeId":21},"ts":1763884800000,"time":"2025-11-23T08:00:00Z",` +
		`"values":{"battery":3.92},"nodes":{"10":{"soilMoisture":23.4,"soilTemp":12.1},"20":{"soilMoisture":25.0,"soilTemp":12.6}}}`)
	return struct {
		ID        int64           `json:"id"`
		URL       string          `json:"url"`
		Method    string          `json:"method"`
		Headers   []string        `json:"headers"`
		Signature string          `json:"signature"`
		Retries   []string        `json:"retries"`
		Example   json.RawMessage `json:"example"`
	}{ch.ID, ch.URL, "POST",
		[]string{"Content-Type: application/json", push.HeaderDelivery + ": <delivery id>", push.HeaderChannel + ": <channel id>",
			push.HeaderSignature + ": t=<unix seconds>,v1=<hex HMAC-SHA256>"},
		"HMAC-SHA256 with the channel secret over \"<t>.<body>\"",
		retrySchedule(s.Push.RetrySchedule()), example}, nil
}

func retrySchedule(waits []time.Duration) []string {
	out := make([]string, len(waits))
	for i, d := range waits {
		out[i] = d.String()
	}
	return out
}

// channelSecret serves POST …/secret {id}: a new signing secret, shown once.
func (s *Server) channelSecret(c *call) (any, error) {
	_, id, err := channelBodyID(c)
	if err != nil {
		return nil, err
	}
	secret, err := s.Push.ResetSecret(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return struct {
		Secret string `json:"secret"`
	}{secret}, nil
}

type deliveryDTO struct {
	ID          int64           `json:"id"`
	ChannelID   int64           `json:"channelId"`
	DeviceID    int64           `json:"deviceId"`
	CollectTime int64           `json:"collectTime"`
	CreateTime  int64           `json:"createTime"`
	PushTime    *int64          `json:"pushTime"`
	Status      string          `json:"status"`
	Attempts    int             `json:"attempts"`
	NextTime    *int64          `json:"nextTime"`
	Duration    *int64          `json:"duration"` // ms
	HTTPStatus  int             `json:"httpStatus,omitempty"`
	Error       string          `json:"error,omitempty"`
	Data        json.RawMessage `json:"data"`
}

// pushLog serves GET …/pushLogList?[channelId][&deviceId][&status]&window&page&size.
func (s *Server) pushLog(c *call) (any, error) {
	q := c.r.URL.Query()
	w, since, err := window(c)
	if err != nil {
		return nil, err
	}
	f := push.LogFilter{OwnerID: c.account.ID, Since: since, Status: push.Status(q.Get("status"))}
	switch f.Status {
	case "", push.StatusPending, push.StatusSuccess, push.StatusFail:
	default:
		return nil, errs.Invalid("status", "query.unknownValue")
	}
	if f.ChannelID, err = queryOptID(q, "channelId"); err != nil {
		return nil, err
	}
	if f.DeviceID, err = queryOptID(q, "deviceId"); err != nil {
		return nil, err
	}
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	f.Offset, f.Limit = p.offset(), p.size
	ds, total, err := s.Push.Log(c.r.Context(), f)
	if err != nil {
		return nil, err
	}
	out := struct {
		List   []deliveryDTO `json:"list"`
		Total  int           `json:"total"`
		Window string        `json:"window"`
		Stats  *channelDTO   `json:"stats,omitempty"`
	}{List: make([]deliveryDTO, len(ds)), Total: total, Window: w}
	for i, d := range ds {
		dto := deliveryDTO{ID: d.ID, ChannelID: d.ChannelID, DeviceID: d.DeviceID, CollectTime: d.CollectedAt.UnixMilli(),
			CreateTime: d.CreatedAt.UnixMilli(), PushTime: ms(d.PushedAt), Status: string(d.Status), Attempts: d.Attempts,
			HTTPStatus: d.HTTPStatus, Error: d.Error, Data: json.RawMessage(push.Body(d))}
		if d.PushedAt != nil {
			v := d.Duration.Milliseconds()
			dto.Duration = &v
		}
		if d.Status == push.StatusPending {
			dto.NextTime = ms(&d.NextAt)
		}
		out.List[i] = dto
	}
	if f.ChannelID != 0 {
		ch, err := s.Push.Get(c.r.Context(), c.account.ID, f.ChannelID)
		if err != nil {
			return nil, err
		}
		st, err := s.Push.Stats(c.r.Context(), c.account.ID, f.ChannelID, since)
		if err != nil {
			return nil, err
		}
		dto := toChannel(ch, &st, w)
		out.Stats = &dto
	}
	return out, nil
}

// pushRetry serves POST …/retry {id}: send a failed delivery again.
func (s *Server) pushRetry(c *call) (any, error) {
	var b retryBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	return nil, s.Push.Retry(c.r.Context(), c.account.ID, b.ID)
}

// retryBody names the delivery to send again.
type retryBody struct {
	ID int64 `json:"id"`
}

func (b *retryBody) validate() error {
	if b.ID <= 0 {
		return errs.Invalid("id", "error.required")
	}
	return nil
}
