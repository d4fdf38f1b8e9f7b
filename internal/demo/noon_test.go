package demo

import (
	"testing"
	"time"
)

// Cameras take the day's picture at noon on the farm's clock, not the
// server's: on a UTC server, noon in Shanghai is 04:00 UTC.
func TestFarmNoon(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   time.Time
		loc  *time.Location
		want bool
	}{
		{time.Date(2026, 11, 20, 4, 0, 0, 0, time.UTC), shanghai, true},
		{time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), shanghai, false}, // 20:00 on the farm
		{time.Date(2026, 11, 20, 4, 5, 0, 0, time.UTC), shanghai, false},
		{time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), nil, true},
	} {
		if got := farmNoon(c.at, c.loc); got != c.want {
			t.Errorf("farmNoon(%s, %v) = %v, want %v", c.at, c.loc, got, c.want)
		}
	}
}
