package readings

import "math"

// Round keeps digits decimals: sums and means carry floating-point noise
// that would only lengthen the answers.
func Round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

// Ptr is a pointer to v.
func Ptr(v float64) *float64 { return &v }

// RoundPtr is Round of an optional value.
func RoundPtr(v *float64, digits int) *float64 {
	if v == nil {
		return nil
	}
	return Ptr(Round(*v, digits))
}
