package cli

import (
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/config"
)

// Every FIELDWATCH_ variable the deployment files set names a flag of
// fieldwatch serve, so they stay true when flags change.
func TestDeployFiles_NameServeFlags(t *testing.T) {
	var cfg config.Serve
	fs0 := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs0.SetOutput(io.Discard)
	config.BindServe(fs0, &cfg)
	env := regexp.MustCompile(`FIELDWATCH_[A-Z0-9_]+`)
	seen := 0
	err := filepath.WalkDir("../../deploy", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, name := range env.FindAllString(string(body), -1) {
			seen++
			f := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, "FIELDWATCH_")), "_", "-")
			if fs0.Lookup(f) == nil {
				t.Errorf("%s sets %s, but serve has no --%s", p, name, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Fatalf("only %d settings found under deploy/", seen)
	}
}
