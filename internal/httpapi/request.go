package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// This file reads requests: path and query values, list pages and JSON
// bodies. Every handler reads them through these, so a bad value answers
// the same localized EINVALID naming its field wherever it comes.

// maxQueryValue bounds every query value in characters: far above any
// search text, id list or parameter list a call takes, far below what makes
// a LIKE pattern or a list parse expensive.
const maxQueryValue = 1000

// checkQuery refuses a call any of whose query values is longer than
// maxQueryValue, naming it: EINVALID query.tooLong. Every /apis and open-API
// call passes through it before its handler reads the query, so no reader,
// present or future, sees an overlong search text.
func checkQuery(r *http.Request) error {
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range q[name] {
			if len(v) > maxQueryValue && utf8.RuneCountInString(v) > maxQueryValue {
				return errs.Invalid(name, "query.tooLong").With(map[string]any{"max": maxQueryValue})
			}
		}
	}
	return nil
}

// pathID reads a numeric path value; anything else is ENOTFOUND, like an
// id that does not exist.
func pathID(c *call, name string) (int64, error) {
	id, err := strconv.ParseInt(c.r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.NotFound()
	}
	return id, nil
}

// queryID reads ?{name}= as a required id; one that is not a positive
// number is ENOTFOUND, like an id that does not exist.
func queryID(c *call, name string) (int64, error) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return 0, errs.Invalid(name, "error.required")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.NotFound()
	}
	return id, nil
}

// queryInt reads an optional integer query value in [lo, hi].
func queryInt(q url.Values, name string, def, lo, hi int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, errs.Invalid(name, "query.intRange").With(map[string]any{"min": lo, "max": hi})
	}
	return n, nil
}

// queryOptID reads an optional id filter such as ?ruleId=: 0 when absent,
// EINVALID (query.unknownValue) naming it when not a positive number.
func queryOptID(q url.Values, name string) (int64, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.Invalid(name, "query.unknownValue")
	}
	return id, nil
}

// queryBool reads an optional true/false flag such as ?unread=: false when
// absent, EINVALID (query.unknownValue) naming it for anything else.
func queryBool(q url.Values, name string) (bool, error) {
	switch q.Get(name) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, errs.Invalid(name, "query.unknownValue")
}

// queryFloat reads an optional number in [lo, hi].
func queryFloat(c *call, name string, lo, hi float64) (*float64, error) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= lo && f <= hi) {
		return nil, errs.Invalid(name, "query.numberRange").With(map[string]any{"min": lo, "max": hi})
	}
	return &f, nil
}

// queryDaily reads ?dim= (raw or daily) with a default.
func queryDaily(c *call, def bool) (bool, error) {
	switch c.r.URL.Query().Get("dim") {
	case "":
		return def, nil
	case "raw":
		return false, nil
	case "daily":
		return true, nil
	}
	return false, errs.Invalid("dim", "query.unknownValue")
}

// maxPageNumber bounds ?page=: far past any real list, small enough that
// (page-1)*size cannot overflow.
const maxPageNumber = 1 << 20

// pageParams are a list call's ?page= (from 1) and ?size= (1 to
// devices.MaxPage, default 20), as every list of SPEC §8 takes them.
type pageParams struct {
	page, size int
}

func (p pageParams) offset() int { return (p.page - 1) * p.size }

// readPage reads ?page= and ?size=. Returns EINVALID (query.intRange) naming
// the one out of range.
func readPage(c *call) (pageParams, error) {
	q := c.r.URL.Query()
	page, err := queryInt(q, "page", 1, 1, maxPageNumber)
	if err != nil {
		return pageParams{}, err
	}
	size, err := queryInt(q, "size", 20, 1, devices.MaxPage)
	if err != nil {
		return pageParams{}, err
	}
	return pageParams{page: page, size: size}, nil
}

// pageDTO is the list envelope of every list call.
type pageDTO[T any] struct {
	List  []T `json:"list"`
	Total int `json:"total"`
}

// page cuts the requested page out of a whole list.
func page[T any](c *call, all []T) (pageDTO[T], error) {
	p, err := readPage(c)
	if err != nil {
		return pageDTO[T]{}, err
	}
	from := min(p.offset(), len(all))
	to := min(from+p.size, len(all))
	out := pageDTO[T]{List: all[from:to], Total: len(all)}
	if out.List == nil {
		out.List = []T{}
	}
	return out, nil
}

// validator is a request body that checks what the service cannot: its
// fields' presence and shape. Its errors name the field.
type validator interface {
	validate() error
}

// decode reads the call's JSON body into v and, when v is a validator,
// validates it. A body is required: an empty one is EINVALID
// (error.bodyRequired), malformed JSON EINVALID (error.badJSON), a value of
// the wrong type EINVALID (error.wrongType) naming its JSON path.
func decode(c *call, v any) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	if len(raw) == 0 {
		return errs.New(errs.EInvalid, "error.bodyRequired")
	}
	return unmarshal(raw, v)
}

// decodeOptional is decode for calls whose body may be left out: an empty
// body leaves v as it is (and validates it as it is).
func decodeOptional(c *call, v any) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	if len(raw) == 0 {
		return validate(v)
	}
	return unmarshal(raw, v)
}

// bodyWithID decodes the call's JSON body, which may be left out, into v
// and returns the device id the call names: ?id=, else the body's "id".
func bodyWithID(c *call, v any) (int64, error) {
	raw, err := readBody(c)
	if err != nil {
		return 0, err
	}
	if len(raw) > 0 {
		if err := unmarshal(raw, v); err != nil {
			return 0, err
		}
	}
	if c.r.URL.Query().Get("id") != "" {
		return queryID(c, "id")
	}
	var withID struct {
		ID json.Number `json:"id"`
	}
	_ = json.Unmarshal(raw, &withID)
	if withID.ID == "" {
		return 0, errs.Invalid("id", "error.required")
	}
	id, err := withID.ID.Int64()
	if err != nil || id <= 0 {
		return 0, errs.NotFound()
	}
	return id, nil
}

func readBody(c *call) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(c.r.Body, maxBody))
	if err != nil {
		return nil, errs.New(errs.EInvalid, "error.badJSON")
	}
	return bytes.TrimSpace(raw), nil
}

// unmarshal decodes raw into v and validates it. A value of the wrong JSON
// type is EINVALID error.wrongType naming its JSON path ("name",
// "expressions.value"); any other fault is error.badJSON.
func unmarshal(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
			return errs.Invalid(te.Field, "error.wrongType")
		}
		return errs.New(errs.EInvalid, "error.badJSON")
	}
	return validate(v)
}

func validate(v any) error {
	if val, ok := v.(validator); ok {
		return val.validate()
	}
	return nil
}
