package rain

import (
	"math"
	"sort"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
)

// Record is a device's rainfall readings with running sums.
type Record struct {
	amounts []agro.RainAmount
	prefix  []float64 // prefix[i] is the sum of the first i amounts
}

// NewRecord returns the record of amounts, oldest first.
func NewRecord(amounts []agro.RainAmount) *Record {
	r := &Record{amounts: amounts, prefix: make([]float64, len(amounts)+1)}
	for i, a := range amounts {
		r.prefix[i+1] = r.prefix[i] + a.MM
	}
	return r
}

// Sum is the rain of the readings at times in (to − window, to].
func (r *Record) Sum(to time.Time, window time.Duration) float64 {
	hi := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to) })
	lo := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to.Add(-window)) })
	if lo >= hi {
		return 0
	}
	return math.Max(0, r.prefix[hi]-r.prefix[lo])
}

// WarningAt is the rainstorm signal the rain of the 3, 6 and 12 hours to t
// calls for, with those three sums.
func (r *Record) WarningAt(t time.Time) (agro.WarningLevel, [3]float64) {
	s := [3]float64{r.Sum(t, 3*time.Hour), r.Sum(t, 6*time.Hour), r.Sum(t, 12*time.Hour)}
	return agro.RainstormWarning(s[0], s[1], s[2]), s
}

// LastRain is the time of the newest reading with rain, zero without one.
func (r *Record) LastRain() time.Time {
	for i := len(r.amounts) - 1; i >= 0; i-- {
		if r.amounts[i].MM > 0 {
			return r.amounts[i].Time
		}
	}
	return time.Time{}
}

// Class names the class of mm over hours (1, 12 or 24); "" for none.
func Class(mm float64, hours int) string {
	c, err := agro.RainClassOf(mm, hours)
	if err != nil {
		return ""
	}
	return c.String()
}

// Criterion is one signal's rule: rain of at least MM within Hours.
type Criterion struct {
	Level agro.WarningLevel
	Hours int
	MM    float64
}

// Criteria are the rainstorm signal rules of agro.RainstormWarning.
var Criteria = []Criterion{
	{agro.WarningBlue, 12, 50},
	{agro.WarningYellow, 6, 50},
	{agro.WarningOrange, 3, 50},
	{agro.WarningRed, 3, 100},
}
