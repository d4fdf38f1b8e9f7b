// Command fieldwatch is the Fieldwatch console: HTTP API, web app and store in one binary.
// Its subcommands are in internal/cli.
package main

import (
	"os"

	"github.com/fieldwatch/fieldwatch/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(cli.Run(version, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
