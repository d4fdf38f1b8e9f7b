package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

func TestKeep(t *testing.T) {
	s, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var xlsx bytes.Buffer
	tb, err := sheet.NewTable(sheet.XLSX, &xlsx, i18n.EnUS, []string{"Time", "Rainfall (mm)"})
	if err != nil {
		t.Fatal(err)
	}
	tb.Row("2026-05-01 08:00:00", []float64{2.5})
	tb.Row("2026-05-01 08:10:00", []float64{0})
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	sender, _ := mail.New(mail.Config{URL: s.URL()})
	err = sender.Send(context.Background(), &mail.Message{To: "farmer@example.com", Subject: "数据导出", Text: "hello",
		Attachments: []mail.Attachment{
			{Name: "data.xlsx", ContentType: sheet.XLSX.ContentType(), Content: bytes.NewReader(xlsx.Bytes())},
			{Name: "data.csv", ContentType: "text/csv", Content: bytes.NewReader([]byte("\ufeffTime,Rainfall (mm)\r\n2026-05-01 08:00:00,2.5\r\n"))},
		}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := keep(dir, 7, <-s.C); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "0007.eml")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "0007.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got summary
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.To != "farmer@example.com" || got.From != `"Fieldwatch" <noreply@localhost>` {
		t.Errorf("to %q, from %q", got.To, got.From)
	}
	if got.Subject != "数据导出" || got.Text != "hello" || len(got.Attachments) != 2 {
		t.Fatalf("summary: %s", b)
	}
	x := got.Attachments[0].Sheets["Data"]
	if got.Attachments[0].Name != "data.xlsx" || x.Rows != 2 || !slices.Equal(x.Header, []string{"Time", "Rainfall (mm)"}) ||
		!slices.Equal(x.First, []string{"2026-05-01 08:00:00", "2.5"}) {
		t.Errorf("xlsx: %s", b)
	}
	c := got.Attachments[1].Sheets["csv"]
	if c.Rows != 1 || c.Header[0] != "Time" || c.First[1] != "2.5" {
		t.Errorf("csv: %s", b)
	}
}
