// Package agro is the science behind Fieldwatch's agronomy and hazard
// analyses: reference evapotranspiration and crop coefficients, soil water,
// the Canadian Forest Fire Weather Index, wind, rain and air-quality grades,
// rainstorm warnings and rainfall thresholds for landslides, Chinese map
// coordinates, soil-moisture events and landslide tilt.
//
// Everything here is a pure function of its arguments: no I/O, no clock, no
// global state. Every formula names its source in its doc comment; the tests
// reproduce the sources' own worked examples. The sources are:
//
//   - FAO-56: Allen, R.G., Pereira, L.S., Raes, D., Smith, M. (1998). Crop
//     evapotranspiration — Guidelines for computing crop water requirements.
//     FAO Irrigation and Drainage Paper 56, Rome. Equations are cited by
//     their number there ("FAO-56 eq. 21").
//   - ASCE-EWRI (2005). The ASCE Standardized Reference Evapotranspiration
//     Equation. Used only where FAO-56 is silent (hour angles at sunrise and
//     sunset).
//   - Van Wagner, C.E., Pickett, T.L. (1985). Equations and FORTRAN program
//     for the Canadian Forest Fire Weather Index System. Forestry Technical
//     Report 33; and Van Wagner, C.E. (1987). Development and structure of
//     the Canadian Forest Fire Weather Index System. Forestry Technical
//     Report 35. Canadian Forestry Service, Ottawa.
//   - EFFIS, the European Forest Fire Information System: the FWI danger
//     classes used for the fire levels.
//   - GB/T 28592-2012 降水量等级 (Grade of precipitation), GB/T 32136-2015
//     农业干旱等级 (Grade of agricultural drought), GB/T 28591-2012 风力等级
//     (Wind force scale), HJ 633-2012 环境空气质量指数 (AQI) 技术规定 (the PM
//     breakpoints), and the rainstorm signal criteria of the China
//     Meteorological Administration's 气象灾害预警信号发布与传播办法 (Order
//     No. 16, 2007).
//   - Caine, N. (1980). The rainfall intensity–duration control of shallow
//     landslides and debris flows. Geografiska Annaler A 62(1/2), 23–27.
//   - SPEC.md §4, §5 and §9 of this product for the fire levels, the
//     outside-China rule and the wind and air-quality thresholds.
//
// Inputs that cannot be computed with return an *InputError naming the
// offending input, so a caller can point at the field or flag.
package agro

import "fmt"

// InputError says which input is unusable and why. Field is the input's
// short name, the same as the calc command's flag (e.g. "tmax", "rhmin").
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

func invalid(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
