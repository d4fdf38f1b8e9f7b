package analysis

import (
	"math"
	"sort"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
)

// Warning is a rainstorm warning signal level (SPEC §4: 01–04 blue, yellow,
// orange, red; level 0 none).
type Warning struct {
	Level int    `json:"level"`
	Code  string `json:"code"`  // "01"–"04", "" for none
	Color string `json:"color"` // none, blue, yellow, orange, red
}

func warningOf(w agro.WarningLevel) Warning {
	return Warning{Level: int(w), Code: w.Code(), Color: w.String()}
}

// rainRecord is a device's rainfall readings with running sums.
type rainRecord struct {
	amounts []agro.RainAmount
	prefix  []float64 // prefix[i] is the sum of the first i amounts
}

func newRainRecord(amounts []agro.RainAmount) *rainRecord {
	r := &rainRecord{amounts: amounts, prefix: make([]float64, len(amounts)+1)}
	for i, a := range amounts {
		r.prefix[i+1] = r.prefix[i] + a.MM
	}
	return r
}

// sum is the rain of the readings at times in (to − window, to].
func (r *rainRecord) sum(to time.Time, window time.Duration) float64 {
	hi := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to) })
	lo := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to.Add(-window)) })
	if lo >= hi {
		return 0
	}
	return math.Max(0, r.prefix[hi]-r.prefix[lo])
}

func (r *rainRecord) warningAt(t time.Time) (agro.WarningLevel, [3]float64) {
	s := [3]float64{r.sum(t, 3*time.Hour), r.sum(t, 6*time.Hour), r.sum(t, 12*time.Hour)}
	return agro.RainstormWarning(s[0], s[1], s[2]), s
}

// lastRain is the time of the newest reading with rain.
func (r *rainRecord) lastRain() time.Time {
	for i := len(r.amounts) - 1; i >= 0; i-- {
		if r.amounts[i].MM > 0 {
			return r.amounts[i].Time
		}
	}
	return time.Time{}
}

// rainClass names the class of mm over hours (1, 12 or 24).
func rainClass(mm float64, hours int) string {
	c, err := agro.RainClassOf(mm, hours)
	if err != nil {
		return ""
	}
	return c.String()
}

