package demo

import "context"

// FleetSNs returns the serial numbers of the devices the farm simulates.
func FleetSNs(ctx context.Context, f *Farm) ([]string, error) {
	fleet, err := f.fleet(ctx)
	if err != nil {
		return nil, err
	}
	sns := make([]string, 0, len(fleet))
	for _, m := range fleet {
		sns = append(sns, m.dev.SN)
	}
	return sns, nil
}

// Seeded is how many devices Seed registers.
func Seeded() int { return len(seeded()) }
