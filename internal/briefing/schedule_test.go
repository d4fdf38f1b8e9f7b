package briefing_test

import (
	"context"
	"mime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestLastSlot(t *testing.T) {
	week := &briefing.Preset{Period: briefing.PeriodWeek, Schedule: briefing.Schedule{Weekday: 1, Hour: 8, Minute: 30}}
	dekad := &briefing.Preset{Period: briefing.PeriodDekad, Schedule: briefing.Schedule{Hour: 7}}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, cst)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		p         *briefing.Preset
		now, want string
	}{
		{week, "2026-11-23 08:30", "2026-11-23 08:30"}, // Monday, on the minute
		{week, "2026-11-23 08:29", "2026-11-16 08:30"}, // a minute early: last week's
		{week, "2026-11-26 12:00", "2026-11-23 08:30"}, // Thursday
		{dekad, "2026-11-21 07:00", "2026-11-21 07:00"},
		{dekad, "2026-11-20 23:59", "2026-11-11 07:00"},
		{dekad, "2026-12-01 06:59", "2026-11-21 07:00"},
		{dekad, "2027-03-05 10:00", "2027-03-01 07:00"},
	} {
		if got := briefing.LastSlot(c.p, at(c.now), cst); !got.Equal(at(c.want)) {
			t.Errorf("%s %s: %v, want %s", c.p.Period, c.now, got, c.want)
		}
	}
}

// A scheduled briefing comes out once per scheduled time, through the
// export queue, as a PDF mailed to every recipient; never for a time
// before the schedule was switched on.
func TestSchedule_MailsThePDF(t *testing.T) {
	db := storetest.OpenSQLite(t)
	c := countyFarm(t, db)
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	sender, err := mail.New(mail.Config{URL: smtp.URL(), From: "Fieldwatch <briefings@fieldwatch.test>"})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 20, 10, 0, 0, 0, cst) // Friday
	now := func() time.Time { return clock }
	svc := briefing.New(briefing.Options{Store: db, Devices: devices.New(devices.Options{Store: db}), Now: now, Location: cst,
		Reports: briefing.ReportOptions{Readings: readings.New(c.hist, nil), Settings: db}})
	ex := exports.New(exports.Options{Store: db, Mailer: sender, Briefings: svc, Location: cst, TempDir: t.TempDir(), Poll: 50 * time.Millisecond})
	svc.Exports = ex
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ex.Run(ctx)

	p := c.p
	p.ID, p.Lang = 0, i18n.ZhCN
	// Without the stranger's device, which a preset cannot hold.
	p.SoilDevices = slices.DeleteFunc(p.SoilDevices, func(d briefing.SoilDevice) bool { return d.DeviceID == c.s6.ID })
	p.Regions[0].DeviceIDs = slices.DeleteFunc(p.Regions[0].DeviceIDs, func(id int64) bool { return id == c.s6.ID })
	p.Recipients = []string{"bureau@example.com", "township@example.com"}
	p.Schedule = briefing.Schedule{Enabled: true, Weekday: 1, Hour: 8}
	svc.Now = func() time.Time { return clock }
	if err := svc.Create(ctx, p.OwnerID, p); err != nil {
		t.Fatal(err)
	}
	// Friday: the last Monday 08:00 was before the schedule existed.
	if err := svc.Schedule(ctx, db); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-smtp.C:
		t.Fatalf("mail for a time before the schedule: %v", m.To)
	case <-time.After(300 * time.Millisecond):
	}
	// Monday 23 November 08:00: the week 16–22 November comes out.
	clock = time.Date(2026, 11, 23, 8, 0, 30, 0, cst)
	for range 2 { // a second look at the same time queues nothing more
		if err := svc.Schedule(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	m := <-smtp.C
	parsed, err := mailtest.Parse(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	if len(parsed.Attachments) == 1 {
		name, _ = new(mime.WordDecoder).DecodeHeader(parsed.Attachments[0].Name)
	}
	if name != "周报_20261116-20261122.pdf" ||
		len(m.To) != 2 || !strings.Contains(parsed.Subject, "2026-11-16 至 2026-11-22") || len(parsed.Attachments) != 1 ||
		!strings.HasPrefix(string(parsed.Attachments[0].Data), "%PDF-") || parsed.Attachments[0].ContentType != "application/pdf" {
		a := parsed.Attachments[0]
		t.Fatalf("mail to %v: %q, attachment %q %q %q", m.To, parsed.Subject, a.Name, a.ContentType, a.Data[:min(8, len(a.Data))])
	}
	select {
	case m := <-smtp.C:
		t.Fatalf("a second mail for the same time: %v", m.To)
	case <-time.After(500 * time.Millisecond):
	}
}
