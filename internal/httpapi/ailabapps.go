package httpapi

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

// DetectionStore keeps the AI lab's applications and detection records,
// each visible to its owner only.
type DetectionStore interface {
	CreateLabApp(ctx context.Context, a *ailab.App) error
	UpdateLabApp(ctx context.Context, a *ailab.App) error
	SetLabAppPublished(ctx context.Context, ownerID, id int64, published bool, at time.Time) error
	DeleteLabApp(ctx context.Context, ownerID, id int64) error
	LabApps(ctx context.Context, ownerID int64) ([]ailab.App, error)
	LabApp(ctx context.Context, ownerID, id int64) (*ailab.App, error)
	LabAppJobCounts(ctx context.Context, ownerID int64) (map[int64]ailab.JobCounts, error)
	Records(ctx context.Context, ownerID int64, f ailab.RecordFilter) ([]ailab.Record, int, error)
	DeleteRecord(ctx context.Context, ownerID, id int64) error
}

// MaxRecordDownload bounds the records of one download; MaxAppDeviceList
// the devices of one type an application's form offers.
const (
	MaxRecordDownload = 50_000
	MaxAppDeviceList  = 1000
)

func (s *Server) detections() (DetectionStore, SampleStore, error) {
	if s.Detections == nil || s.Samples == nil {
		return nil, nil, errs.NotFound()
	}
	return s.Detections, s.Samples, nil
}

// labAppDevice is a device an application watches, as its page lists it.
type labAppDevice struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	SN   string `json:"sn"`
}

// labAppDTO is an application as the lab's pages show it; times in milliseconds.
type labAppDTO struct {
	ailab.App
	ModelName    string          `json:"modelName"`
	ModelVersion string          `json:"modelVersion"`
	Kind         string          `json:"kind"`
	Devices      []labAppDevice  `json:"devices"`
	Jobs         ailab.JobCounts `json:"jobs"`
	CreatedAt    int64           `json:"createTime"`
	UpdatedAt    int64           `json:"updateTime"`
}

func (s *Server) toLabApp(ctx context.Context, st SampleStore, a ailab.App, jobs ailab.JobCounts) labAppDTO {
	out := labAppDTO{App: a, Jobs: jobs, Devices: []labAppDevice{}, CreatedAt: a.CreatedAt.UnixMilli(), UpdatedAt: a.UpdatedAt.UnixMilli()}
	if m, err := st.Model(ctx, a.OwnerID, a.ModelID); err == nil {
		out.ModelName, out.ModelVersion, out.Kind = m.Name, m.Version, m.Kind
	}
	for _, id := range a.DeviceIDs {
		if d, _, err := s.Devices.Open(ctx, a.OwnerID, id, devices.NeedOwner); err == nil {
			out.Devices = append(out.Devices, labAppDevice{ID: d.ID, Name: d.Name, SN: d.SN})
		}
	}
	return out
}

// listApps serves GET /apis/ailab/applications: the caller's applications,
// newest first, with their model, devices and runs by state.
func (s *Server) listApps(c *call) (any, error) {
	ds, st, err := s.detections()
	if err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	list, err := ds.LabApps(ctx, c.account.ID)
	if err != nil {
		return nil, err
	}
	jobs, err := ds.LabAppJobCounts(ctx, c.account.ID)
	if err != nil {
		return nil, err
	}
	out := make([]labAppDTO, len(list))
	for i, a := range list {
		out[i] = s.toLabApp(ctx, st, a, jobs[a.ID])
	}
	return out, nil
}

// labAppBody is an application's form. Elements are named by identifier;
// their name and unit come from the model.
type labAppBody struct {
	Name        string               `json:"name"`
	MediumName  string               `json:"mediumName"`
	Description string               `json:"description"`
	Type        string               `json:"type"`
	ModelID     int64                `json:"modelId"`
	Elements    []ailab.ModelElement `json:"elements"`
	DeviceIDs   []int64              `json:"deviceIds"`
}

// checkLabApp checks a form: complete and in bounds (ailab.App.Check), the
// model one of the caller's (ENOTFOUND on modelId, as for none), its
// elements among the model's, and each device one of the caller's own
// (ENOTFOUND on deviceIds, as for none) of a type the application's type
// watches.
func (s *Server) checkLabApp(c *call, st SampleStore, a *ailab.App) error {
	if err := a.Check(); err != nil {
		return err
	}
	ctx := c.r.Context()
	m, err := st.Model(ctx, c.account.ID, a.ModelID)
	if err != nil {
		return errs.OnField(err, "modelId")
	}
	if err := a.MatchElements(m.Manifest); err != nil {
		return err
	}
	for _, id := range a.DeviceIDs {
		d, _, err := s.Devices.Open(ctx, c.account.ID, id, devices.NeedOwner)
		if err != nil {
			return errs.OnField(err, "deviceIds")
		}
		if !slices.Contains(ailab.AppTypes[a.Type], d.TypeID) || d.Slave {
			return errs.Invalid("deviceIds", "ailab.app.badDevice").With(map[string]any{"device": d.Name})
		}
	}
	return nil
}

func (s *Server) labAppAnswer(c *call, ds DetectionStore, st SampleStore, id int64) (any, error) {
	ctx := c.r.Context()
	a, err := ds.LabApp(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	jobs, err := ds.LabAppJobCounts(ctx, c.account.ID)
	if err != nil {
		return nil, err
	}
	return s.toLabApp(ctx, st, *a, jobs[a.ID]), nil
}

// createApp serves POST /apis/ailab/applications {name, mediumName,
// description, type, modelId, elements, deviceIds}: a new application,
// not yet published.
func (s *Server) createApp(c *call) (any, error) {
	ds, st, err := s.detections()
	if err != nil {
		return nil, err
	}
	var b labAppBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	now := time.Now()
	a := &ailab.App{OwnerID: c.account.ID, Name: b.Name, MediumName: b.MediumName, Description: b.Description, Type: b.Type,
		ModelID: b.ModelID, Elements: b.Elements, DeviceIDs: b.DeviceIDs, CreatedAt: now, UpdatedAt: now}
	if err := s.checkLabApp(c, st, a); err != nil {
		return nil, err
	}
	if err := ds.CreateLabApp(c.r.Context(), a); err != nil {
		return nil, err
	}
	return s.labAppAnswer(c, ds, st, a.ID)
}

func (s *Server) ownLabApp(c *call) (DetectionStore, SampleStore, int64, error) {
	ds, st, err := s.detections()
	if err != nil {
		return nil, nil, 0, err
	}
	id, err := pathID(c, "appId")
	if err != nil {
		return nil, nil, 0, err
	}
	return ds, st, id, nil
}

// getApp serves GET /apis/ailab/applications/{appId}.
func (s *Server) getApp(c *call) (any, error) {
	ds, st, id, err := s.ownLabApp(c)
	if err != nil {
		return nil, err
	}
	return s.labAppAnswer(c, ds, st, id)
}

// putApp serves PUT /apis/ailab/applications/{appId}: the form again; a
// published application stays published, watching its new devices.
func (s *Server) putApp(c *call) (any, error) {
	ds, st, id, err := s.ownLabApp(c)
	if err != nil {
		return nil, err
	}
	if _, err := ds.LabApp(c.r.Context(), c.account.ID, id); err != nil {
		return nil, err
	}
	var b labAppBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	a := &ailab.App{ID: id, OwnerID: c.account.ID, Name: b.Name, MediumName: b.MediumName, Description: b.Description,
		Type: b.Type, ModelID: b.ModelID, Elements: b.Elements, DeviceIDs: b.DeviceIDs, UpdatedAt: time.Now()}
	if err := s.checkLabApp(c, st, a); err != nil {
		return nil, err
	}
	if err := ds.UpdateLabApp(c.r.Context(), a); err != nil {
		return nil, err
	}
	return s.labAppAnswer(c, ds, st, id)
}

// publishApp serves PUT /apis/ailab/applications/{appId}/publish
// {published}: true runs it on each new picture of its devices from now
// on, false stops it and drops its runs still queued.
func (s *Server) publishApp(c *call) (any, error) {
	ds, st, id, err := s.ownLabApp(c)
	if err != nil {
		return nil, err
	}
	if _, err := ds.LabApp(c.r.Context(), c.account.ID, id); err != nil {
		return nil, err
	}
	var b publishBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	if err := ds.SetLabAppPublished(c.r.Context(), c.account.ID, id, *b.Published, time.Now()); err != nil {
		return nil, err
	}
	return s.labAppAnswer(c, ds, st, id)
}

// deleteApp serves DELETE /apis/ailab/applications/{appId}; its detection
// records stay.
func (s *Server) deleteApp(c *call) (any, error) {
	ds, _, id, err := s.ownLabApp(c)
	if err != nil {
		return nil, err
	}
	return nil, ds.DeleteLabApp(c.r.Context(), c.account.ID, id)
}

// labAppCandidate is a device an application of a type may watch.
type labAppCandidate struct {
	labAppDevice
	TypeID int `json:"typeId"`
	// WatchedBy is the published application watching it, if any.
	WatchedBy *int64 `json:"watchedBy"`
}

// appDevices serves GET /apis/ailab/applications/devices?type=: the
// caller's own devices an application of that type may watch.
func (s *Server) appDevices(c *call) (any, error) {
	ds, _, err := s.detections()
	if err != nil {
		return nil, err
	}
	typ := c.r.URL.Query().Get("type")
	ids, ok := ailab.AppTypes[typ]
	if !ok {
		return nil, errs.Invalid("type", "ailab.app.badType")
	}
	ctx := c.r.Context()
	apps, err := ds.LabApps(ctx, c.account.ID)
	if err != nil {
		return nil, err
	}
	watched := map[int64]int64{}
	for _, a := range apps {
		if a.Published {
			for _, d := range a.DeviceIDs {
				watched[d] = a.ID
			}
		}
	}
	out := []labAppCandidate{}
	for _, typeID := range ids {
		tid := typeID
		list, _, err := s.Devices.List(ctx, c.account.ID, devices.Filter{TypeID: &tid, Belong: devices.BelongMine, Limit: MaxAppDeviceList})
		if err != nil {
			return nil, err
		}
		for _, d := range list {
			if d.Slave {
				continue
			}
			cd := labAppCandidate{labAppDevice: labAppDevice{ID: d.ID, Name: d.Name, SN: d.SN}, TypeID: d.TypeID}
			if app, ok := watched[d.ID]; ok {
				cd.WatchedBy = &app
			}
			out = append(out, cd)
		}
	}
	return out, nil
}

// recordDTO is a detection record as the history page shows it.
type recordDTO struct {
	ailab.Record
	DetectedAt int64  `json:"detectTime"`
	CreatedAt  int64  `json:"createTime"`
	ImageURL   string `json:"imageUrl"`
}

func toRecord(r ailab.Record) recordDTO {
	out := recordDTO{Record: r, DetectedAt: r.DetectedAt.UnixMilli(), CreatedAt: r.CreatedAt.UnixMilli()}
	if r.ImageID != nil {
		out.ImageURL = "/apis/poi/" + strconv.FormatInt(r.DeviceID, 10) + "/images/" + strconv.FormatInt(*r.ImageID, 10)
	}
	if out.Packages == nil {
		out.Packages = []ailab.RecordPackage{}
	}
	return out
}

// recordFilter reads ?deviceId=&appId=&begin=&end= (unix ms; begin
// inclusive, end exclusive).
func recordFilter(c *call) (ailab.RecordFilter, error) {
	q := c.r.URL.Query()
	var f ailab.RecordFilter
	var err error
	if f.DeviceID, err = queryOptID(q, "deviceId"); err != nil {
		return f, err
	}
	if f.AppID, err = queryOptID(q, "appId"); err != nil {
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

// listRecords serves GET /apis/fw/detectReports?deviceId=&appId=&begin=&end=&page=&size=:
// the caller's detection records, newest first.
func (s *Server) listRecords(c *call) (any, error) {
	ds, _, err := s.detections()
	if err != nil {
		return nil, err
	}
	f, err := recordFilter(c)
	if err != nil {
		return nil, err
	}
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	f.Offset, f.Limit = p.offset(), p.size
	list, total, err := ds.Records(c.r.Context(), c.account.ID, f)
	if err != nil {
		return nil, err
	}
	out := make([]recordDTO, len(list))
	for i, r := range list {
		out[i] = toRecord(r)
	}
	return pageDTO[recordDTO]{List: out, Total: total}, nil
}

// downloadRecords serves GET /apis/fw/detectReports/download with the
// list's filters: the records as an XLSX workbook in the caller's language
// (sheet.DetectionRecords), at most MaxRecordDownload of them, newest first.
func (s *Server) downloadRecords(c *call) (any, error) {
	ds, _, err := s.detections()
	if err != nil {
		return nil, err
	}
	f, err := recordFilter(c)
	if err != nil {
		return nil, err
	}
	f.Limit = MaxRecordDownload
	list, _, err := ds.Records(c.r.Context(), c.account.ID, f)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := sheet.DetectionRecords(&buf, c.lang, list, s.location()); err != nil {
		return nil, errs.Internal("download records: %w", err)
	}
	return &download{contentType: sheet.XLSX.ContentType(), filename: "detections-" + time.Now().In(s.location()).Format("20060102") + ".xlsx",
		body: buf.Bytes(), cache: "no-store"}, nil
}

// deleteRecord serves DELETE /apis/fw/detectReports/{recordId}.
func (s *Server) deleteRecord(c *call) (any, error) {
	ds, _, err := s.detections()
	if err != nil {
		return nil, err
	}
	id, err := pathID(c, "recordId")
	if err != nil {
		return nil, err
	}
	return nil, ds.DeleteRecord(c.r.Context(), c.account.ID, id)
}
