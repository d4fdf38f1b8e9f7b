package httpapi

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// MaxModelTestSamples bounds one model test.
const MaxModelTestSamples = 20

// modelDTO is a model as the lab's pages show it; times in milliseconds.
type modelDTO struct {
	ailab.StoredModel
	CreatedAt int64  `json:"createTime"`
	URL       string `json:"url"`
}

func toModel(m ailab.StoredModel) modelDTO {
	return modelDTO{StoredModel: m, CreatedAt: m.CreatedAt.UnixMilli(),
		URL: "/apis/ailab/models/" + strconv.FormatInt(m.ID, 10) + "/file"}
}

// listModels serves GET /apis/ailab/models: the caller's models, newest first.
func (s *Server) listModels(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	list, err := st.Models(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	out := make([]modelDTO, len(list))
	for i, m := range list {
		out[i] = toModel(m)
	}
	return out, nil
}

// uploadFile reads the multipart part named "file": its file name and
// bytes, at most limit of them.
func uploadFile(c *call, limit int64) (string, []byte, error) {
	ct, params, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" || params["boundary"] == "" {
		return "", nil, errs.Invalid("file", "ailab.model.fileRequired")
	}
	mr := multipart.NewReader(http.MaxBytesReader(nil, c.r.Body, limit+64<<10), params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, errs.Invalid("file", "ailab.model.fileRequired")
		}
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return "", nil, errs.Invalid("file", "ailab.model.tooLarge").With(map[string]any{"max": limit >> 20})
		}
		if err != nil {
			return "", nil, errs.Invalid("file", "ailab.model.fileRequired")
		}
		if part.FormName() != "file" {
			_ = part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, limit+1))
		_ = part.Close()
		if errors.As(err, &tooBig) || int64(len(data)) > limit {
			return "", nil, errs.Invalid("file", "ailab.model.tooLarge").With(map[string]any{"max": limit >> 20})
		}
		if err != nil {
			return "", nil, errs.Invalid("file", "ailab.model.fileRequired")
		}
		return part.FileName(), data, nil
	}
}

// uploadModel serves POST /apis/ailab/models, multipart with the package
// as part "file": only an .l5d whose manifest and graph pass
// ailab.ReadPackage is stored.
func (s *Server) uploadModel(c *call) (any, error) {
	st, err := s.samples()
	if err != nil {
		return nil, err
	}
	name, data, err := uploadFile(c, ailab.MaxPackageBytes)
	if err != nil {
		return nil, err
	}
	p, err := ailab.ReadPackage(name, data)
	if err != nil {
		return nil, err
	}
	m := &ailab.StoredModel{OwnerID: c.account.ID, Name: p.Manifest.Name, Version: p.Manifest.Version,
		Kind: p.Manifest.Output.Kind, FileName: name, Manifest: p.Manifest, Operators: p.Operators, CreatedAt: time.Now()}
	if err := st.CreateModel(c.r.Context(), m, data); err != nil {
		return nil, err
	}
	return toModel(*m), nil
}

func (s *Server) ownModel(c *call) (SampleStore, int64, error) {
	st, err := s.samples()
	if err != nil {
		return nil, 0, err
	}
	id, err := pathID(c, "modelId")
	if err != nil {
		return nil, 0, err
	}
	return st, id, nil
}

// getModel serves GET /apis/ailab/models/{modelId}.
func (s *Server) getModel(c *call) (any, error) {
	st, id, err := s.ownModel(c)
	if err != nil {
		return nil, err
	}
	m, err := st.Model(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toModel(*m), nil
}

// modelFile serves GET /apis/ailab/models/{modelId}/file: the package as uploaded.
func (s *Server) modelFile(c *call) (any, error) {
	st, id, err := s.ownModel(c)
	if err != nil {
		return nil, err
	}
	m, err := st.Model(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	data, err := st.ModelData(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return &download{contentType: "application/zip", filename: m.FileName, body: data, cache: "no-store"}, nil
}

// builtinModel serves GET /apis/ailab/models/builtin/insect-counter.l5d:
// the counter shipped in the binary, to upload like any other.
func (s *Server) builtinModel(*call) (any, error) {
	return &download{contentType: "application/zip", filename: builtin.InsectCounterFile, body: builtin.InsectCounter,
		cache: "private, max-age=3600"}, nil
}

// deleteModel serves DELETE /apis/ailab/models/{modelId}.
func (s *Server) deleteModel(c *call) (any, error) {
	st, id, err := s.ownModel(c)
	if err != nil {
		return nil, err
	}
	return nil, st.DeleteModel(c.r.Context(), c.account.ID, id)
}

type modelTestBody struct {
	SampleIDs []int64 `json:"sampleIds"`
	SetID     int64   `json:"setId"`
}

// sampleOutput is a model's result on one sample.
type sampleOutput struct {
	SampleID int64 `json:"sampleId"`
	Width    int   `json:"width"`
	Height   int   `json:"height"`
	*ailab.Result
}

// testModel serves POST /apis/ailab/models/{modelId}/test {sampleIds} or
// {setId}: the model runs on each sample (at most MaxModelTestSamples);
// the answer holds each one's values, boxes and time taken, and the whole
// run's time. A set version tested on is used from then on.
func (s *Server) testModel(c *call) (any, error) {
	st, id, err := s.ownModel(c)
	if err != nil {
		return nil, err
	}
	var b modelTestBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	m, err := st.Model(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	field := "sampleIds"
	if b.SetID != 0 {
		field = "setId"
		set, err := st.Set(ctx, c.account.ID, b.SetID)
		if err != nil {
			return nil, err
		}
		b.SampleIDs = set.SampleIDs
	}
	if len(b.SampleIDs) == 0 || len(b.SampleIDs) > MaxModelTestSamples {
		return nil, errs.Invalid(field, "ailab.model.badSamples").With(map[string]any{"max": MaxModelTestSamples})
	}
	samples := make([]*ailab.Sample, len(b.SampleIDs))
	pictures := make([][]byte, len(b.SampleIDs))
	for i, sid := range b.SampleIDs {
		if samples[i], err = st.Sample(ctx, c.account.ID, sid); err != nil {
			return nil, err
		}
		if _, pictures[i], err = st.SampleData(ctx, c.account.ID, sid); err != nil {
			return nil, err
		}
	}
	data, err := st.ModelData(ctx, c.account.ID, id)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	p, err := ailab.ReadPackage(m.FileName, data)
	if err != nil {
		return nil, err
	}
	model, err := ailab.Load(p)
	if err != nil {
		return nil, err
	}
	out := struct {
		ModelID int64          `json:"modelId"`
		Kind    string         `json:"kind"`
		Outputs []sampleOutput `json:"outputs"`
		Millis  float64        `json:"millis"`
	}{ModelID: m.ID, Kind: m.Kind, Outputs: make([]sampleOutput, len(samples))}
	for i, smp := range samples {
		res, err := model.RunPicture(pictures[i])
		if err != nil {
			return nil, errs.OnField(err, field)
		}
		out.Outputs[i] = sampleOutput{SampleID: smp.ID, Width: smp.Width, Height: smp.Height, Result: res}
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	if b.SetID != 0 {
		if err := st.MarkSetUsed(ctx, c.account.ID, b.SetID); err != nil {
			return nil, err
		}
	}
	return out, nil
}
