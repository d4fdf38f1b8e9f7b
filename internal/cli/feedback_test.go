package cli

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
)

func TestFeedbackCommands(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := runCmd(t, "", "user", "add", "--data", dir, "--account", "farmer01", "--name", "东坡农场",
		"--password", "secret1", "--mail", "farmer@farm.example"); code != 0 {
		t.Fatal(errOut)
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, config.Store{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	a, err := db.FindAccountByNumber(ctx, "farmer01")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 0, 30, 0, 0, time.UTC) // 08:30 in Asia/Shanghai, the default --timezone
	first := &feedback.Feedback{AccountID: a.ID, Category: "device", Text: "Station 3 stopped\nreporting since Monday", Contact: "138 0000 0000",
		CreatedAt: at, Shots: []feedback.Screenshot{{ContentType: "image/png", Width: 30, Height: 20, Data: []byte("png")}}}
	second := &feedback.Feedback{AccountID: a.ID, Category: "suggestion", Text: strings.Repeat("dark map tiles ", 10), CreatedAt: at.Add(time.Hour)}
	for _, f := range []*feedback.Feedback{first, second} {
		if err := db.CreateFeedback(ctx, f, ""); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, errOut := runCmd(t, "", "feedback", "list", "--data", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
		!strings.Contains(lines[1], "2026-03-01 08:30") || !strings.Contains(lines[1], "farmer01") || !strings.Contains(lines[1], "device") ||
		!strings.Contains(lines[1], "open") || !strings.Contains(lines[1], "Station 3 stopped reporting since Monday") ||
		!strings.HasSuffix(lines[2], "…") {
		t.Fatalf("list: %d %q %q", code, out, errOut)
	}

	// An answer, flags after the arguments; the account's address gets it queued.
	id := itoa(first.ID)
	code, out, errOut = runCmd(t, "", "feedback", "answer", id, "Its SIM card ran out; renewed.", "--data", dir)
	if code != 0 || !strings.Contains(out, "queued to farmer@farm.example") {
		t.Fatalf("answer: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "feedback", "list", "--open", "--data", dir)
	if lines = strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[1], itoa(second.ID)+" ") {
		t.Fatalf("--open: %q", out)
	}
	code, out, _ = runCmd(t, "", "feedback", "show", "--data", dir, id)
	for _, want := range []string{"Feedback #" + id + " (device), answered", "farmer01 (东坡农场), e-mail farmer@farm.example", "138 0000 0000",
		"Station 3 stopped\nreporting since Monday", "image/png, 30×20", "Its SIM card ran out; renewed.", "Mail (answer) to farmer@farm.example: queued"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	// Mistakes: usage (2) or a message naming what is wrong (1).
	t.Setenv("LANG", "C.UTF-8")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"feedback", "answer", id, "--data", dir}, 2, "expected 2 arguments"},
		{[]string{"feedback", "answer", "x12", "hi", "--data", dir}, 2, "not a feedback ID"},
		{[]string{"feedback", "answer", id, "  ", "--data", dir}, 1, "Answer is required"},
		{[]string{"feedback", "answer", "999999", "hi", "--data", dir}, 1, "feedback #999999"},
		{[]string{"feedback", "show", "999999", "--data", dir}, 1, "no feedback #999999"},
		{[]string{"feedback", "frobnicate"}, 2, "Usage: fieldwatch feedback"},
	} {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: %d %q", c.args, code, errOut)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
