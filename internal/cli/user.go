package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
)

func user(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, "Usage: fieldwatch user add [flags]\n\nRun \"fieldwatch user add --help\" for its flags.\n")
			return nil
		}
		fmt.Fprint(stderr, "Usage: fieldwatch user add [flags]\n")
		return errUsage
	}
	fs := newFlags("user add [flags]",
		"Creates an account. The password comes from --password, FIELDWATCH_PASSWORD,\nor else the first line of standard input.", stderr)
	var (
		cfg                    config.Store
		number, name, password string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&number, "account", "", "account number: at least 6 letters or digits (required)")
	fs.StringVar(&name, "name", "", "display name, at most 16 characters (default: the account number)")
	fs.StringVar(&password, "password", "", "password, at least 6 characters")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if password == "" {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			return errors.New("no password: give --password, FIELDWATCH_PASSWORD or a line on standard input")
		}
		password = strings.TrimRight(line, "\r\n")
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := app.NewAccounts(db).Create(ctx, number, password, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created account %s (%s)\n", a.AccountNumber, a.Name)
	return nil
}
