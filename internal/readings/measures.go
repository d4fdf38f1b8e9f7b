package readings

import (
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Measures checks that a device's type measures every param in need and
// returns the type. Returns ENOTFOUND for a device of no known type, and
// EINVALID (analysis.unsupported) naming the id and the params it lacks.
func Measures(d *devices.Device, need ...string) (*devices.Type, error) {
	t := d.Type()
	if t == nil {
		return nil, errs.NotFound()
	}
	if missing := Missing(t, need...); len(missing) > 0 {
		return nil, Unsupported(missing)
	}
	return t, nil
}

// Missing lists the params of need a type does not measure.
func Missing(t *devices.Type, need ...string) []string {
	var missing []string
	for _, p := range need {
		if _, ok := t.Param(p); !ok {
			missing = append(missing, p)
		}
	}
	return missing
}

// Has reports whether a type measures param.
func Has(t *devices.Type, param string) bool {
	_, ok := t.Param(param)
	return ok
}

// Unsupported is the error for a device that does not measure params.
func Unsupported(params []string) error {
	return errs.Invalid("id", "analysis.unsupported").With(map[string]any{"params": strings.Join(params, ", ")})
}
