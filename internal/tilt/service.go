// Package tilt analyses a landslide monitor's tilt readings: their trend
// with the slips that break it, and the direction and size of the tilt
// (SPEC §7 "mountain" pages). The science is internal/agro.
package tilt

import (
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Service computes the tilt analyses of a device the caller was authorized
// for.
// Its methods answer ENOTFOUND for a device of no known type, as for one
// that does not exist, besides the errors each lists.
type Service struct {
	rd *readings.Reader
}

// New returns the tilt analyses over rd.
func New(rd *readings.Reader) *Service { return &Service{rd: rd} }

// params are the landslide monitor's tilt readings.
var params = []string{"tiltX", "tiltY", "tiltAngle"}
