package cli

import (
	"fmt"
	"io"

	"github.com/fieldwatch/fieldwatch/internal/httpapi"
)

func routes(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("routes", "Prints every HTTP route as \"METHOD /path\", one a line, sorted.", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	for _, r := range httpapi.New(httpapi.Options{}).Routes() {
		fmt.Fprintln(stdout, r)
	}
	return nil
}
