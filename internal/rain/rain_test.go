package rain

import (
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

func TestRainEvents(t *testing.T) {
	t0 := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	at := func(h float64) time.Time { return t0.Add(time.Duration(h * float64(time.Hour))) }
	amounts := []agro.RainAmount{
		ra(at(1), 0), ra(at(2), 4), ra(at(3), 6), ra(at(4), 0), // an event of 2 readings
		ra(at(8), 0), ra(at(8.99), 2), // 5.99 h after the last rain: the same event
		ra(at(15), 3), // 6.01 h later: a new one
	}
	evs := events(amounts, time.Hour, agro.CaineThreshold, at(17))
	if len(evs) != 2 {
		t.Fatalf("events %+v", evs)
	}
	first, second := evs[0], evs[1]
	if !first.Start.Equal(at(1)) || !first.End.Equal(at(8.99)) || first.MM != 12 || first.Ongoing {
		t.Errorf("first %+v", first)
	}
	if second.Hours != 1 || second.MM != 3 || second.Intensity != 3 || !second.Ongoing ||
		second.Ratio != readings.Round(agro.CaineThreshold.Ratio(3, 1), 3) || second.Exceeded {
		t.Errorf("second %+v", second)
	}
}

func TestHourBuckets(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	t0 := time.Date(2026, 7, 1, 10, 0, 0, 0, loc)
	amounts := []agro.RainAmount{
		ra(t0.Add(5*time.Minute), 1), ra(t0.Add(time.Hour), 2), // both measured in 10:00–11:00
		ra(t0.Add(65*time.Minute), 9),
	}
	b := hourBuckets(amounts, t0, t0.Add(3*time.Hour), loc)
	if len(b) != 3 || *b[0].MM != 3 || b[0].Class != "moderate" || *b[1].MM != 9 || b[1].Class != "heavy" || b[2].MM != nil ||
		b[0].Start.Format("2006-01-02 15:04") != "2026-07-01 10:00" {
		t.Fatalf("buckets %+v", b)
	}
}

func TestRainRecord_Sum(t *testing.T) {
	t0 := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	rec := NewRecord([]agro.RainAmount{ra(t0, 1), ra(t0.Add(time.Hour), 2), ra(t0.Add(2*time.Hour), 4)})
	for _, c := range []struct {
		to     time.Time
		window time.Duration
		want   float64
	}{
		{t0.Add(2 * time.Hour), time.Hour, 4},     // (1h, 2h]: the reading at 1 h is out
		{t0.Add(2 * time.Hour), 2 * time.Hour, 6}, // (0, 2h]
		{t0.Add(3 * time.Hour), 3 * time.Hour, 6},
		{t0.Add(-time.Hour), time.Hour, 0},
	} {
		if got := rec.Sum(c.to, c.window); got != c.want {
			t.Errorf("sum to %s over %s = %v, want %v", c.to.Sub(t0), c.window, got, c.want)
		}
	}
}

func ra(t time.Time, mm float64) agro.RainAmount { return agro.RainAmount{Time: t, MM: mm} }

func TestCheckThreshold(t *testing.T) {
	if th, err := CheckThreshold(nil, nil); err != nil || th != agro.CaineThreshold {
		t.Fatalf("default %v %v", th, err)
	}
	a, b := 10.0, 7.0
	if _, err := CheckThreshold(&a, &b); errs.As(err) == nil || errs.As(err).Field != "beta" {
		t.Fatalf("beta 7: %v", err)
	}
	a = 0
	if _, err := CheckThreshold(&a, nil); errs.As(err) == nil || errs.As(err).Field != "alpha" {
		t.Fatalf("alpha 0: %v", err)
	}
}
