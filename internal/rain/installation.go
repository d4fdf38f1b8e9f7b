package rain

import (
	"context"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// Installation is where and since when a gauge measures.
type Installation struct {
	Device *devices.Device
	// DaysInstalled counts the local days since installation, the day
	// itself included; nil without an install time.
	DaysInstalled *int
}

// Installation returns a rain gauge's installation. Returns EINVALID.
func (s *Service) Installation(_ context.Context, d *devices.Device) (*Installation, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	out := &Installation{Device: d}
	if d.InstallAt != nil {
		n := int(s.rd.Midnight(s.rd.Now()).Sub(s.rd.Midnight(*d.InstallAt)).Hours()/24) + 1
		out.DaysInstalled = &n
	}
	return out, nil
}
