package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func printVersion(version string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "Prints the version, the source revision and the Go version.", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		}
	}
	fmt.Fprintf(stdout, "fieldwatch %s (revision %s, %s)\n", version, rev, runtime.Version())
	return nil
}
