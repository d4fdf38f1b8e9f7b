package errs_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Naming a field on a shared error copies it: ErrNotFound, returned by
// every store, must never start naming a field for everyone.
func TestOnField_CopiesSharedErrors(t *testing.T) {
	got := errs.OnField(fmt.Errorf("device 7: %w", errs.ErrNotFound), "deviceIds")
	if e := errs.As(got); e == nil || e.Field != "deviceIds" || e.Kind != errs.ENotFound {
		t.Fatalf("OnField gave %#v", got)
	}
	if errs.ErrNotFound.Field != "" {
		t.Errorf("the shared ErrNotFound now names %q", errs.ErrNotFound.Field)
	}
	plain := errors.New("disk full")
	if errs.OnField(plain, "x") != plain {
		t.Error("an error of another type was changed")
	}
}
