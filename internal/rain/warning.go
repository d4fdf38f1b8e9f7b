package rain

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// EarlyWarning is the rainstorm signal a gauge's readings call for now and
// the spells of the last days when one was.
type EarlyWarning struct {
	Time time.Time
	// Current is the signal the rain of the last 3, 6 and 12 hours calls for.
	Current                                  agro.WarningLevel
	Rain1h, Rain3h, Rain6h, Rain12h, Rain24h float64
	// Episodes are the spells of the range when a signal was called for,
	// each with its highest level, newest first.
	Episodes []Episode
	Highest  agro.WarningLevel
}

// Episode is a spell with a signal in force.
type Episode struct {
	Level                   agro.WarningLevel
	Start                   time.Time
	End                     time.Time // the last reading with the signal in force
	Peak3h, Peak6h, Peak12h float64
	Ongoing                 bool
}

// EarlyWarning returns the rainstorm signal a rain gauge's readings call for
// now, and the spells over the last days (default 7, at most 90) when one
// was. Returns EINVALID.
func (s *Service) EarlyWarning(ctx context.Context, d *devices.Device, days int) (*EarlyWarning, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	if days == 0 {
		days = 7
	}
	now := s.rd.Now()
	begin := now.Add(-time.Duration(days) * readings.Day)
	amounts, err := s.rd.RainAmounts(ctx, d.ID, begin.Add(-12*time.Hour), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := NewRecord(amounts)
	lvl, sums := rec.WarningAt(now)
	round := readings.Round
	out := &EarlyWarning{Time: now, Current: lvl, Rain1h: round(rec.Sum(now, time.Hour), 2),
		Rain3h: round(sums[0], 2), Rain6h: round(sums[1], 2), Rain12h: round(sums[2], 2), Rain24h: round(rec.Sum(now, readings.Day), 2),
		Episodes: []Episode{}}
	var cur *Episode
	highest := agro.WarningNone
	for _, a := range amounts {
		if a.Time.Before(begin) {
			continue
		}
		l, sm := rec.WarningAt(a.Time)
		if l == agro.WarningNone {
			cur = nil
			continue
		}
		if cur == nil {
			out.Episodes = append(out.Episodes, Episode{Start: a.Time})
			cur = &out.Episodes[len(out.Episodes)-1]
		}
		cur.Level = max(cur.Level, l)
		highest = max(highest, l)
		cur.End = a.Time
		cur.Peak3h, cur.Peak6h, cur.Peak12h = math.Max(cur.Peak3h, round(sm[0], 2)), math.Max(cur.Peak6h, round(sm[1], 2)), math.Max(cur.Peak12h, round(sm[2], 2))
	}
	if n := len(out.Episodes); n > 0 && lvl != agro.WarningNone {
		out.Episodes[n-1].Ongoing = true
	}
	for i, j := 0, len(out.Episodes)-1; i < j; i, j = i+1, j-1 {
		out.Episodes[i], out.Episodes[j] = out.Episodes[j], out.Episodes[i]
	}
	out.Highest = highest
	return out, nil
}

// Latest is a gauge's newest reading and the rain around it.
type Latest struct {
	Time     time.Time // the newest reading; zero without one
	Rainfall *float64  // its amount, mm
	Rain1h   float64
	Rain24h  float64
	Today    float64
	Class1h  string
	Class24h string
	LastRain time.Time // the newest reading with rain in the last 7 days; zero without one
	Warning  agro.WarningLevel
}

// Latest returns a rain gauge's newest reading and the totals around it.
// Returns EINVALID.
func (s *Service) Latest(ctx context.Context, d *devices.Device) (*Latest, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	now := s.rd.Now()
	amounts, err := s.rd.RainAmounts(ctx, d.ID, now.Add(-7*readings.Day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := NewRecord(amounts)
	n := Now(rec, now, s.rd.Midnight(now))
	out := &Latest{Rain1h: n.Rain1h, Rain24h: n.Rain24h, Today: n.Today, Class1h: n.Class1h, Class24h: n.Class24h,
		LastRain: rec.LastRain(), Warning: n.Warning}
	if k := len(amounts); k > 0 {
		out.Time, out.Rainfall = amounts[k-1].Time, readings.Ptr(amounts[k-1].MM)
	}
	return out, nil
}

// Around is the rain around a time.
type Around struct {
	Rain1h, Rain24h, Today float64
	Class1h, Class24h      string
	Warning                agro.WarningLevel
}

// Now is the rain of rec around now: the last hour, the last 24 hours,
// since midnight, their classes and the signal in force.
func Now(rec *Record, now, midnight time.Time) Around {
	lvl, _ := rec.WarningAt(now)
	a := Around{Rain1h: readings.Round(rec.Sum(now, time.Hour), 2), Rain24h: readings.Round(rec.Sum(now, readings.Day), 2),
		Today: readings.Round(rec.Sum(now, now.Sub(midnight)+time.Nanosecond), 2), Warning: lvl}
	a.Class1h, a.Class24h = Class(a.Rain1h, 1), Class(a.Rain24h, 24)
	return a
}
