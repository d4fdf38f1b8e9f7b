// Package i18n localizes server messages into the three product languages.
// Every key must exist in every language; a test enforces it.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Lang is one of the product languages, spelled as the lang header sends it.
type Lang string

const (
	ZhCN Lang = "zh_CN"
	ZhTW Lang = "zh_TW"
	EnUS Lang = "en_US"
)

// Default is the language used when a request names none or an unknown one.
const Default = ZhCN

// Langs lists every supported language.
var Langs = []Lang{ZhCN, ZhTW, EnUS}

//go:embed locales/*.json
var files embed.FS

var catalogue = mustLoad()

func mustLoad() map[Lang]map[string]string {
	c := make(map[Lang]map[string]string, len(Langs))
	for _, l := range Langs {
		b, err := files.ReadFile("locales/" + string(l) + ".json")
		if err != nil {
			panic(fmt.Sprintf("i18n: %v", err))
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			panic(fmt.Sprintf("i18n: parse %s: %v", l, err))
		}
		c[l] = m
	}
	return c
}

// Parse reads a lang header value. It accepts the product spellings
// (zh_CN, zh_TW, en_US) and the usual BCP 47 ones (zh-Hant, en-GB, …).
func Parse(s string) Lang {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "_", "-")))
	if i := strings.IndexAny(s, ",;.@"); i >= 0 { // lists, q-values, POSIX ".UTF-8" and "@modifier"
		s = strings.TrimSpace(s[:i])
	}
	switch {
	case s == "zh-tw" || s == "zh-hk" || s == "zh-mo" || strings.HasPrefix(s, "zh-hant"):
		return ZhTW
	case strings.HasPrefix(s, "zh"):
		return ZhCN
	case strings.HasPrefix(s, "en"):
		return EnUS
	}
	return Default
}

// T returns the message for key in lang with {name} placeholders filled from
// params. A param whose value is a Field shows that field's label, a Localized its text in lang. An unknown key
// is returned as is, so a missing translation is visible rather than silent.
func T(lang Lang, key string, params map[string]any) string {
	m, ok := catalogue[lang]
	if !ok {
		m = catalogue[Default]
	}
	msg, ok := m[key]
	if !ok {
		return key
	}
	for k, v := range params {
		var s string
		switch v := v.(type) {
		case Field:
			s = label(m, string(v))
		case Localized:
			s = v.In(lang)
		default:
			s = fmt.Sprint(v)
		}
		msg = strings.ReplaceAll(msg, "{"+k+"}", s)
	}
	return msg
}

// label is a field's localized label; a field without one (a JSON path
// such as nodes[0].depth) is shown as it is, never as a raw key.
func label(m map[string]string, field string) string {
	if l, ok := m["field."+field]; ok {
		return l
	}
	return field
}

// Message localizes an error: the message for code with params filled in. When
// the error concerns a field and params give no {field} of their own, {field}
// shows that field's localized label.
func Message(lang Lang, code, field string, params map[string]any) string {
	if _, ok := params["field"]; !ok && field != "" {
		p := make(map[string]any, len(params)+1)
		for k, v := range params {
			p[k] = v
		}
		p["field"] = Field(field)
		params = p
	}
	return T(lang, code, params)
}

// Localized is a placeholder value that carries its own text in each
// language (a device type's names); T shows it in the message's language.
type Localized interface{ In(Lang) string }

// Field is a placeholder value naming a request field; T shows its localized label.
type Field string

// Keys returns the sorted keys of one language (for tests and tooling).
func Keys(lang Lang) []string {
	keys := make([]string, 0, len(catalogue[lang]))
	for k := range catalogue[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
