package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

// exportDevices serves GET /apis/export/device/info: the device list as
// XLSX. The export right covers the device-list export too: a device shared
// with the caller without it is left out of the file.
func (s *Server) exportDevices(c *call) (any, error) {
	all, err := s.Devices.All(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	list := all[:0]
	for _, d := range all {
		if d.Grant == nil || d.Grant.Allows(devices.NeedExport) {
			list = append(list, d)
		}
	}
	var buf bytes.Buffer
	if err := sheet.DeviceList(&buf, c.lang, list, time.Now(), s.location()); err != nil {
		return nil, errs.Internal("export devices: %w", err)
	}
	name := "devices-" + time.Now().In(s.location()).Format("20060102") + ".xlsx"
	return &download{
		contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		filename:    name, body: buf.Bytes(),
	}, nil
}

// download is a handler result sent as a file instead of the envelope.
type download struct {
	contentType string
	filename    string // empty: shown inline
	body        []byte
	file        *os.File // sent instead of body when set, and closed
	cache       string
	release     func() // if set, called once body is written
}

func (d *download) write(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", d.contentType)
	if d.file != nil {
		defer d.file.Close()
		if info, err := d.file.Stat(); err == nil {
			h.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
	} else {
		h.Set("Content-Length", strconv.Itoa(len(d.body)))
	}
	if d.filename != "" {
		h.Set("Content-Disposition", `attachment; filename="`+d.filename+`"; filename*=UTF-8''`+url.PathEscape(d.filename))
	}
	if d.cache != "" {
		h.Set("Cache-Control", d.cache)
	}
	w.WriteHeader(http.StatusOK)
	if d.file != nil {
		io.Copy(w, d.file)
	} else {
		w.Write(d.body)
	}
	if d.release != nil {
		d.release()
	}
}

func (s *Server) location() *time.Location {
	if s.Location != nil {
		return s.Location
	}
	return time.Local
}
