package httpapi

import (
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/advice"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// maxFieldDevices bounds the devices of one field.
const maxFieldDevices = 50

// adviceField is the field a call names: the device dev() authorized, then
// the devices of ?field=1,2,3, each opened for the caller (another
// account's device answers ENOTFOUND, as a missing one).
func (s *Server) adviceField(c *call) ([]*devices.Device, error) {
	if s.Advice == nil {
		return nil, errs.NotFound()
	}
	devs := []*devices.Device{c.device}
	v := strings.TrimSpace(c.r.URL.Query().Get("field"))
	if v == "" {
		return devs, nil
	}
	var ids []int64
	for _, part := range strings.Split(v, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || id <= 0 {
			return nil, errs.Invalid("field", "query.unknownValue")
		}
		ids = append(ids, id)
	}
	return s.openField(c, ids, "field")
}

func (s *Server) openField(c *call, ids []int64, field string) ([]*devices.Device, error) {
	if len(ids) > maxFieldDevices {
		return nil, errs.Invalid(field, "advice.field.tooMany").With(map[string]any{"max": maxFieldDevices})
	}
	var devs []*devices.Device
	if c.device != nil {
		devs = append(devs, c.device)
	}
	seen := map[int64]bool{}
	for _, d := range devs {
		seen[d.ID] = true
	}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, id, devices.NeedRead)
		if err != nil {
			return nil, err
		}
		devs = append(devs, d)
	}
	if len(devs) == 0 {
		return nil, errs.Invalid(field, "error.required")
	}
	return devs, nil
}

func (s *Server) adviceReality(c *call, devs []*devices.Device) (*advice.Reality, error) {
	return s.Advice.Reality(c.r.Context(), c.account.ID, devs, s.stations(c, 0), c.lang)
}

// aiReality serves GET /apis/ai/reality/{id}?field=: the state of the device
// (and the field's other devices) with the readings behind each fact.
func (s *Server) aiReality(c *call) (any, error) {
	devs, err := s.adviceField(c)
	if err != nil {
		return nil, err
	}
	return s.adviceReality(c, devs)
}

// aiStrategy serves GET /apis/ai/strategy?id=&field=: the season plan.
func (s *Server) aiStrategy(c *call) (any, error) {
	devs, err := s.adviceField(c)
	if err != nil {
		return nil, err
	}
	r, err := s.adviceReality(c, devs)
	if err != nil {
		return nil, err
	}
	return s.Advice.Strategy(r, c.lang), nil
}

// taskDTO is a task with its words in the caller's language.
type taskDTO struct {
	ID         int64        `json:"id"`
	DeviceID   int64        `json:"deviceId"`
	DeviceName string       `json:"deviceName"`
	Day        string       `json:"day"`
	Kind       string       `json:"kind"`
	Title      string       `json:"title"`
	Steps      []string     `json:"steps"`
	Facts      advice.Facts `json:"facts"`
	DueAt      *int64       `json:"dueAt"`
	Status     string       `json:"status"`
	Note       string       `json:"note"`
	CreatedAt  int64        `json:"createdAt"`
	FeedbackAt *int64       `json:"feedbackAt"`
}

func msPtr(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	v := t.UnixMilli()
	return &v
}

func (s *Server) toTasks(c *call, tasks []advice.Task, devs []*devices.Device) []taskDTO {
	names := map[int64]string{}
	for _, d := range devs {
		names[d.ID] = advice.DeviceName(d)
	}
	out := make([]taskDTO, 0, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		name, ok := names[t.DeviceID]
		if !ok {
			if d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, t.DeviceID, devices.NeedRead); err == nil {
				name = advice.DeviceName(d)
				names[d.ID] = name
			}
		}
		txt := s.Advice.Describe(t, name, c.lang)
		out = append(out, taskDTO{ID: t.ID, DeviceID: t.DeviceID, DeviceName: name, Day: t.Day, Kind: t.Kind, Title: txt.Title,
			Steps: txt.Steps, Facts: t.Facts, DueAt: msPtr(t.DueAt), Status: t.Status, Note: t.Note, CreatedAt: t.CreatedAt.UnixMilli(),
			FeedbackAt: msPtr(t.FeedbackAt)})
	}
	return out
}

func (s *Server) todayOf(c *call, devs []*devices.Device) (any, error) {
	r, err := s.adviceReality(c, devs)
	if err != nil {
		return nil, err
	}
	tasks, err := s.Advice.Today(c.r.Context(), c.account.ID, r)
	if err != nil {
		return nil, err
	}
	return struct {
		Day   string    `json:"day"`
		Tasks []taskDTO `json:"tasks"`
	}{r.Day, s.toTasks(c, tasks, devs)}, nil
}

// aiTaskToday serves GET /apis/ai/task/today/{id}?field=: today's tasks.
func (s *Server) aiTaskToday(c *call) (any, error) {
	devs, err := s.adviceField(c)
	if err != nil {
		return nil, err
	}
	return s.todayOf(c, devs)
}

// aiTask serves POST /apis/ai/task {deviceIds}: today's tasks of a field.
func (s *Server) aiTask(c *call) (any, error) {
	if s.Advice == nil {
		return nil, errs.NotFound()
	}
	var b struct {
		DeviceIDs []int64 `json:"deviceIds"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	if len(b.DeviceIDs) == 0 {
		return nil, errs.Invalid("deviceIds", "error.required")
	}
	devs, err := s.openField(c, b.DeviceIDs, "deviceIds")
	if err != nil {
		return nil, err
	}
	return s.todayOf(c, devs)
}

// aiTaskList serves GET /apis/ai/task/list/{id}?days=: the device's tasks
// of the last days (default 30), newest first.
func (s *Server) aiTaskList(c *call) (any, error) {
	if s.Advice == nil {
		return nil, errs.NotFound()
	}
	days, err := queryInt(c.r.URL.Query(), "days", 30, 1, 366)
	if err != nil {
		return nil, err
	}
	tasks, err := s.Advice.History(c.r.Context(), c.account.ID, c.device.ID, days)
	if err != nil {
		return nil, err
	}
	return struct {
		List []taskDTO `json:"list"`
	}{s.toTasks(c, tasks, []*devices.Device{c.device})}, nil
}

// aiTaskFeedback serves POST /apis/ai/task/feedback {taskId, status, note}.
func (s *Server) aiTaskFeedback(c *call) (any, error) {
	if s.Advice == nil {
		return nil, errs.NotFound()
	}
	var b struct {
		TaskID int64  `json:"taskId"`
		Status string `json:"status"`
		Note   string `json:"note"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	if b.TaskID <= 0 {
		return nil, errs.Invalid("taskId", "error.required")
	}
	t, err := s.Advice.Feedback(c.r.Context(), c.account.ID, b.TaskID, b.Status, b.Note)
	if err != nil {
		return nil, err
	}
	return s.toTasks(c, []advice.Task{*t}, nil)[0], nil
}
