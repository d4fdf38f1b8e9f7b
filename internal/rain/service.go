// Package rain analyses a rain gauge's readings: the rainstorm signal they
// call for (SPEC §4), the rain around now and over the usual periods, rain
// per hour, day or month, and storms against an intensity–duration
// threshold. Its Record of running sums also serves the weather and soil
// analyses. The science is internal/agro.
package rain

import (
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Service computes the rain-gauge analyses of a device the caller was
// authorized for.
// Its methods answer ENOTFOUND for a device of no known type, as for one
// that does not exist, besides the errors each lists.
type Service struct {
	rd *readings.Reader
}

// New returns the rain-gauge analyses over rd.
func New(rd *readings.Reader) *Service { return &Service{rd: rd} }

// gauge checks the device measures rain. Returns EINVALID (analysis.unsupported).
func gauge(d *devices.Device) error {
	_, err := readings.Measures(d, "rainfall")
	return err
}
