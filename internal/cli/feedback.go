package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
)

const feedbackUsage = `Usage: fieldwatch feedback <command> [flags]

Commands:
  list      list the feedback users sent from the console (--open: only the unanswered)
  show      print one feedback in full, with its screenshots and mails (feedback show ID)
  answer    answer a feedback (feedback answer ID "text"): the user sees it in the console
            and, when their account has a bound e-mail address, the running server mails it

Run "fieldwatch feedback <command> --help" for its flags.
`

func feedbackCmd(args []string, stdout, stderr io.Writer) error {
	return subcommand(feedbackUsage, args, stdout, stderr, map[string]func() error{
		"list":   func() error { return feedbackList(args[1:], stdout, stderr) },
		"show":   func() error { return feedbackShow(args[1:], stdout, stderr) },
		"answer": func() error { return feedbackAnswer(args[1:], stdout, stderr) },
	})
}

// parsePositional parses fs with want positional arguments, given before
// or after the flags.
func parsePositional(fs *flag.FlagSet, args []string, want int) ([]string, error) {
	var pos []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && len(pos) < want {
		pos, args = append(pos, args[0]), args[1:]
	}
	if err := config.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) || strings.HasPrefix(err.Error(), config.EnvPrefix) {
			return nil, err
		}
		return nil, errUsage
	}
	pos = append(pos, fs.Args()...)
	if len(pos) != want {
		fmt.Fprintf(fs.Output(), "expected %d arguments, got %d\n", want, len(pos))
		fs.Usage()
		return nil, errUsage
	}
	return pos, nil
}

func feedbackID(fs *flag.FlagSet, s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(fs.Output(), "%q is not a feedback ID (see fieldwatch feedback list)\n", s)
		return 0, errUsage
	}
	return id, nil
}

func feedbackList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("feedback list [flags]", "Lists the feedback users sent, oldest first: ID, time, account, category, state,\nscreenshots and the start of the text.", stderr)
	var (
		cfg  config.Store
		open bool
	)
	config.BindStore(fs, &cfg)
	fs.BoolVar(&open, "open", false, "only feedback not answered yet")
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	loc, err := cfg.Location()
	if err != nil {
		return err
	}
	list, err := db.AllFeedback(ctx, open)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tSENT\tACCOUNT\tCATEGORY\tSTATE\tSHOTS\tTEXT")
	for _, f := range list {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", f.ID, f.CreatedAt.In(loc).Format("2006-01-02 15:04"), f.AccountNumber,
			f.Category, f.State(), len(f.Shots), oneLine(f.Text, 60))
	}
	return w.Flush()
}

// oneLine is s on one line, cut to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func feedbackShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("feedback show ID [flags]", "Prints one feedback in full: the account and its bindings, the contact given,\nthe text, its screenshots, the answer and the mails sent about it.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	id, err := feedbackID(fs, pos[0])
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	loc, err := cfg.Location()
	if err != nil {
		return err
	}
	f, err := findFeedback(ctx, db.AllFeedback, id)
	if err != nil {
		return err
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	fmt.Fprintf(stdout, "Feedback #%d (%s), %s\nAccount:  %s (%s), e-mail %s, phone %s\nContact:  %s\nSent:     %s\n\n%s\n",
		f.ID, f.Category, f.State(), f.AccountNumber, f.AccountName, dash(f.AccountMail), dash(f.AccountPhone), dash(f.Contact),
		f.CreatedAt.In(loc).Format("2006-01-02 15:04:05"), f.Text)
	for i, s := range f.Shots {
		fmt.Fprintf(stdout, "\nScreenshot %d: %s, %d×%d, %d bytes (the operator's mail has it attached)", i+1, s.ContentType, s.Width, s.Height, s.Size)
	}
	if len(f.Shots) > 0 {
		fmt.Fprintln(stdout)
	}
	if f.AnsweredAt != nil {
		fmt.Fprintf(stdout, "\nAnswered %s:\n%s\n", f.AnsweredAt.In(loc).Format("2006-01-02 15:04:05"), f.Answer)
	}
	mails, err := db.FeedbackMails(ctx, f.ID)
	if err != nil {
		return err
	}
	for _, m := range mails {
		fmt.Fprintf(stdout, "\nMail (%s) to %s: %s after %d attempt(s)", m.Kind, m.To, m.Status, m.Attempts)
		if m.LastError != "" {
			fmt.Fprintf(stdout, "; last error: %s", m.LastError)
		}
	}
	if len(mails) > 0 {
		fmt.Fprintln(stdout)
	}
	return nil
}

func findFeedback(ctx context.Context, all func(context.Context, bool) ([]feedback.Feedback, error), id int64) (*feedback.Feedback, error) {
	list, err := all(ctx, false)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == id {
			return &list[i], nil
		}
	}
	return nil, fmt.Errorf("no feedback #%d (see fieldwatch feedback list)", id)
}

func feedbackAnswer(args []string, stdout, stderr io.Writer) error {
	fs := newFlags(`feedback answer ID "text" [flags]`, "Answers a feedback; answering again replaces the answer. The user sees it on the\nconsole's Feedback page at once; when their account has a bound e-mail address the\nanswer is queued to it, and the running server (with --smtp-url) sends it.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	pos, err := parsePositional(fs, args, 2)
	if err != nil {
		return err
	}
	id, err := feedbackID(fs, pos[0])
	if err != nil {
		return err
	}
	text, err := feedback.CheckAnswer(pos[1])
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	to, err := db.AnswerFeedback(ctx, id, text, time.Now())
	if err != nil {
		return fmt.Errorf("feedback #%d: %s", id, describe(err))
	}
	if to == "" {
		fmt.Fprintf(stdout, "answered feedback #%d; the account has no bound e-mail address, so the answer is shown in the console only\n", id)
	} else {
		fmt.Fprintf(stdout, "answered feedback #%d; the answer is queued to %s\n", id, to)
	}
	return nil
}
