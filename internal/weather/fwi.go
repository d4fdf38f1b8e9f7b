package weather

import (
	"context"
	"sort"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// fwiParams are the readings the FWI System needs.
var fwiParams = []string{"airTemp", "airHumidity", "windSpeed", "rainfall"}

// FWI inputs from station readings.
const (
	// noonWindow is how far from 12:00 local standard time the reading
	// standing for the noon observation may be.
	noonWindow = 90 * time.Minute
	// fwiSpinUp is how many days before the first day shown the codes start
	// at the standard start-up values, so the slow codes (DMC, DC) carry
	// the weather of the weeks before.
	fwiSpinUp = 30
)

// FWIDay is one day of the Fire Weather Index System.
type FWIDay struct {
	Day time.Time // local midnight
	// Missing: no reading near noon for temperature, humidity or wind; the
	// codes carry over unchanged, and every value is nil.
	Missing       bool
	Temp, RH      *float64
	Wind          *float64 // km/h at 10 m
	Rain          *float64 // mm in the 24 h to noon
	FFMC, DMC, DC *float64
	ISI, BUI, FWI *float64
	Level         *int // SPEC §4: 0 normal, 1–5
	LevelName     string
}

// nearest is the reading closest to t within noonWindow.
func nearest(rs []agro.Reading, t time.Time) (float64, bool) {
	i := sort.Search(len(rs), func(i int) bool { return !rs[i].Time.Before(t) })
	best, ok := 0.0, false
	bestGap := noonWindow + 1
	for _, j := range []int{i - 1, i} {
		if j < 0 || j >= len(rs) {
			continue
		}
		if gap := absDuration(rs[j].Time.Sub(t)); gap <= noonWindow && gap < bestGap {
			best, bestGap, ok = rs[j].Value, gap, true
		}
	}
	return best, ok
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// fwiDays runs the FWI System over the local days of [begin, end) whose
// noon has passed: noon (12:00 local standard time) temperature, RH and
// wind, and the rain of the 24 h to noon. The station's wind, measured at
// 2 m, is raised to the 10 m the system expects by FAO-56 eq. 47.
func (s *Service) fwiDays(ctx context.Context, d *devices.Device, begin, end time.Time) ([]FWIDay, error) {
	first := s.rd.Midnight(begin)
	start := first.AddDate(0, 0, -fwiSpinUp)
	if now := s.rd.Now(); end.After(now) {
		end = now
	}
	read := map[string][]agro.Reading{}
	for _, p := range []string{"airTemp", "airHumidity", "windSpeed"} {
		rs, err := s.rd.Readings(ctx, d.ID, p, start, end.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		read[p] = rs
	}
	amounts, err := s.rd.RainAmounts(ctx, d.ID, start.Add(-readings.Day), end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := rain.NewRecord(amounts)
	round, ptr := readings.Round, readings.Ptr
	to10m := 1 / agro.WindAt2m(1, 10)
	codes := agro.FWIStartup
	out := []FWIDay{}
	s.rd.EachDay(start, end, func(mid time.Time) {
		noon := mid.Add(12 * time.Hour)
		if noon.After(end) {
			return
		}
		v := FWIDay{Day: mid}
		temp, ok1 := nearest(read["airTemp"], noon)
		rh, ok2 := nearest(read["airHumidity"], noon)
		wind, ok3 := nearest(read["windSpeed"], noon)
		w := agro.FireWeather{Month: int(mid.Month()), Temp: temp, RH: rh, Wind: wind * to10m * 3.6, Rain: rec.Sum(noon, readings.Day)}
		fd, err := codes.Next(w)
		if !ok1 || !ok2 || !ok3 || err != nil {
			v.Missing = true
		} else {
			codes = fd.Codes()
			lvl := agro.FireLevelOf(fd.FWI)
			l := int(lvl)
			v.Temp, v.RH, v.Wind, v.Rain = ptr(temp), ptr(rh), ptr(round(w.Wind, 2)), ptr(round(w.Rain, 2))
			v.FFMC, v.DMC, v.DC = ptr(round(fd.FFMC, 2)), ptr(round(fd.DMC, 2)), ptr(round(fd.DC, 2))
			v.ISI, v.BUI, v.FWI = ptr(round(fd.ISI, 2)), ptr(round(fd.BUI, 2)), ptr(round(fd.FWI, 2))
			v.Level, v.LevelName = &l, lvl.String()
		}
		if !mid.Before(first) {
			out = append(out, v)
		}
	})
	return out, nil
}

// FWIHistory is a station's daily FWI over a range.
type FWIHistory struct {
	Begin, End time.Time
	Days       []FWIDay
}

// FWIHistory returns a station's daily FWI over r (default the last 30
// days, at most 366). Returns EINVALID.
func (s *Service) FWIHistory(ctx context.Context, d *devices.Device, r readings.Range) (*FWIHistory, error) {
	if _, err := readings.Measures(d, fwiParams...); err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	days, err := s.fwiDays(ctx, d, begin, end)
	if err != nil {
		return nil, err
	}
	return &FWIHistory{Begin: begin, End: end, Days: days}, nil
}

// FWIStatistics counts a station's days per fire level over a range.
type FWIStatistics struct {
	Begin, End time.Time
	// Days counts the days with an FWI; Missing those without.
	Days    int
	Missing int
	Levels  []LevelCount
	Latest  *FWIDay
	Max     *FWIDay
	Mean    *float64
}

// LevelCount is how many days had a fire level.
type LevelCount struct {
	Level agro.FireLevel
	Days  int
}

// FWIStatistics counts a station's days per fire level over r (default the
// last 30 days, at most 366). Returns EINVALID.
func (s *Service) FWIStatistics(ctx context.Context, d *devices.Device, r readings.Range) (*FWIStatistics, error) {
	h, err := s.FWIHistory(ctx, d, r)
	if err != nil {
		return nil, err
	}
	out := &FWIStatistics{Begin: h.Begin, End: h.End}
	for l := agro.FireNormal; l <= agro.FireExtreme; l++ {
		out.Levels = append(out.Levels, LevelCount{Level: l})
	}
	var sum float64
	for i := range h.Days {
		fd := &h.Days[i]
		if fd.Level == nil {
			out.Missing++
			continue
		}
		out.Days++
		out.Levels[*fd.Level].Days++
		sum += *fd.FWI
		out.Latest = fd
		if out.Max == nil || *fd.FWI > *out.Max.FWI {
			out.Max = fd
		}
	}
	if out.Days > 0 {
		out.Mean = readings.Ptr(readings.Round(sum/float64(out.Days), 2))
	}
	return out, nil
}
