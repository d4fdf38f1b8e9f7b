// Package telemetry is the time-series side of the product: the readings
// devices report, their daily rollups and latest values, and the batched
// writer every ingest path goes through.
package telemetry

import (
	"context"
	"time"
)

// Point is one reading. Node is the depth in cm for per-node parameters, 0
// for a reading of the device as a whole.
type Point struct {
	Param string
	Node  int
	Value float64
}

// Report is one device's readings at one time. (DeviceID, Time) identifies
// it: a second report with the same key is a redelivery and is not stored.
type Report struct {
	DeviceID int64
	Time     time.Time
	Points   []Point
	// OfflineAt is when the device counts as offline unless it reports
	// again; the writer records it with the device's last report.
	OfflineAt time.Time
}

// Reading is a stored value.
type Reading struct {
	Param string    `json:"param"`
	Node  int       `json:"node"`
	Time  time.Time `json:"-"`
	Value float64   `json:"value"`
}

// Series is one parameter's raw readings at one node, as columns: times
// (unix ms, ascending) and values.
type Series struct {
	Param string
	Node  int
	TS    []int64
	V     []float64
}

// Day is one parameter's rollup for one local day.
type Day struct {
	Param string
	Node  int
	Day   time.Time // local midnight
	Min   float64
	Max   float64
	Sum   float64
	Count int
	Last  float64
}

// Avg is the day's mean.
func (d Day) Avg() float64 { return d.Sum / float64(d.Count) }

// Stat returns the day's statistic of that name (a devices.Agg): "min",
// "max", "sum", "last", or the mean for anything else.
func (d Day) Stat(name string) float64 {
	switch name {
	case "min":
		return d.Min
	case "max":
		return d.Max
	case "sum":
		return d.Sum
	case "last":
		return d.Last
	}
	return d.Avg()
}

// Query selects readings of one device. Empty Params or Nodes mean all.
type Query struct {
	DeviceID   int64
	Params     []string
	Nodes      []int
	Begin, End time.Time // [Begin, End)
}

// Store is what the telemetry side needs from the database.
type Store interface {
	// WriteReports stores reports in one transaction and returns how many
	// readings were new (redeliveries are skipped). Daily rollups use loc's midnight.
	WriteReports(ctx context.Context, reports []*Report, loc *time.Location) (int, error)
	// Readings returns raw readings ordered by param, node, time.
	Readings(ctx context.Context, q Query) ([]Reading, error)
	// Days returns daily rollups ordered by param, node, day.
	Days(ctx context.Context, q Query) ([]Day, error)
	// Latest returns each parameter's newest reading of a device.
	Latest(ctx context.Context, deviceID int64) ([]Reading, error)
	// PurgeReadings deletes raw readings older than before; rollups stay.
	PurgeReadings(ctx context.Context, before time.Time) (int64, error)
}

// Image is a stored camera image.
type Image struct {
	ID          int64     `json:"id"`
	Time        time.Time `json:"-"`
	ContentType string    `json:"contentType"`
	Size        int       `json:"size"`
}
