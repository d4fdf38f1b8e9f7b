package httpapi

import (
	"bytes"
	"image"
	"io"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// sampleDTO is a sample as the lab's pages show it; times in milliseconds.
type sampleDTO struct {
	ailab.Sample
	SampleTime int64  `json:"sampleTime"`
	CreatedAt  int64  `json:"createTime"`
	URL        string `json:"url"`
}

func toSample(s ailab.Sample) sampleDTO {
	return sampleDTO{Sample: s, SampleTime: s.SampleTime.UnixMilli(), CreatedAt: s.CreatedAt.UnixMilli(),
		URL: "/apis/ailab/samples/" + strconv.FormatInt(s.ID, 10) + "/image"}
}

func (s *Server) samples() (SampleStore, error) {
	if s.Samples == nil {
		return nil, errs.NotFound()
	}
	return s.Samples, nil
}

// sampleTarget is the lab's store and the id at key in the path.
func (s *Server) sampleTarget(c *call, key string) (SampleStore, int64, error) {
	st, err := s.samples()
	if err != nil {
		return nil, 0, err
	}
	id, err := pathID(c, key)
	return st, id, err
}

// listSamples serves GET /apis/ailab/samples[?tag=]: the caller's samples, newest first.
func (s *Server) listSamples(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	list, err := st.Samples(c.r.Context(), c.account.ID, c.r.URL.Query().Get("tag"))
	if err != nil {
		return nil, err
	}
	out := make([]sampleDTO, len(list))
	for i, x := range list {
		out[i] = toSample(x)
	}
	return out, nil
}

type fromImageBody struct {
	DeviceID int64 `json:"deviceId"`
	ImageID  int64 `json:"imageId"`
}

func (b *fromImageBody) validate() error {
	if b.DeviceID == 0 {
		return errs.Invalid("deviceId", "error.required")
	}
	if b.ImageID == 0 {
		return errs.Invalid("imageId", "error.required")
	}
	return nil
}

// sampleFromImage serves POST /apis/ailab/samples {deviceId, imageId}: a
// camera picture of one of the caller's devices becomes a sample (the
// same sample when it already is one). A device or picture not the
// caller's is ENOTFOUND, as for none.
func (s *Server) sampleFromImage(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	var b fromImageBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	d, _, err := s.Devices.Open(ctx, c.account.ID, b.DeviceID, devices.NeedOwner)
	if err != nil {
		return nil, err
	}
	_, data, err := s.Images.ImageData(ctx, d.ID, b.ImageID)
	if err != nil {
		return nil, err
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errs.Invalid("imageId", "ailab.sample.notPicture")
	}
	out, err := st.SampleFromImage(ctx, c.account.ID, b.ImageID, cfg.Width, cfg.Height, time.Now())
	if err != nil {
		return nil, err
	}
	return toSample(*out), nil
}

// uploadSample serves POST /apis/ailab/samples/upload?tag=&location=: the
// body is the picture itself, taken only when its content is a JPEG or PNG
// within the limits (ailab.Sniff); its name and Content-Type are ignored.
func (s *Server) uploadSample(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(c.r.Body, ailab.MaxUploadBytes+1))
	if err != nil {
		return nil, errs.Invalid("file", "ailab.sample.fileRequired")
	}
	ct, w, h, err := ailab.Sniff(data)
	if err != nil {
		return nil, err
	}
	q := c.r.URL.Query()
	now := time.Now()
	smp := &ailab.Sample{OwnerID: c.account.ID, DeviceName: q.Get("name"), SampleTime: now, Tag: q.Get("tag"),
		Location: q.Get("location"), ContentType: ct, Width: w, Height: h, CreatedAt: now}
	if err := st.CreateSample(c.r.Context(), smp, data); err != nil {
		return nil, err
	}
	return toSample(*smp), nil
}

// getSample serves GET /apis/ailab/samples/{sampleId}.
func (s *Server) getSample(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "sampleId")
	if err != nil {
		return nil, err
	}
	out, err := st.Sample(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toSample(*out), nil
}

// sampleImage serves GET /apis/ailab/samples/{sampleId}/image: the picture.
func (s *Server) sampleImage(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "sampleId")
	if err != nil {
		return nil, err
	}
	ct, data, err := st.SampleData(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return &download{contentType: ct, body: data, cache: "private, max-age=86400, immutable"}, nil
}

type sampleBody struct {
	Tag      string        `json:"tag"`
	Location string        `json:"location"`
	Labels   []ailab.Label `json:"labels"`
}

// putSample serves PUT /apis/ailab/samples/{sampleId} {tag, location, labels}.
func (s *Server) putSample(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "sampleId")
	if err != nil {
		return nil, err
	}
	var b sampleBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	cur, err := st.Sample(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	if err := ailab.CheckLabels(b.Labels, cur.Width, cur.Height); err != nil {
		return nil, err
	}
	if err := st.UpdateSample(ctx, c.account.ID, id, b.Tag, b.Location, b.Labels); err != nil {
		return nil, err
	}
	out, err := st.Sample(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toSample(*out), nil
}

// deleteSample serves DELETE /apis/ailab/samples/{sampleId}.
func (s *Server) deleteSample(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "sampleId")
	if err != nil {
		return nil, err
	}
	return nil, st.DeleteSample(c.r.Context(), c.account.ID, id)
}

// setDTO is a set version as the lab's pages show it.
type setDTO struct {
	ailab.Set
	CreatedAt int64 `json:"createTime"`
}

type setBody struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	SampleIDs   []int64 `json:"sampleIds"`
}

// listSets serves GET /apis/ailab/sets: the caller's set versions, newest first.
func (s *Server) listSets(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	list, err := st.Sets(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	out := make([]setDTO, len(list))
	for i, x := range list {
		out[i] = setDTO{Set: x, CreatedAt: x.CreatedAt.UnixMilli()}
	}
	return out, nil
}

// createSet serves POST /apis/ailab/sets {name, description, sampleIds}: version 1.
func (s *Server) createSet(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	var b setBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	if err := ailab.CheckSet(b.Name, b.SampleIDs); err != nil {
		return nil, err
	}
	set := &ailab.Set{OwnerID: c.account.ID, Name: b.Name, Description: b.Description, SampleIDs: b.SampleIDs, CreatedAt: time.Now()}
	if err := st.CreateSet(c.r.Context(), set); err != nil {
		return nil, err
	}
	out, err := st.Set(c.r.Context(), c.account.ID, set.ID)
	if err != nil {
		return nil, err
	}
	return setDTO{Set: *out, CreatedAt: out.CreatedAt.UnixMilli()}, nil
}

// getSet serves GET /apis/ailab/sets/{setId}.
func (s *Server) getSet(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "setId")
	if err != nil {
		return nil, err
	}
	out, err := st.Set(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return setDTO{Set: *out, CreatedAt: out.CreatedAt.UnixMilli()}, nil
}

// putSet serves PUT /apis/ailab/sets/{setId} {description, sampleIds}: in
// place while the version is unused, else it answers the next version.
func (s *Server) putSet(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "setId")
	if err != nil {
		return nil, err
	}
	var b setBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	if len(b.SampleIDs) == 0 {
		return nil, errs.Invalid("sampleIds", "ailab.set.incomplete")
	}
	out, err := st.UpdateSet(c.r.Context(), &ailab.Set{ID: id, OwnerID: c.account.ID, Description: b.Description,
		SampleIDs: b.SampleIDs, CreatedAt: time.Now()})
	if err != nil {
		return nil, err
	}
	return setDTO{Set: *out, CreatedAt: out.CreatedAt.UnixMilli()}, nil
}

// deleteSet serves DELETE /apis/ailab/sets/{setId}.
func (s *Server) deleteSet(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "setId")
	if err != nil {
		return nil, err
	}
	return nil, st.DeleteSet(c.r.Context(), c.account.ID, id)
}

// exportSet serves GET /apis/ailab/sets/{setId}/export: the version as a
// zip (docs/ai-lab.md); the version is used from then on.
func (s *Server) exportSet(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "setId")
	if err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	set, items, err := st.SetExport(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := ailab.WriteExport(&buf, *set, items); err != nil {
		return nil, errs.Internal("export set: %w", err)
	}
	if err := st.MarkSetUsed(ctx, c.account.ID, id); err != nil {
		return nil, err
	}
	return &download{contentType: "application/zip", filename: "sample-set-" + strconv.FormatInt(set.ID, 10) + "-v" + strconv.Itoa(set.Version) + ".zip",
		body: buf.Bytes(), cache: "no-store"}, nil
}

// listElements serves GET /apis/ailab/elements: the caller's elements.
func (s *Server) listElements(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	return st.Elements(c.r.Context(), c.account.ID)
}

// createElement serves POST /apis/ailab/elements {name, unit, identifier}.
func (s *Server) createElement(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	var e ailab.Element
	if err := decodeOptional(c, &e); err != nil {
		return nil, err
	}
	e.OwnerID = c.account.ID
	if err := e.Check(); err != nil {
		return nil, err
	}
	if err := st.CreateElement(c.r.Context(), &e); err != nil {
		return nil, err
	}
	return e, nil
}

// deleteElement serves DELETE /apis/ailab/elements/{elementId}.
func (s *Server) deleteElement(c *call) (any, error) {
	st, id, err := s.sampleTarget(c, "elementId")
	if err != nil {
		return nil, err
	}
	return nil, st.DeleteElement(c.r.Context(), c.account.ID, id)
}
