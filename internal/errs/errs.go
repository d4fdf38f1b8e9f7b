// Package errs holds the one error type of the application. Its Code is a
// translation key, so the HTTP layer can localize every message it shows.
package errs

import (
	"errors"
	"fmt"
)

// Kind classifies an error; the HTTP layer maps each kind to one status.
type Kind string

const (
	EInvalid      Kind = "invalid"      // bad input; Field names the offending field
	EUnauthorized Kind = "unauthorized" // bad credentials
	ESession      Kind = "session"      // no session, or it expired
	EForbidden    Kind = "forbidden"    // authenticated but not allowed
	ENotFound     Kind = "not_found"    // absent, or not visible to the caller
	EConflict     Kind = "conflict"     // violates uniqueness or a state rule
	ETooMany      Kind = "too_many"     // throttled
	EMethod       Kind = "method"       // the path exists, the method does not
	EUnavailable  Kind = "unavailable"  // the server is not set up for this (e.g. no mail server)
	EInternal     Kind = "internal"     // anything unexpected; details are logged, not shown
)

// Error is an application error. Code is an i18n key such as
// "account.password.tooShort"; Params fill its placeholders.
type Error struct {
	Kind   Kind
	Code   string
	Field  string
	Params map[string]any
	Err    error // optional cause, logged but never shown
}

func (e *Error) Error() string {
	s := string(e.Kind) + ": " + e.Code
	if e.Field != "" {
		s += " (" + e.Field + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of the given kind and code.
func New(kind Kind, code string) *Error { return &Error{Kind: kind, Code: code} }

// PayloadInvalid is a refusal of a device's payload about the JSON path
// field. The path goes into the message as it is ({field}): it names the
// device's payload, not a form input, so it has no label.
func PayloadInvalid(field, code string, params map[string]any) *Error {
	p := map[string]any{"field": field}
	for k, v := range params {
		p[k] = v
	}
	return &Error{Kind: EInvalid, Code: code, Field: field, Params: p}
}

// Invalid returns an EInvalid error about one field.
func Invalid(field, code string) *Error { return &Error{Kind: EInvalid, Code: code, Field: field} }

// With returns a copy of e carrying the given placeholder values.
func (e *Error) With(params map[string]any) *Error {
	c := *e
	c.Params = params
	return &c
}

// OnField returns err naming field: a copy when err is an application
// error, so the error it was given is never changed; any other error as it
// is.
func OnField(err error, field string) error {
	e := As(err)
	if e == nil {
		return err
	}
	c := *e
	c.Field = field
	return &c
}

// Internal wraps an unexpected error.
func Internal(format string, args ...any) *Error {
	return &Error{Kind: EInternal, Code: "error.internal", Err: fmt.Errorf(format, args...)}
}

// As returns the application error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// KindOf returns the kind of err; errors of other types are EInternal.
func KindOf(err error) Kind {
	if e := As(err); e != nil {
		return e.Kind
	}
	return EInternal
}

// NotFound is the answer for anything absent, or hidden from the caller.
// Each call returns a new error: no error value is shared, so changing one
// (as OnField does on its copy) can never change another caller's.
func NotFound() *Error { return New(ENotFound, "error.notFound") }

// SessionExpired is the answer to a call without a valid session.
func SessionExpired() *Error { return New(ESession, "error.session") }
