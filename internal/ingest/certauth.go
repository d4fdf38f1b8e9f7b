package ingest

import (
	"context"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
)

// authenticateCert authenticates a connection by the device certificate it
// presented at the TLS handshake (which checked it against the device CA
// and the store's list of issued, unrevoked certificates). The device is
// the certificate's SN: a username, if given, must be that SN. certSN is
// "" when the connection has no certificate (the device logs in with its
// key); ok is false with a certSN when the certificate is refused.
func (h *deviceHook) authenticateCert(ctx context.Context, cl *mqtt.Client, username string) (certSN string, ok bool) {
	sn, _, has := devicecert.Peer(cl.Net.Conn)
	if !has {
		return "", false
	}
	if username != "" && username != sn {
		h.p.Metrics.Denied.WithLabelValues("credentials").Inc()
		h.p.Log.Info("mqtt connection refused: username is not the certificate's SN", "sn", sn, "username", username, "remote", cl.Net.Remote)
		return sn, false
	}
	if _, err := h.p.Device(ctx, sn); err != nil {
		h.p.Metrics.Denied.WithLabelValues("credentials").Inc()
		h.p.Log.Info("mqtt connection refused: certificate of an unknown device", "sn", sn, "remote", cl.Net.Remote, "err", err)
		return sn, false
	}
	// The ACL and the pipeline read the SN from the username.
	cl.Properties.Username = []byte(sn)
	return sn, true
}

// DropCertificate disconnects the devices connected with the certificate
// of this serial (just revoked): a revoked certificate is refused at the
// next handshake, and a connection made with it does not outlive it.
func (b *Broker) DropCertificate(serial string) {
	for _, cl := range b.server.Clients.GetAll() {
		if cl.Net.Inline || cl.Net.Conn == nil {
			continue
		}
		if _, s, ok := devicecert.Peer(cl.Net.Conn); ok && s == serial {
			b.server.DisconnectClient(cl, packets.ErrNotAuthorized)
		}
	}
}

// ClientIDs are the ids of the connected devices' clients ({sn}/{client id}).
func (b *Broker) ClientIDs() []string {
	var out []string
	for _, cl := range b.server.Clients.GetAll() {
		if !cl.Net.Inline && !cl.Closed() {
			out = append(out, cl.ID)
		}
	}
	return out
}
