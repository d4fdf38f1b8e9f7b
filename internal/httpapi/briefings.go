package httpapi

import (
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// briefingDTO is a preset as the API shows it.
type briefingDTO struct {
	*briefing.Preset
	CreateTime int64 `json:"createTime"`
	UpdateTime int64 `json:"updateTime"`
}

func toBriefingDTO(p *briefing.Preset) briefingDTO {
	return briefingDTO{Preset: p, CreateTime: p.CreatedAt.UnixMilli(), UpdateTime: p.UpdatedAt.UnixMilli()}
}

// listBriefings serves GET /apis/soil_moisture/briefing.
func (s *Server) listBriefings(c *call) (any, error) {
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Briefings.List(c.r.Context(), c.account.ID, p.page, p.size)
	if err != nil {
		return nil, err
	}
	out := make([]briefingDTO, len(list))
	for i, b := range list {
		out[i] = toBriefingDTO(b)
	}
	return pageDTO[briefingDTO]{List: out, Total: total}, nil
}

// createBriefing serves POST /apis/soil_moisture/briefing.
func (s *Server) createBriefing(c *call) (any, error) {
	var p briefing.Preset
	if err := decode(c, &p); err != nil {
		return nil, err
	}
	if p.Lang == "" {
		p.Lang = c.lang
	}
	if err := s.Briefings.Create(c.r.Context(), c.account.ID, &p); err != nil {
		return nil, err
	}
	return toBriefingDTO(&p), nil
}

// getBriefing serves GET /apis/soil_moisture/briefing/{id}.
func (s *Server) getBriefing(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	p, err := s.Briefings.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toBriefingDTO(p), nil
}

// putBriefing serves PUT /apis/soil_moisture/briefing/{id}: the whole preset.
func (s *Server) putBriefing(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var p briefing.Preset
	if err := decode(c, &p); err != nil {
		return nil, err
	}
	p.ID = id
	if p.Lang == "" {
		p.Lang = c.lang
	}
	if err := s.Briefings.Update(c.r.Context(), c.account.ID, &p); err != nil {
		return nil, err
	}
	return toBriefingDTO(&p), nil
}

// putBriefingSchedule serves PUT /apis/soil_moisture/briefing/{id}/schedule
// {enabled}: the schedule on or off.
func (s *Server) putBriefingSchedule(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var b struct {
		Enabled *bool `json:"enabled"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	if b.Enabled == nil {
		return nil, errs.Invalid("enabled", "error.required")
	}
	p, err := s.Briefings.SetSchedule(c.r.Context(), c.account.ID, id, *b.Enabled)
	if err != nil {
		return nil, err
	}
	return toBriefingDTO(p), nil
}

// deleteBriefing serves DELETE /apis/soil_moisture/briefing/{id}.
func (s *Server) deleteBriefing(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Briefings.Delete(c.r.Context(), c.account.ID, id)
}

// briefingTemplates serves GET /apis/soil_moisture/template.
func (s *Server) briefingTemplates(c *call) (any, error) {
	return briefing.Templates(c.lang), nil
}

// briefingDevices serves GET /apis/soil_moisture/briefing/device: the soil
// and weather devices the caller may put in a briefing.
func (s *Server) briefingDevices(c *call) (any, error) {
	return s.Briefings.Candidates(c.r.Context(), c.account.ID, c.lang)
}

// queryInts reads an optional comma-separated list of integers in [lo, hi].
func queryInts(c *call, name string, lo, hi int64) ([]int64, error) {
	v := strings.TrimSpace(c.r.URL.Query().Get(name))
	if v == "" {
		return nil, nil
	}
	var out []int64
	for part := range strings.SplitSeq(v, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || n < lo || n > hi {
			return nil, errs.Invalid(name, "query.unknownValue")
		}
		out = append(out, n)
	}
	return out, nil
}

// noNodeDevices serves GET /apis/soil_moisture/no_node_device
// ?deviceIds=&depth1=&depth2=&depth3=: the soil devices (among deviceIds,
// else all the caller's) without a node in a band.
func (s *Server) noNodeDevices(c *call) (any, error) {
	ids, err := queryInts(c, "deviceIds", 1, 1<<62)
	if err != nil {
		return nil, err
	}
	var bands [3][]int
	for i, name := range []string{"depth1", "depth2", "depth3"} {
		ns, err := queryInts(c, name, int64(briefing.Bands[i][0]+1), int64(briefing.Bands[i][1]))
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			bands[i] = append(bands[i], int(n))
		}
	}
	return s.Briefings.NoNodeDevices(c.r.Context(), c.account.ID, ids, bands)
}

// briefingReport serves GET /apis/soil_moisture/briefing/{id}/report
// ?end=: the report of the period ending at end's day (unix ms; default
// today), computed now, for the preview.
func (s *Server) briefingReport(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var end time.Time
	if v := c.r.URL.Query().Get("end"); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 {
			return nil, errs.Invalid("end", "query.unknownValue")
		}
		end = time.UnixMilli(ms)
	}
	return s.Briefings.Report(c.r.Context(), c.account.ID, id, end, nil)
}

// briefingJobDTO is a briefing file job as the API shows it. A failed job
// shows SPEC's message with the reason recorded in the job.
type briefingJobDTO struct {
	TaskID     string `json:"taskId"`
	ConfigID   int64  `json:"configId"`
	Format     string `json:"format"`
	Status     string `json:"status"`
	Progress   int    `json:"progress"`
	Attempts   int    `json:"attempts"`
	Message    string `json:"message,omitempty"`
	Reason     string `json:"reason,omitempty"`
	CreatedAt  int64  `json:"createTime"`
	FinishedAt *int64 `json:"finishTime"`
}

func toBriefingJobDTO(j *exports.Job, lang i18n.Lang) briefingJobDTO {
	out := briefingJobDTO{TaskID: j.ID, ConfigID: j.BriefingID, Format: string(j.Format), Status: string(j.Status),
		Progress: j.Progress, Attempts: j.Attempts, CreatedAt: j.CreatedAt.UnixMilli(), FinishedAt: ms(j.FinishedAt)}
	if j.Status == exports.StatusFailed {
		out.Message = i18n.T(lang, "briefing.export.failed", nil)
		out.Reason = i18n.T(lang, j.Error, nil)
	}
	return out
}

// exportBriefing serves POST /apis/soil_moisture/briefing/{id}/export
// {format, end?}: queues the file of the report for download.
func (s *Server) exportBriefing(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	var b struct {
		Format string `json:"format"`
		End    *int64 `json:"end"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	p, err := s.Briefings.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	var end time.Time
	if b.End != nil {
		if *b.End <= 0 {
			return nil, errs.Invalid("end", "query.unknownValue")
		}
		end = time.UnixMilli(*b.End)
	}
	if s.Exports == nil {
		return nil, errs.NotFound()
	}
	j, err := s.Exports.CreateBriefing(c.r.Context(), c.account.ID, exports.BriefingRequest{BriefingID: p.ID, Format: b.Format, End: end, Lang: p.Lang})
	if err != nil {
		return nil, err
	}
	return toBriefingJobDTO(j, c.lang), nil
}

// briefingJob serves GET /apis/soil_moisture/export/{taskId}: how far the
// caller's briefing file got.
func (s *Server) briefingJob(c *call) (any, error) {
	if s.Exports == nil {
		return nil, errs.NotFound()
	}
	j, err := s.Exports.GetBriefing(c.r.Context(), c.account.ID, c.r.PathValue("taskId"))
	if err != nil {
		return nil, err
	}
	return toBriefingJobDTO(j, c.lang), nil
}

// briefingFile serves GET /apis/soil_moisture/export/{taskId}/file: the
// finished file, while it is kept.
func (s *Server) briefingFile(c *call) (any, error) {
	if s.Exports == nil {
		return nil, errs.NotFound()
	}
	f, err := s.Exports.BriefingDownload(c.r.Context(), c.account.ID, c.r.PathValue("taskId"))
	if err != nil {
		return nil, err
	}
	return &download{contentType: f.ContentType, filename: f.Name, file: f.File, cache: "no-store"}, nil
}
