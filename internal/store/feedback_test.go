package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_Feedback(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		author := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		at := time.UnixMilli(1_772_323_200_000)

		f := &feedback.Feedback{AccountID: author.ID, Category: "problem", Text: "The map does not load", Contact: "138 0000 0000",
			Lang: "en_US", CreatedAt: at, Shots: []feedback.Screenshot{
				{ContentType: "image/png", Width: 4, Height: 3, Data: []byte("png bytes")},
				{ContentType: "image/webp", Width: 8, Height: 6, Data: []byte("webp bytes!")},
			}}
		if err := db.CreateFeedback(ctx, f, "ops@farm.example"); err != nil || f.ID == 0 || f.Shots[0].ID == 0 || f.Shots[1].Size != 11 {
			t.Fatalf("create: %+v %v", f, err)
		}
		second := &feedback.Feedback{AccountID: author.ID, Category: "suggestion", Text: "Dark map tiles", CreatedAt: at.Add(time.Minute)}
		if err := db.CreateFeedback(ctx, second, ""); err != nil {
			t.Fatal(err)
		}

		// The author's list: newest first, screenshots described without bytes, open.
		list, err := db.Feedbacks(ctx, author.ID)
		if err != nil || len(list) != 2 || list[0].ID != second.ID || list[1].ID != f.ID {
			t.Fatalf("list: %+v %v", list, err)
		}
		got := list[1]
		if got.Text != f.Text || got.Contact != f.Contact || got.Category != "problem" || !got.CreatedAt.Equal(at) ||
			got.State() != feedback.StateOpen || len(got.Shots) != 2 || got.Shots[1].ContentType != "image/webp" ||
			got.Shots[1].Width != 8 || got.Shots[0].Data != nil || got.AccountNumber != "farmer01" {
			t.Fatalf("listed: %+v", got)
		}
		if len(list[0].Shots) != 0 || list[0].Shots == nil {
			t.Fatalf("no screenshots must list as empty: %#v", list[0].Shots)
		}

		// Another account sees none of it.
		if l, err := db.Feedbacks(ctx, other.ID); err != nil || len(l) != 0 {
			t.Fatalf("another's list: %+v %v", l, err)
		}
		if _, err := db.FeedbackByID(ctx, other.ID, f.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another reads: %v", err)
		}
		if _, err := db.FeedbackScreenshot(ctx, other.ID, f.ID, f.Shots[0].ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another downloads: %v", err)
		}
		// A screenshot is found only under its own feedback.
		if _, err := db.FeedbackScreenshot(ctx, author.ID, second.ID, f.Shots[0].ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("screenshot under another feedback: %v", err)
		}
		s, err := db.FeedbackScreenshot(ctx, author.ID, f.ID, f.Shots[1].ID)
		if err != nil || string(s.Data) != "webp bytes!" || s.ContentType != "image/webp" {
			t.Fatalf("screenshot: %+v %v", s, err)
		}

		// Only the feedback given an operator address queued a mail, with its screenshots.
		now := at.Add(time.Hour)
		ms, err := db.ClaimFeedbackMails(ctx, now, time.Minute, 10)
		if err != nil || len(ms) != 1 {
			t.Fatalf("claim: %+v %v", ms, err)
		}
		m := ms[0]
		if m.Kind != feedback.MailReceived || m.To != "ops@farm.example" || m.Attempts != 1 || m.Feedback.ID != f.ID ||
			m.Feedback.AccountNumber != "farmer01" || m.Feedback.Lang != "en_US" || len(m.Feedback.Shots) != 2 ||
			string(m.Feedback.Shots[0].Data) != "png bytes" {
			t.Fatalf("claimed: %+v %+v", m, m.Feedback)
		}
		// Leased: not claimed again until the lease runs out, then claimed again.
		if again, err := db.ClaimFeedbackMails(ctx, now, time.Minute, 10); err != nil || len(again) != 0 {
			t.Fatalf("claimed twice: %+v %v", again, err)
		}
		if err := db.FinishFeedbackMail(ctx, m.ID, now, errors.New("421 try later"), now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if st, err := db.FeedbackMails(ctx, f.ID); err != nil || len(st) != 1 || st[0].Status != "queued" || st[0].LastError != "421 try later" {
			t.Fatalf("after a failure: %+v %v", st, err)
		}
		ms, err = db.ClaimFeedbackMails(ctx, now.Add(time.Minute), time.Minute, 10)
		if err != nil || len(ms) != 1 || ms[0].Attempts != 2 {
			t.Fatalf("retry: %+v %v", ms, err)
		}
		if err := db.FinishFeedbackMail(ctx, ms[0].ID, now, nil, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if st, _ := db.FeedbackMails(ctx, f.ID); len(st) != 1 || st[0].Status != "sent" {
			t.Fatalf("after sending: %+v", st)
		}

		// The operator's list: oldest first; --open leaves the answered out.
		if all, err := db.AllFeedback(ctx, false); err != nil || len(all) != 2 || all[0].ID != f.ID {
			t.Fatalf("all: %+v %v", all, err)
		}
		// An answer to an author without an address queues nothing.
		if to, err := db.AnswerFeedback(ctx, f.ID, "Fixed in 1.4", now); err != nil || to != "" {
			t.Fatalf("answer: %q %v", to, err)
		}
		if open, err := db.AllFeedback(ctx, true); err != nil || len(open) != 1 || open[0].ID != second.ID {
			t.Fatalf("open: %+v %v", open, err)
		}
		got2, err := db.FeedbackByID(ctx, author.ID, f.ID)
		if err != nil || got2.State() != feedback.StateAnswered || got2.Answer != "Fixed in 1.4" || !got2.AnsweredAt.Equal(now) {
			t.Fatalf("answered: %+v %v", got2, err)
		}
		// With a bound address, the answer is queued to it.
		if err := db.UpdateAccountMail(ctx, author.ID, "farmer@farm.example"); err != nil {
			t.Fatal(err)
		}
		if to, err := db.AnswerFeedback(ctx, second.ID, "Planned", now); err != nil || to != "farmer@farm.example" {
			t.Fatalf("answer with an address: %q %v", to, err)
		}
		ms, err = db.ClaimFeedbackMails(ctx, now, time.Minute, 10)
		if err != nil || len(ms) != 1 || ms[0].Kind != feedback.MailAnswer || ms[0].To != "farmer@farm.example" ||
			ms[0].Feedback.Answer != "Planned" || ms[0].Feedback.Text != "Dark map tiles" {
			t.Fatalf("answer mail: %+v %v", ms, err)
		}
		if err := db.FinishFeedbackMail(ctx, ms[0].ID, now, errors.New("550 no such user"), time.Time{}); err != nil {
			t.Fatal(err)
		}
		if st, _ := db.FeedbackMails(ctx, second.ID); len(st) != 1 || st[0].Status != "failed" {
			t.Fatalf("failed: %+v", st)
		}
		if _, err := db.AnswerFeedback(ctx, 999999, "x", now); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("answer to none: %v", err)
		}
	})
}
