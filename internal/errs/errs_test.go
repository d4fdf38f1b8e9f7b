package errs_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Naming a field copies the error: the one a store returned, which other
// code may hold too, never starts naming a field.
func TestOnField_CopiesTheError(t *testing.T) {
	orig := errs.NotFound()
	got := errs.OnField(fmt.Errorf("device 7: %w", orig), "deviceIds")
	if e := errs.As(got); e == nil || e.Field != "deviceIds" || e.Kind != errs.ENotFound {
		t.Fatalf("OnField gave %#v", got)
	}
	if orig.Field != "" {
		t.Errorf("the error given to OnField now names %q", orig.Field)
	}
	plain := errors.New("disk full")
	if errs.OnField(plain, "x") != plain {
		t.Error("an error of another type was changed")
	}
}

// No error value is shared between callers: changing the one a call got
// (a handler naming a field, say) cannot change what any other call answers.
func TestNotFound_NotShared(t *testing.T) {
	a, b := errs.NotFound(), errs.NotFound()
	if a == b {
		t.Fatal("NotFound returns one shared value")
	}
	a.Field = "deviceIds"
	if b.Field != "" || errs.NotFound().Field != "" {
		t.Error("changing one not-found error changed another")
	}
	if s1, s2 := errs.SessionExpired(), errs.SessionExpired(); s1 == s2 {
		t.Error("SessionExpired returns one shared value")
	}
}
