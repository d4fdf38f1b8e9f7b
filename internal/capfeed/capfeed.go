// Package capfeed reads an upstream weather warning feed in OASIS CAP 1.2
// (Common Alerting Protocol), the format China's national early-warning
// release system and most national weather services publish: either one
// CAP <alert> document or an Atom feed whose entries carry a CAP alert
// inline or link to one. It keeps the alerts in force and finds those whose
// area (polygon or circle) contains a place, each mapped to one of the 16
// warning types of SPEC §9 and a blue/yellow/orange/red level.
package capfeed

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Config configures a Client.
type Config struct {
	// URL is the feed: a CAP 1.2 document or an Atom feed of CAP alerts.
	// Empty: no feed.
	URL string
	// TTL is how long a fetched feed is reused (default 5 min).
	TTL time.Duration
	// HTTP is the client (default: 15 s timeout).
	HTTP *http.Client
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// ErrUnavailable is returned when no feed is configured.
var ErrUnavailable = errors.New("capfeed: no warning feed configured")

// maxBody bounds a fetched document; maxLinks the CAP documents an Atom
// feed may make the client fetch.
const (
	maxBody  = 4 << 20
	maxLinks = 100
)

// Level is a signal level: 1 blue, 2 yellow, 3 orange, 4 red.
type Level int

// Alert is one warning in force, mapped to the console's types.
type Alert struct {
	Identifier, Sender string
	Sent               time.Time
	Effective, Expires time.Time // zero when not given
	Event, Headline    string
	Severity           string // CAP severity
	AreaDesc           string // the matching area's description
	Type               string // one of Types
	Level              Level
}

// Types are the 16 warning types of SPEC §9, in the console's names.
var Types = []string{"typhoon", "rainstorm", "blizzard", "coldWave", "gale", "sandstorm", "highTemperature", "drought",
	"thunder", "hail", "frost", "fog", "haze", "roadIcing", "forestFire", "thunderstormGale"}

// eventWords map words of a CAP <event> (or headline) to a type, most
// specific first: "thunderstorm gale" before "thunder" and "gale".
var eventWords = []struct {
	typ   string
	words []string
}{
	{"thunderstormGale", []string{"雷雨大风", "thunderstorm gale", "thunderstorm wind", "severe thunderstorm"}},
	{"typhoon", []string{"台风", "颱風", "typhoon", "tropical cyclone", "hurricane", "tropical storm"}},
	{"rainstorm", []string{"暴雨", "rainstorm", "heavy rain"}},
	{"blizzard", []string{"暴雪", "blizzard", "snowstorm", "heavy snow", "winter storm"}},
	{"coldWave", []string{"寒潮", "cold wave", "cold snap", "extreme cold"}},
	{"sandstorm", []string{"沙尘暴", "沙塵暴", "sandstorm", "dust storm"}},
	{"highTemperature", []string{"高温", "高溫", "high temperature", "heat"}},
	{"drought", []string{"干旱", "乾旱", "drought"}},
	{"hail", []string{"冰雹", "hail"}},
	{"thunder", []string{"雷电", "雷電", "thunder", "lightning"}},
	{"frost", []string{"霜冻", "霜凍", "frost", "freeze"}},
	{"roadIcing", []string{"道路结冰", "道路結冰", "road icing", "icy road", "black ice"}},
	{"forestFire", []string{"森林火险", "森林火險", "forest fire", "fire weather", "wildfire", "red flag"}},
	{"haze", []string{"霾", "haze", "smog"}},
	{"fog", []string{"大雾", "大霧", "fog"}},
	{"gale", []string{"大风", "大風", "gale", "high wind", "strong wind", "wind"}},
}

// TypeOf maps a CAP event (and headline) to a type; "" when none fits.
func TypeOf(event, headline string) string {
	for _, text := range []string{event, headline} {
		t := strings.ToLower(text)
		for _, e := range eventWords {
			for _, w := range e.words {
				if strings.Contains(t, w) {
					return e.typ
				}
			}
		}
	}
	return ""
}

// LevelOf is the signal level: the colour the event or headline names
// (China's alerts say "暴雨黄色预警信号"), else the CAP severity: Extreme
// red, Severe orange, Moderate yellow, Minor blue. 0 when neither tells.
func LevelOf(event, headline, severity string) Level {
	for _, text := range []string{event, headline} {
		t := strings.ToLower(text)
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
			words[w] = true
		}
		for _, c := range []struct {
			l     Level
			words []string
		}{{4, []string{"红色", "紅色", "red"}}, {3, []string{"橙色", "orange"}}, {2, []string{"黄色", "黃色", "yellow"}}, {1, []string{"蓝色", "藍色", "blue"}}} {
			for _, w := range c.words {
				// English colours are whole words ("red", not "covered").
				if words[w] || (w[0] >= 0x80 && strings.Contains(t, w)) {
					return c.l
				}
			}
		}
	}
	switch severity {
	case "Extreme":
		return 4
	case "Severe":
		return 3
	case "Moderate":
		return 2
	case "Minor":
		return 1
	}
	return 0
}

// capAlert is the CAP 1.2 <alert> element (urn:oasis:names:tc:emergency:cap:1.2).
type capAlert struct {
	XMLName    xml.Name  `xml:"alert"`
	Identifier string    `xml:"identifier"`
	Sender     string    `xml:"sender"`
	Sent       string    `xml:"sent"`
	Status     string    `xml:"status"`
	MsgType    string    `xml:"msgType"`
	References string    `xml:"references"`
	Info       []capInfo `xml:"info"`
}

type capInfo struct {
	Language  string    `xml:"language"`
	Event     string    `xml:"event"`
	Severity  string    `xml:"severity"`
	Effective string    `xml:"effective"`
	Onset     string    `xml:"onset"`
	Expires   string    `xml:"expires"`
	Headline  string    `xml:"headline"`
	Area      []capArea `xml:"area"`
}

type capArea struct {
	AreaDesc string   `xml:"areaDesc"`
	Polygon  []string `xml:"polygon"`
	Circle   []string `xml:"circle"`
}

type atomFeed struct {
	XMLName xml.Name    `xml:"feed"`
	Entries []atomEntry `xml:"entry"`
}

type atomEntry struct {
	Links   []atomLink `xml:"link"`
	Content struct {
		Type  string     `xml:"type,attr"`
		Src   string     `xml:"src,attr"`
		Alert []capAlert `xml:"alert"`
	} `xml:"content"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr"`
	Href string `xml:"href,attr"`
}

// Client fetches and caches the feed. Safe for concurrent use.
type Client struct {
	cfg Config

	mu      sync.Mutex
	fetched time.Time
	alerts  []capAlert
	err     error
}

// New returns a client of the feed.
func New(c Config) *Client {
	if c.TTL <= 0 {
		c.TTL = 5 * time.Minute
	}
	if c.HTTP == nil {
		c.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Client{cfg: c}
}

// Enabled reports whether a feed is configured.
func (c *Client) Enabled() bool { return c != nil && c.cfg.URL != "" }

// At returns the alerts in force whose area contains (lat, lng), highest
// level first. Alerts not Actual, cancelled or updated by a later one in
// the feed, expired, or of no known type are left out.
func (c *Client) At(ctx context.Context, lat, lng float64) ([]Alert, error) {
	if !c.Enabled() {
		return nil, ErrUnavailable
	}
	all, err := c.load(ctx)
	if err != nil {
		return nil, err
	}
	now := c.cfg.Now()
	replaced := map[string]bool{}
	for _, a := range all {
		for _, ref := range strings.Fields(a.References) {
			// sender,identifier,sent
			if p := strings.Split(ref, ","); len(p) >= 2 {
				replaced[p[0]+"\x00"+p[1]] = true
			}
		}
	}
	out := []Alert{}
	seen := map[string]bool{}
	for _, a := range all {
		if !strings.EqualFold(a.Status, "Actual") || strings.EqualFold(a.MsgType, "Cancel") ||
			replaced[a.Sender+"\x00"+a.Identifier] || seen[a.Sender+"\x00"+a.Identifier] {
			continue
		}
		seen[a.Sender+"\x00"+a.Identifier] = true
		sent, _ := parseTime(a.Sent)
		for _, in := range a.Info {
			exp, _ := parseTime(in.Expires)
			if !exp.IsZero() && !now.Before(exp) {
				continue
			}
			typ, lvl := TypeOf(in.Event, in.Headline), LevelOf(in.Event, in.Headline, in.Severity)
			if typ == "" || lvl == 0 {
				continue
			}
			area, ok := matchArea(in.Area, lat, lng)
			if !ok {
				continue
			}
			eff, _ := parseTime(in.Effective)
			if eff.IsZero() {
				eff, _ = parseTime(in.Onset)
			}
			out = append(out, Alert{Identifier: a.Identifier, Sender: a.Sender, Sent: sent, Effective: eff, Expires: exp,
				Event: in.Event, Headline: in.Headline, Severity: in.Severity, AreaDesc: area, Type: typ, Level: lvl})
			break // one info block per alert: the others are its translations
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Level > out[j].Level })
	return out, nil
}

// load returns the feed's alerts, fetching it when the cached copy is older
// than the TTL. A failure is remembered for a minute.
func (c *Client) load(ctx context.Context) ([]capAlert, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.cfg.Now()
	ttl := c.cfg.TTL
	if c.err != nil {
		ttl = time.Minute
	}
	if !c.fetched.IsZero() && now.Sub(c.fetched) < ttl {
		return c.alerts, c.err
	}
	c.alerts, c.err = c.fetch(ctx)
	c.fetched = now
	return c.alerts, c.err
}

func (c *Client) fetch(ctx context.Context) ([]capAlert, error) {
	body, err := c.get(ctx, c.cfg.URL)
	if err != nil {
		return nil, err
	}
	return c.parse(ctx, body)
}

// parse reads a CAP alert or an Atom feed of them.
func (c *Client) parse(ctx context.Context, body []byte) ([]capAlert, error) {
	root, err := rootName(body)
	if err != nil {
		return nil, err
	}
	switch root {
	case "alert":
		var a capAlert
		if err := xml.Unmarshal(body, &a); err != nil {
			return nil, fmt.Errorf("capfeed: %w", err)
		}
		return []capAlert{a}, nil
	case "feed":
		var f atomFeed
		if err := xml.Unmarshal(body, &f); err != nil {
			return nil, fmt.Errorf("capfeed: %w", err)
		}
		base, _ := url.Parse(c.cfg.URL)
		out := []capAlert{}
		links := 0
		for _, e := range f.Entries {
			if len(e.Content.Alert) > 0 {
				out = append(out, e.Content.Alert...)
				continue
			}
			href := e.Content.Src
			if href == "" {
				href = capLink(e.Links)
			}
			if href == "" || links >= maxLinks {
				continue
			}
			links++
			u, err := base.Parse(href)
			if err != nil {
				continue
			}
			doc, err := c.get(ctx, u.String())
			if err != nil {
				return nil, err
			}
			var a capAlert
			if err := xml.Unmarshal(doc, &a); err != nil {
				return nil, fmt.Errorf("capfeed: %s: %w", u, err)
			}
			out = append(out, a)
		}
		return out, nil
	}
	return nil, fmt.Errorf("capfeed: %q is neither a CAP alert nor an Atom feed", root)
}

// capLink picks an entry's link to its CAP document: one typed
// application/cap+xml (or XML), else the alternate link.
func capLink(ls []atomLink) string {
	for _, l := range ls {
		if strings.Contains(l.Type, "cap") || strings.Contains(l.Type, "xml") {
			return l.Href
		}
	}
	for _, l := range ls {
		if l.Rel == "" || l.Rel == "alternate" {
			return l.Href
		}
	}
	return ""
}

func rootName(body []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := d.Token()
		if err != nil {
			return "", fmt.Errorf("capfeed: no XML element: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local, nil
		}
	}
}

func (c *Client) get(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("capfeed: %w", err)
	}
	req.Header.Set("Accept", "application/cap+xml, application/atom+xml, application/xml, text/xml")
	resp, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("capfeed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("capfeed: %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("capfeed: %w", err)
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("capfeed: %s: larger than %d bytes", u, maxBody)
	}
	return body, nil
}

// parseTime reads a CAP dateTime (RFC 3339 with an explicit offset).
func parseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339, s)
}

// matchArea reports whether one of the areas contains the point, and its
// description. An area with neither polygon nor circle (geocodes only)
// cannot be placed and does not match.
func matchArea(areas []capArea, lat, lng float64) (string, bool) {
	for _, a := range areas {
		for _, p := range a.Polygon {
			if pts, ok := parsePoints(p); ok && len(pts) >= 4 && inPolygon(pts, lat, lng) {
				return a.AreaDesc, true
			}
		}
		for _, ci := range a.Circle {
			f := strings.Fields(ci)
			if len(f) != 2 {
				continue
			}
			pts, ok := parsePoints(f[0])
			r, err := strconv.ParseFloat(f[1], 64)
			if ok && err == nil && len(pts) == 1 && distanceKM(pts[0][0], pts[0][1], lat, lng) <= r {
				return a.AreaDesc, true
			}
		}
	}
	return "", false
}

// parsePoints reads CAP's "lat,lon lat,lon …" (WGS 84).
func parsePoints(s string) ([][2]float64, bool) {
	var out [][2]float64
	for _, pair := range strings.Fields(s) {
		ll := strings.Split(pair, ",")
		if len(ll) != 2 {
			return nil, false
		}
		la, err1 := strconv.ParseFloat(ll[0], 64)
		lo, err2 := strconv.ParseFloat(ll[1], 64)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		out = append(out, [2]float64{la, lo})
	}
	return out, len(out) > 0
}

// inPolygon is the even-odd ray test in the lat/lon plane.
func inPolygon(pts [][2]float64, lat, lng float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		yi, xi, yj, xj := pts[i][0], pts[i][1], pts[j][0], pts[j][1]
		if (yi > lat) != (yj > lat) && lng < (xj-xi)*(lat-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// distanceKM is the great-circle distance (haversine, mean radius 6371 km).
func distanceKM(lat1, lng1, lat2, lng2 float64) float64 {
	rad := math.Pi / 180
	dlat, dlng := (lat2-lat1)*rad, (lng2-lng1)*rad
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * 6371 * math.Asin(math.Min(1, math.Sqrt(h)))
}
