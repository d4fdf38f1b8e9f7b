package main

import (
	"errors"
	"io"

	"github.com/fieldwatch/fieldwatch/internal/calccmd"
)

// calc is "fieldwatch calc": internal/calccmd, where tests of other
// packages can run the same code path.
func calc(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := calccmd.Run(args, stdin, stdout, stderr)
	if errors.Is(err, calccmd.ErrUsage) {
		return errUsage
	}
	return err
}
