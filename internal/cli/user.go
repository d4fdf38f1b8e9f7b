package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
)

const userUsage = `Usage: fieldwatch user <command> [flags]

Commands:
  add       create an account (with the e-mail address and phone alerts go to)
  list      list the accounts: bindings, registration, last login, status
  disable   stop an account from logging in and end its sessions
  enable    let a disabled account log in again

Run "fieldwatch user <command> --help" for its flags.
`

func user(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return subcommand(userUsage, args, stdout, stderr, map[string]func() error{
		"add":     func() error { return userAdd(args[1:], stdin, stdout, stderr) },
		"list":    func() error { return userList(args[1:], stdout, stderr) },
		"disable": func() error { return userDisable(args[1:], true, stdout, stderr) },
		"enable":  func() error { return userDisable(args[1:], false, stdout, stderr) },
	})
}

func userAdd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("user add [flags]",
		"Creates an account. The password comes from --password, FIELDWATCH_PASSWORD,\nor else the first line of standard input. --mail and --phone are bound as\ngiven (no verification code is sent): alerts go to them.", stderr)
	var (
		cfg                    config.Store
		number, name, password string
		mail, phone            string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&number, "account", "", "account number: at least 6 letters or digits (required)")
	fs.StringVar(&name, "name", "", "display name, at most 16 characters (default: the account number)")
	fs.StringVar(&password, "password", "", "password, at least 6 characters")
	fs.StringVar(&mail, "mail", "", "e-mail address alert e-mails and password-reset codes go to")
	fs.StringVar(&phone, "phone", "", "mainland China mobile number (11 digits) for SMS codes")
	if err := parse(fs, args); err != nil {
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
	a, err := app.NewAccounts(db).CreateWith(ctx, accounts.NewAccount{Number: number, Password: password, Name: name, Mail: mail, Phone: phone})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created account %s (%s)\n", a.AccountNumber, a.Name)
	return nil
}

func userList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("user list [flags]", "Lists every account with its bindings, registration and last login time, and\nwhether it is disabled.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := app.NewAccounts(db).List(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ACCOUNT\tNAME\tMAIL\tPHONE\tWECHAT\tREGISTERED\tLAST LOGIN\tSTATUS")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, a := range list {
		last, status, wx := "-", "active", "no"
		if a.LastLoginAt != nil {
			last = a.LastLoginAt.UTC().Format(time.DateTime)
		}
		if a.DisabledAt != nil {
			status = "disabled " + a.DisabledAt.UTC().Format(time.DateTime)
		}
		if a.WechatOpenID != "" {
			wx = "yes"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.AccountNumber, a.Name, dash(a.Mail), dash(a.Phone), wx,
			a.CreatedAt.UTC().Format(time.DateTime), last, status)
	}
	return w.Flush()
}

func userDisable(args []string, disable bool, stdout, stderr io.Writer) error {
	verb, what := "disable", "Stops an account from logging in (password, WeChat or password reset) and ends\nits sessions. Its devices, rules and data stay."
	if !disable {
		verb, what = "enable", "Lets a disabled account log in again."
	}
	fs := newFlags("user "+verb+" --account NUMBER [flags]", what, stderr)
	var (
		cfg    config.Store
		number string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&number, "account", "", "account number (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if number == "" {
		fmt.Fprintln(stderr, "--account is required")
		fs.Usage()
		return errUsage
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := app.NewAccounts(db).SetDisabled(ctx, number, disable)
	if err != nil {
		return fmt.Errorf("account %s: %s", number, describe(err))
	}
	fmt.Fprintf(stdout, "%sd account %s\n", verb, a.AccountNumber)
	return nil
}
