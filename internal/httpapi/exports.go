package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
)

type exportBody struct {
	Params []string `json:"params"`
	Nodes  []int    `json:"nodes"`
	Email  string   `json:"email"`
	Begin  *int64   `json:"begin"` // unix ms
	End    *int64   `json:"end"`
	Dim    string   `json:"dim"`    // raw (default) or daily
	Format string   `json:"format"` // xlsx (default) or csv
}

func msTime(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := time.UnixMilli(*v)
	return &t
}

// exportConfig serves GET /apis/export/config: whether exports are sent by
// e-mail, or (no mail server) offered for download from the page, and for
// how long such a file is kept.
func (s *Server) exportConfig(c *call) (any, error) {
	out := struct {
		Mail          bool `json:"mail"`
		FileKeepHours int  `json:"fileKeepHours"`
	}{}
	if s.Exports != nil {
		out.Mail, out.FileKeepHours = s.Exports.Enabled(), int(s.Exports.FileKeep().Hours())
	}
	return out, nil
}

// createExport serves POST /apis/poi/{id}/datapoints/export: queue the data
// of a device to be sent by e-mail, or without a mail server (no email in
// the body) to be downloaded from exportFile once ready.
func (s *Server) createExport(c *call) (any, error) {
	id := c.device.ID
	if s.Exports == nil {
		return nil, errs.New(errs.EUnavailable, "export.mailNotConfigured")
	}
	var b exportBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	j, err := s.Exports.Create(c.r.Context(), c.account.ID, id, exports.Request{
		Params: b.Params, Nodes: b.Nodes, Email: b.Email, Begin: msTime(b.Begin), End: msTime(b.End),
		Dim: b.Dim, Format: b.Format, Lang: c.lang,
	})
	if err != nil {
		return nil, err
	}
	return struct {
		TaskID string `json:"taskId"`
	}{j.ID}, nil
}

type exportDTO struct {
	TaskID     string `json:"taskId"`
	Status     string `json:"status"`
	Progress   int    `json:"progress"`
	Rows       int64  `json:"rows"`
	Attempts   int    `json:"attempts"`
	Error      string `json:"error"`
	CreatedAt  int64  `json:"createdAt"`
	FinishedAt *int64 `json:"finishedAt"`
}

// exportStatus serves GET /apis/poi/{id}/datapoints/export/{taskId}: how far
// the caller's export got.
func (s *Server) exportStatus(c *call) (any, error) {
	id := c.device.ID
	if s.Exports == nil {
		return nil, errs.NotFound()
	}
	j, err := s.Exports.Get(c.r.Context(), c.account.ID, id, c.r.PathValue("taskId"))
	if err != nil {
		return nil, err
	}
	out := exportDTO{TaskID: j.ID, Status: string(j.Status), Progress: j.Progress, Rows: j.Rows, Attempts: j.Attempts,
		CreatedAt: j.CreatedAt.UnixMilli(), FinishedAt: ms(j.FinishedAt)}
	if j.Error != "" {
		out.Error = i18n.T(c.lang, j.Error, nil)
	}
	return out, nil
}

// exportFile serves GET /apis/poi/{id}/datapoints/export/{taskId}/file: the
// file of the caller's finished export without mail, while it is kept.
func (s *Server) exportFile(c *call) (any, error) {
	if s.Exports == nil {
		return nil, errs.NotFound()
	}
	f, err := s.Exports.File(c.r.Context(), c.account.ID, c.device.ID, c.r.PathValue("taskId"))
	if err != nil {
		return nil, err
	}
	return &download{contentType: f.ContentType, filename: f.Name, file: f.File, cache: "no-store"}, nil
}

// mapConfig serves GET /apis/map/config: the tile source of the map.
func (s *Server) mapConfig(c *call) (any, error) {
	if s.MapTiles.URL == "" {
		return maptiles.OSM, nil
	}
	return s.MapTiles, nil
}
