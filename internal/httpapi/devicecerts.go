package httpapi

import (
	"archive/zip"
	"bytes"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

type certificateDTO struct {
	Serial    string `json:"serial"`
	CreatedAt int64  `json:"createdAt"`
	NotAfter  int64  `json:"notAfter"`
	RevokedAt *int64 `json:"revokedAt"`
}

type issuedDTO struct {
	certificateDTO
	SN          string `json:"sn"`
	Certificate string `json:"certificate"`
	Key         string `json:"key"`
	CA          string `json:"ca"`
}

// issueCertificate serves POST /apis/poi/{id}/certificate: a new device
// certificate with its key and the CA, shown this once (the key is not
// kept). ?format=zip answers a zip of ca.pem, {sn}.crt and {sn}.key
// instead of JSON.
func (s *Server) issueCertificate(c *call) (any, error) {
	if s.DeviceCerts == nil {
		return nil, errs.NotFound()
	}
	format := c.r.URL.Query().Get("format")
	if format != "" && format != "json" && format != "zip" {
		return nil, errs.Invalid("format", "deviceCert.format")
	}
	is, err := s.DeviceCerts.Issue(c.r.Context(), c.account.ID, c.device)
	if err != nil {
		return nil, err
	}
	if format == "zip" {
		var buf bytes.Buffer
		z := zip.NewWriter(&buf)
		for _, f := range []struct {
			name string
			body []byte
		}{{"ca.pem", is.CAPEM}, {is.SN + ".crt", is.CertPEM}, {is.SN + ".key", is.KeyPEM}} {
			w, err := z.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: time.Now()})
			if err != nil {
				return nil, errs.Internal("certificate zip: %w", err)
			}
			w.Write(f.body)
		}
		if err := z.Close(); err != nil {
			return nil, errs.Internal("certificate zip: %w", err)
		}
		return &download{contentType: "application/zip", filename: is.SN + "-certificate.zip", body: buf.Bytes(), cache: "no-store"}, nil
	}
	return issuedDTO{
		certificateDTO: certificateDTO{Serial: is.Serial, CreatedAt: time.Now().UnixMilli(), NotAfter: is.NotAfter.UnixMilli()},
		SN:             is.SN, Certificate: string(is.CertPEM), Key: string(is.KeyPEM), CA: string(is.CAPEM),
	}, nil
}

// listCertificates serves GET /apis/poi/{id}/certificates: the device's
// certificates, newest first, revoked ones too.
func (s *Server) listCertificates(c *call) (any, error) {
	if s.DeviceCerts == nil {
		return nil, errs.NotFound()
	}
	list, err := s.DeviceCerts.List(c.r.Context(), c.device.ID)
	if err != nil {
		return nil, err
	}
	out := struct {
		List []certificateDTO `json:"list"`
	}{List: make([]certificateDTO, 0, len(list))}
	for _, cert := range list {
		out.List = append(out.List, toCertificate(cert))
	}
	return out, nil
}

func toCertificate(c devicecert.Certificate) certificateDTO {
	d := certificateDTO{Serial: c.Serial, CreatedAt: c.CreatedAt.UnixMilli(), NotAfter: c.NotAfter.UnixMilli()}
	if c.RevokedAt != nil {
		ms := c.RevokedAt.UnixMilli()
		d.RevokedAt = &ms
	}
	return d
}

// revokeCertificate serves DELETE /apis/poi/{id}/certificate/{serial}: the
// certificate is refused from now on, and a device connected with it is
// disconnected.
func (s *Server) revokeCertificate(c *call) (any, error) {
	if s.DeviceCerts == nil {
		return nil, errs.NotFound()
	}
	if err := s.DeviceCerts.Revoke(c.r.Context(), c.device.ID, c.r.PathValue("serial")); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}
