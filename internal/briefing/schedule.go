package briefing

import (
	"context"
	"log/slog"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/exports"
)

// ScheduleStore is what the scheduler needs of the store.
type ScheduleStore interface {
	// ScheduledBriefings returns every preset whose schedule is on.
	ScheduledBriefings(ctx context.Context) ([]*Preset, error)
	// ClaimBriefingRun records that slot's report is queued unless it
	// already was; true when this call claimed it.
	ClaimBriefingRun(ctx context.Context, id int64, slot time.Time) (bool, error)
}

// LastSlot is the latest scheduled time at or before now in loc: weekly on
// the schedule's weekday, or for a dekad report on the 1st, 11th and 21st,
// at its hour and minute.
func LastSlot(p *Preset, now time.Time, loc *time.Location) time.Time {
	s := p.Schedule
	local := now.In(loc)
	at := func(d time.Time) time.Time {
		return time.Date(d.Year(), d.Month(), d.Day(), s.Hour, s.Minute, 0, 0, loc)
	}
	for back := 0; back <= 31; back++ {
		d := at(local.AddDate(0, 0, -back))
		if d.After(now) {
			continue
		}
		if p.Period == PeriodDekad {
			if day := d.Day(); day == 1 || day == 11 || day == 21 {
				return d
			}
			continue
		}
		if int(d.Weekday()) == s.Weekday {
			return d
		}
	}
	return time.Time{}
}

// Schedule queues the scheduled reports that are due: for each preset
// whose schedule is on, the latest scheduled time not yet queued (never
// one before the schedule was switched on), as a PDF of the period ending
// that day, mailed to its recipients. Every node may run it; the store
// hands each time to one.
func (s *Service) Schedule(ctx context.Context, st ScheduleStore) error {
	list, err := st.ScheduledBriefings(ctx)
	if err != nil {
		return err
	}
	now, loc := s.now(), s.location()
	for _, p := range list {
		slot := LastSlot(p, now, loc)
		if slot.IsZero() || (p.LastRunAt != nil && !slot.After(*p.LastRunAt)) || len(p.Recipients) == 0 {
			continue
		}
		ok, err := st.ClaimBriefingRun(ctx, p.ID, slot)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		end := time.Date(slot.Year(), slot.Month(), slot.Day(), 0, 0, 0, 0, loc)
		if _, err := s.Exports.CreateBriefing(ctx, p.OwnerID, exports.BriefingRequest{BriefingID: p.ID, Format: string(PDF),
			End: end, Recipients: p.Recipients, Lang: p.Lang}); err != nil {
			return err
		}
	}
	return nil
}

// RunSchedule calls Schedule every poll until ctx ends.
func (s *Service) RunSchedule(ctx context.Context, st ScheduleStore, poll time.Duration, log *slog.Logger) {
	if poll <= 0 {
		poll = 30 * time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if err := s.Schedule(ctx, st); err != nil && ctx.Err() == nil && log != nil {
			log.Error("briefing schedule", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
