package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
)

func migrate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate [flags]", "Applies pending database migrations and prints the schema version.", stderr)
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
	v, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s schema at version %d\n", db.Dialect(), v)
	return nil
}
