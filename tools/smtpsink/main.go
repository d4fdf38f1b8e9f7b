// Command smtpsink is an SMTP server that keeps every message it accepts as
// files, for the browser tests to read the mail fieldwatch sends:
//
//	smtpsink --addr 127.0.0.1:2525 --dir /tmp/mail
//
// Each message becomes NNNN.eml (the message as received) and NNNN.json, a
// summary written after the .eml, so a .json present means the message is
// complete. "to" lists the envelope recipients, comma-separated:
//
//	{"from", "to", "subject", "text",
//	 "attachments": [{"name", "contentType", "size",
//	                  "sheets": {"<sheet>": {"rows", "header", "first"}}}]}
//
// "sheets" is given for .xlsx attachments (every sheet) and .csv ones (one
// sheet named "csv"); "rows" counts the data rows under the header, "first"
// is the first of them (empty when there is none).
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
)

type summary struct {
	From        string       `json:"from"`
	To          string       `json:"to"`
	Subject     string       `json:"subject"`
	Text        string       `json:"text"`
	Attachments []attachment `json:"attachments"`
}

type attachment struct {
	Name        string                  `json:"name"`
	ContentType string                  `json:"contentType"`
	Size        int                     `json:"size"`
	Sheets      map[string]sheetSummary `json:"sheets,omitempty"`
	Error       string                  `json:"error,omitempty"` // the file could not be read
}

type sheetSummary struct {
	Rows   int      `json:"rows"`
	Header []string `json:"header"`
	First  []string `json:"first"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:2525", "listen address")
	dir := flag.String("dir", "", "directory for the received messages (required)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "smtpsink: --dir is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "smtpsink:", err)
		os.Exit(1)
	}
	s, err := mailtest.Listen(*addr, mailtest.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "smtpsink:", err)
		os.Exit(1)
	}
	fmt.Printf("smtpsink listening on %s, writing to %s\n", s.Addr(), *dir)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	n, _ := filepath.Glob(filepath.Join(*dir, "*.eml"))
	seq := len(n)
	for {
		select {
		case <-stop:
			s.Close()
			return
		case m := <-s.C:
			seq++
			if err := keep(*dir, seq, m); err != nil {
				fmt.Fprintln(os.Stderr, "smtpsink:", err)
			}
		}
	}
}

// keep writes message seq and its summary.
func keep(dir string, seq int, m *mailtest.Message) error {
	base := filepath.Join(dir, fmt.Sprintf("%04d", seq))
	if err := writeFile(base+".eml", m.Data); err != nil {
		return err
	}
	s := summary{To: strings.Join(m.To, ", "), Attachments: []attachment{}}
	if p, err := mailtest.Parse(m.Data); err != nil {
		s.Text = "unreadable message: " + err.Error()
	} else {
		s.From, s.Subject, s.Text = p.From, p.Subject, p.Text
		for _, a := range p.Attachments {
			s.Attachments = append(s.Attachments, describe(a))
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep "Name <addr>" readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	return writeFile(base+".json", b.Bytes())
}

// writeFile writes through a temporary name, so a reader never sees half a file.
func writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

func describe(a mailtest.Part) attachment {
	out := attachment{Name: a.Name, ContentType: a.ContentType, Size: len(a.Data)}
	var err error
	switch strings.ToLower(filepath.Ext(a.Name)) {
	case ".xlsx":
		out.Sheets, err = xlsxSheets(a.Data)
	case ".csv":
		out.Sheets, err = csvSheet(a.Data)
	}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

func summarize(rows [][]string) sheetSummary {
	s := sheetSummary{Header: []string{}, First: []string{}}
	if len(rows) > 0 {
		s.Header, s.Rows = rows[0], len(rows)-1
	}
	if len(rows) > 1 {
		s.First = rows[1]
	}
	return s
}

func xlsxSheets(data []byte) (map[string]sheetSummary, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]sheetSummary{}
	for _, name := range f.GetSheetList() {
		rows, err := f.GetRows(name)
		if err != nil {
			return nil, err
		}
		out[name] = summarize(rows)
	}
	return out, nil
}

func csvSheet(data []byte) (map[string]sheetSummary, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	return map[string]sheetSummary{"csv": summarize(rows)}, nil
}
