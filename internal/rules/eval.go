package rules

import "math"

// Outcome is what a rule's expressions say about one report.
type Outcome int

const (
	// Unknown: some expression had no reading to judge (a status-only
	// report, a parameter the device did not send). The rule's state stays
	// as it was.
	Unknown Outcome = iota
	Clear           // at least one expression is false
	Firing          // every expression holds
)

// Holds reports whether the expression holds for values: the readings of
// its nodes in one report, or of its window. ok is false when there are
// none.
func (e *Expression) Holds(values []float64) (holds, ok bool) {
	if len(values) == 0 {
		return false, false
	}
	switch e.Agg {
	case AggAny:
		for _, v := range values {
			if e.compare(v) {
				return true, true
			}
		}
		return false, true
	case AggAll:
		for _, v := range values {
			if !e.compare(v) {
				return false, true
			}
		}
		return true, true
	}
	return e.compare(Aggregate(e.Agg, values)), true
}

// Aggregate combines values with max, min, avg or sum.
func Aggregate(agg Agg, values []float64) float64 {
	switch agg {
	case AggMax:
		m := math.Inf(-1)
		for _, v := range values {
			m = math.Max(m, v)
		}
		return m
	case AggMin:
		m := math.Inf(1)
		for _, v := range values {
			m = math.Min(m, v)
		}
		return m
	case AggSum, AggAvg:
		s := 0.0
		for _, v := range values {
			s += v
		}
		if agg == AggAvg {
			return s / float64(len(values))
		}
		return s
	}
	return math.NaN()
}

func (e *Expression) compare(v float64) bool {
	t := *e.Threshold
	switch e.Op {
	case OpGT:
		return v > t
	case OpLT:
		return v < t
	case OpGTE:
		return v >= t
	case OpLTE:
		return v <= t
	case OpIn:
		return v >= t && v <= *e.Threshold2
	case OpNotIn:
		return v < t || v > *e.Threshold2
	}
	return false
}

// Combine ANDs the expressions' results: Firing only when all hold, Clear
// as soon as one known expression fails, Unknown otherwise.
func Combine(results []Result) Outcome {
	unknown := false
	for _, r := range results {
		if !r.Known {
			unknown = true
			continue
		}
		if !r.Holds {
			return Clear
		}
	}
	if unknown || len(results) == 0 {
		return Unknown
	}
	return Firing
}

// Result is one expression's verdict, with the value it judged (the
// aggregate, or for any/all the most extreme reading) for the message.
type Result struct {
	Holds, Known bool
	Value        float64
}

// Judge evaluates e over values.
func (e *Expression) Judge(values []float64) Result {
	h, ok := e.Holds(values)
	r := Result{Holds: h, Known: ok}
	if !ok {
		return r
	}
	switch e.Agg {
	case AggAny, AggAll:
		// The reading that decided it: the largest for "greater" tests,
		// the smallest for "less", the first for ranges.
		switch e.Op {
		case OpGT, OpGTE:
			r.Value = Aggregate(AggMax, values)
		case OpLT, OpLTE:
			r.Value = Aggregate(AggMin, values)
		default:
			r.Value = values[0]
		}
	default:
		r.Value = Aggregate(e.Agg, values)
	}
	return r
}
