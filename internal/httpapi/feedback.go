package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
)

// feedbackDTO is a feedback as its author's page shows it; times in milliseconds.
type feedbackDTO struct {
	ID          int64                   `json:"id"`
	Category    string                  `json:"category"`
	Text        string                  `json:"text"`
	Contact     string                  `json:"contact"`
	State       string                  `json:"state"`
	Answer      string                  `json:"answer"`
	CreatedAt   int64                   `json:"createTime"`
	AnsweredAt  *int64                  `json:"answerTime"`
	Screenshots []feedbackScreenshotDTO `json:"screenshots"`
}

type feedbackScreenshotDTO struct {
	feedback.Screenshot
	URL string `json:"url"`
}

func toFeedback(f feedback.Feedback) feedbackDTO {
	out := feedbackDTO{ID: f.ID, Category: f.Category, Text: f.Text, Contact: f.Contact, State: f.State(), Answer: f.Answer,
		CreatedAt: f.CreatedAt.UnixMilli(), Screenshots: make([]feedbackScreenshotDTO, len(f.Shots))}
	if f.AnsweredAt != nil {
		ms := f.AnsweredAt.UnixMilli()
		out.AnsweredAt = &ms
	}
	base := "/apis/feedback/" + strconv.FormatInt(f.ID, 10) + "/screenshots/"
	for i, s := range f.Shots {
		out.Screenshots[i] = feedbackScreenshotDTO{Screenshot: s, URL: base + strconv.FormatInt(s.ID, 10)}
	}
	return out
}

func (s *Server) feedbackStore() (FeedbackStore, error) {
	if s.Feedback == nil {
		return nil, errs.NotFound()
	}
	return s.Feedback, nil
}

// listFeedback serves GET /apis/feedback: the caller's feedback, newest
// first, each with its state (open, answered) and the answer.
func (s *Server) listFeedback(c *call) (any, error) {
	st, err := s.feedbackStore()
	if err != nil {
		return nil, err
	}
	list, err := st.Feedbacks(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	out := make([]feedbackDTO, len(list))
	for i, f := range list {
		out[i] = toFeedback(f)
	}
	return out, nil
}

// getFeedback serves GET /apis/feedback/{feedbackId}; another account's
// answers as missing.
func (s *Server) getFeedback(c *call) (any, error) {
	st, err := s.feedbackStore()
	if err != nil {
		return nil, err
	}
	id, err := pathID(c, "feedbackId")
	if err != nil {
		return nil, err
	}
	f, err := st.FeedbackByID(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return toFeedback(*f), nil
}

// feedbackScreenshot serves GET /apis/feedback/{feedbackId}/screenshots/{shotId}:
// the picture, to the feedback's author only.
func (s *Server) feedbackScreenshot(c *call) (any, error) {
	st, err := s.feedbackStore()
	if err != nil {
		return nil, err
	}
	id, err := pathID(c, "feedbackId")
	if err != nil {
		return nil, err
	}
	shot, err := pathID(c, "shotId")
	if err != nil {
		return nil, err
	}
	p, err := st.FeedbackScreenshot(c.r.Context(), c.account.ID, id, shot)
	if err != nil {
		return nil, err
	}
	return &download{contentType: p.ContentType, body: p.Data, cache: "private, max-age=86400, immutable"}, nil
}

// maxFeedbackBody bounds a feedback form: its screenshots and some room
// for the text fields and the multipart framing.
const maxFeedbackBody = feedback.MaxScreenshots*feedback.MaxShotBytes + 1<<20

// maxFeedbackField bounds one text part of the form (the text's 2000
// characters are at most 8000 bytes).
const maxFeedbackField = 64 << 10

// createFeedback serves POST /apis/feedback: multipart/form-data with
// category, text, contact and up to three files named screenshots, or a
// JSON body {category, text, contact} without screenshots. Screenshots are
// judged by their content (feedback.Sniff). With --feedback-mail, the
// feedback is queued to be mailed to the operator.
func (s *Server) createFeedback(c *call) (any, error) {
	st, err := s.feedbackStore()
	if err != nil {
		return nil, err
	}
	f := &feedback.Feedback{AccountID: c.account.ID, Lang: string(c.lang), CreatedAt: time.Now()}
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		if err := readFeedbackForm(c, f); err != nil {
			return nil, err
		}
	} else {
		var b struct {
			Category string `json:"category"`
			Text     string `json:"text"`
			Contact  string `json:"contact"`
		}
		if err := decode(c, &b); err != nil {
			return nil, err
		}
		f.Category, f.Text, f.Contact = b.Category, b.Text, b.Contact
		if err := f.Check(); err != nil {
			return nil, err
		}
	}
	if err := st.CreateFeedback(c.r.Context(), f, s.FeedbackMail); err != nil {
		return nil, err
	}
	if s.FeedbackMail != "" && s.FeedbackWake != nil {
		s.FeedbackWake()
	}
	return toFeedback(*f), nil
}

// readFeedbackForm reads the multipart form into f. The text fields are
// checked before the screenshots, so a form with both wrong names the
// text first.
func readFeedbackForm(c *call, f *feedback.Feedback) error {
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, maxFeedbackBody)
	mr, err := c.r.MultipartReader()
	if err != nil {
		return errs.New(errs.EInvalid, "feedback.badForm")
	}
	var shotErr error
	shots := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return formError(err)
		}
		name := part.FormName()
		if name == "screenshots" {
			data, err := io.ReadAll(io.LimitReader(part, feedback.MaxShotBytes+1))
			if err != nil {
				return formError(err)
			}
			if len(data) == 0 && part.FileName() == "" {
				continue // an empty file input some browsers send: no screenshot
			}
			shots++
			if shots > feedback.MaxScreenshots {
				if shotErr == nil {
					shotErr = errs.Invalid("screenshots", "feedback.tooManyShots").With(map[string]any{"max": feedback.MaxScreenshots})
				}
				continue
			}
			shot, err := feedback.Sniff(data)
			if err != nil {
				if shotErr == nil {
					shotErr = err
				}
				continue
			}
			f.Shots = append(f.Shots, shot)
			continue
		}
		raw, err := io.ReadAll(io.LimitReader(part, maxFeedbackField+1))
		if err != nil {
			return formError(err)
		}
		if len(raw) > maxFeedbackField {
			raw = raw[:maxFeedbackField] // Check refuses it as too long
		}
		v := strings.ToValidUTF8(string(raw), "")
		switch name {
		case "category":
			f.Category = v
		case "text":
			f.Text = v
		case "contact":
			f.Contact = v
		}
	}
	if err := f.Check(); err != nil {
		return err
	}
	return shotErr
}

// formError is a fault reading the form: the whole body over its bound is
// about the screenshots' size; anything else is a form that could not be read.
func formError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errs.Invalid("screenshots", "feedback.shotTooLarge")
	}
	return errs.New(errs.EInvalid, "feedback.badForm")
}
