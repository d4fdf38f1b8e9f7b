package simulator

import (
	"fmt"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// override is a command's hold on a valve: open or closed over [from, to).
type override struct {
	from, to time.Time
	open     bool
}

// forever ends an "open" that only a "close" ends.
var forever = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// Command carries out a command the device received at: the valve and light
// commands change the readings from then on. Interval and capture commands
// are the runner's (they change when the device reports, not what); Command
// accepts them without a change. An error is the device's reason for
// refusing, which it sends back in its acknowledgement.
func (s *Sim) Command(name string, params map[string]any, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.d.Type
	if _, ok := t.Command(name); !ok {
		return fmt.Errorf("unsupported command %q", name)
	}
	switch name {
	case devices.CmdOpen, devices.CmdClose, devices.CmdOpenFor:
		if s.valve == nil {
			return fmt.Errorf("no valve")
		}
		s.valve.command(name, minutesParam(params), at)
	case devices.CmdLight:
		on, _ := params["state"].(string)
		if on != "on" && on != "off" {
			return fmt.Errorf("light state %q", on)
		}
		v := on == "on"
		s.light = &v
	case devices.CmdReportInterval, devices.CmdCaptureInterval:
		if m := minutesParam(params); m <= 0 {
			return fmt.Errorf("no interval")
		}
	}
	return nil
}

// minutesParam reads the minutes of a command as JSON decoded it.
func minutesParam(params map[string]any) int {
	switch v := params["minutes"].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case int64:
		return int(v)
	}
	return 0
}

// lightOn is whether the device's lamp is on: an insect trap's lamp lures
// insects all night unless switched off; a seedling monitor's fill light is
// off unless switched on.
func (s *Sim) lightOn() bool {
	if s.light != nil {
		return *s.light
	}
	return s.d.Type.ID == 20
}

func (v *valve) command(name string, minutes int, at time.Time) {
	// Whatever holds the valve now ends here.
	for i := range v.holds {
		if !at.Before(v.holds[i].from) && at.Before(v.holds[i].to) {
			v.holds[i].to = at
		}
	}
	switch name {
	case devices.CmdOpen:
		v.holds = append(v.holds, override{at, forever, true})
	case devices.CmdOpenFor:
		v.holds = append(v.holds, override{at, at.Add(time.Duration(minutes) * time.Minute), true})
	case devices.CmdClose:
		// Closed for the rest of the programme's watering, if one is running.
		to := at
		if from, end, ok := v.window(cstDay(at)); ok && !at.Before(from) && at.Before(end) {
			to = end
		}
		if to.After(at) {
			v.holds = append(v.holds, override{at, to, false})
		}
	}
	// Holds that ended long ago change nothing any more.
	v.holds = slices.DeleteFunc(v.holds, func(o override) bool { return o.to.Before(at.Add(-maxCatchUpDays * 24 * time.Hour)) })
}

// held is the state a command holds the valve in at t, if one does.
func (v *valve) held(t time.Time) (open, ok bool) {
	for i := len(v.holds) - 1; i >= 0; i-- {
		if h := v.holds[i]; !t.Before(h.from) && t.Before(h.to) {
			return h.open, true
		}
	}
	return false, false
}
