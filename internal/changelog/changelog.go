// Package changelog holds the console's versions and what each brought, in
// the three languages, kept in changelog.json in the repository and
// embedded in the binary.
package changelog

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

//go:embed changelog.json
var raw []byte

// Entry is one version.
type Entry struct {
	Version string              `json:"version"`
	Date    string              `json:"date"`
	Notes   map[string][]string `json:"notes"`
}

// Entries returns the versions, newest first, as the file lists them.
func Entries() ([]Entry, error) {
	var out []Entry
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("changelog: %w", err)
	}
	return out, nil
}

// Localized is one version with its notes in one language.
type Localized struct {
	Version string   `json:"version"`
	Date    string   `json:"date"`
	Notes   []string `json:"notes"`
}

// In returns the versions with their notes in lang.
func In(lang i18n.Lang) ([]Localized, error) {
	all, err := Entries()
	if err != nil {
		return nil, err
	}
	out := make([]Localized, 0, len(all))
	for _, e := range all {
		out = append(out, Localized{Version: e.Version, Date: e.Date, Notes: e.Notes[string(lang)]})
	}
	return out, nil
}
