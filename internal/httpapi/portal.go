package httpapi

import (
	"net/http"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/portal"
)

// PortalTokenHeader carries a unified portal link's token on the portal's
// calls. The page reads it from its address's fragment (#k=…), which
// browsers send neither to the server nor in a Referer.
const PortalTokenHeader = "X-Portal-Token"

// portalRedirectSeconds is how long the portal's "page does not exist"
// notice stays before the page goes to the login page.
const portalRedirectSeconds = 5

// portalLinkDTO is a device's portal link as its owner sees it; Token and
// Path only in the answer that made it.
type portalLinkDTO struct {
	Enabled      bool   `json:"enabled"`
	AllowControl bool   `json:"allowControl"`
	CreatedAt    *int64 `json:"createdAt"`
	Token        string `json:"token,omitempty"`
	Path         string `json:"path,omitempty"`
}

func toPortalLink(l *portal.Link) portalLinkDTO {
	if l == nil {
		return portalLinkDTO{}
	}
	at := l.CreatedAt.UnixMilli()
	return portalLinkDTO{Enabled: true, AllowControl: l.AllowControl, CreatedAt: &at}
}

// PortalPath is the address of a device's portal with its token.
func PortalPath(sn, token string) string { return "/uni-portal/" + sn + "#k=" + token }

// portalStatus serves GET /apis/poi/{id}/portal: whether the device's
// portal is on, since when, and whether it may send commands.
func (s *Server) portalStatus(c *call) (any, error) {
	l, err := s.Portal.Status(c.r.Context(), c.device.ID)
	if err != nil {
		return nil, err
	}
	return toPortalLink(l), nil
}

type portalBody struct {
	AllowControl bool `json:"allowControl"`
}

// portalCreate serves POST /apis/poi/{id}/portal {allowControl}: turns the
// portal on with a new link, replacing the one made before. The link's
// token is in this answer only.
func (s *Server) portalCreate(c *call) (any, error) {
	var b portalBody
	if err := decodeOptional(c, &b); err != nil {
		return nil, err
	}
	token, l, err := s.Portal.Create(c.r.Context(), c.account.ID, c.device, b.AllowControl)
	if err != nil {
		return nil, err
	}
	out := toPortalLink(l)
	out.Token, out.Path = token, PortalPath(c.device.SN, token)
	return out, nil
}

// portalRevoke serves DELETE /apis/poi/{id}/portal: the link stops working.
func (s *Server) portalRevoke(c *call) (any, error) {
	if err := s.Portal.Revoke(c.r.Context(), c.device.ID); err != nil {
		return nil, err
	}
	return toPortalLink(nil), nil
}

// portalStateDTO is the unified portal's state (SPEC §3): 0 when the page
// exists, else 404 with the notice to show.
type portalStateDTO struct {
	Code     int                `json:"code"`
	Message  portalMessageDTO   `json:"message"`
	Redirect *portalRedirectDTO `json:"redirect,omitempty"`
}

type portalMessageDTO struct {
	Title   string `json:"title"`
	Content string `json:"content"`
}

type portalRedirectDTO struct {
	To      string `json:"to"`
	Seconds int    `json:"seconds"`
}

// uni wraps a call of the unified portal: no session, but the device named
// by {sn} must have a portal link whose token the call carries. Everything
// else — no such device, a wrong token, a portal turned off, a device that
// changed hands — answers alike: 404 with the portal's "page does not
// exist" state. The handler sees the device with the right the link gives:
// reading, and control when its owner allowed it.
func (s *Server) uni(fn func(c *call, l *portal.Link) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, lang: i18n.Parse(r.Header.Get("lang"))}
		sn := r.PathValue("sn")
		l, err := s.Portal.Open(r.Context(), sn, r.Header.Get(PortalTokenHeader))
		var d *devices.Device
		if err == nil {
			d, err = s.Devices.FindBySN(r.Context(), sn)
		}
		if errs.KindOf(err) == errs.ENotFound {
			s.portalMissing(w, c.lang)
			return
		}
		if err != nil {
			s.writeError(w, r, c.lang, err)
			return
		}
		c.device, c.right = d, devices.Right{Settings: l.AllowControl}
		s.serveAPI(w, r, c, func(c *call) (any, error) { return fn(c, l) })
	})
}

// portalCall adapts a device-scoped handler that needs only c.device and
// c.right to the portal.
func portalCall(fn apiFunc) func(c *call, _ *portal.Link) (any, error) {
	return func(c *call, _ *portal.Link) (any, error) { return fn(c) }
}

// portalMissing answers a portal call whose page does not exist.
func (s *Server) portalMissing(w http.ResponseWriter, lang i18n.Lang) {
	writeJSON(w, http.StatusNotFound, envelope{
		Code:    1000 + http.StatusNotFound,
		Message: i18n.T(lang, "portal.notFound", nil),
		Error:   &errorBody{Key: "portal.notFound"},
		Data: portalStateDTO{Code: http.StatusNotFound,
			Message:  portalMessageDTO{Title: i18n.T(lang, "portal.notFound", nil), Content: i18n.T(lang, "portal.notFoundContent", nil)},
			Redirect: &portalRedirectDTO{To: "/login", Seconds: portalRedirectSeconds}},
	})
}

// uniDevice serves GET /apis/uni/device/{sn}: the portal's state, the
// device (name, type, status, battery, last report — not its place or its
// owner's settings), its latest readings and whether commands may be sent.
func (s *Server) uniDevice(c *call, l *portal.Link) (any, error) {
	d := c.device
	latest, err := s.latest(c, d)
	if err != nil {
		return nil, err
	}
	full := s.toDevice(c, d, time.Now())
	type deviceView struct {
		SN             string   `json:"sn"`
		Name           string   `json:"name"`
		TypeName       string   `json:"typeName"`
		Model          string   `json:"model"`
		Category       string   `json:"category"`
		Status         string   `json:"status"`
		StatusName     string   `json:"statusName"`
		Battery        *float64 `json:"battery"`
		LowBattery     bool     `json:"lowBattery"`
		Signal         *float64 `json:"signal"`
		LastReportTime *int64   `json:"lastReportTime"`
	}
	return struct {
		State        portalStateDTO `json:"state"`
		Device       deviceView     `json:"device"`
		Latest       []latestDTO    `json:"latest"`
		AllowControl bool           `json:"allowControl"`
		Timezone     string         `json:"timezone"`
	}{
		State: portalStateDTO{Message: portalMessageDTO{Title: d.Name}},
		Device: deviceView{SN: d.SN, Name: full.Name, TypeName: full.TypeName, Model: full.Model, Category: full.Category,
			Status: full.Status, StatusName: full.StatusName, Battery: full.Battery, LowBattery: full.LowBattery,
			Signal: full.Signal, LastReportTime: full.LastReportTime},
		Latest: latest, AllowControl: l.AllowControl, Timezone: s.location().String(),
	}, nil
}

// uniCommands serves GET /apis/uni/device/{sn}/commands?page=&size=: the
// device's recent commands, newest first — the portal's control record.
func (s *Server) uniCommands(c *call, _ *portal.Link) (any, error) {
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Commands.ListAuthorized(c.r.Context(), c.device, p.offset(), p.size)
	if err != nil {
		return nil, err
	}
	out := pageDTO[commandDTO]{List: make([]commandDTO, 0, len(list)), Total: total}
	for _, cmd := range list {
		dto := toCommand(c.lang, c.device, cmd)
		dto.By = nil // the portal's visitors see what was done, not who in the console did it
		out.List = append(out.List, dto)
	}
	return out, nil
}

// uniSend serves POST /apis/uni/device/{sn}/commands {name, params}: sends
// a command in the name of the owner who made the link, marked as from the
// portal; 'No permission to modify!' when the link does not allow control.
func (s *Server) uniSend(c *call, l *portal.Link) (any, error) {
	if !l.AllowControl {
		return nil, devices.NeedControl.Denied()
	}
	var b commandBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	cmd, err := s.Commands.SendAuthorized(c.r.Context(), commands.Sender{Account: l.OwnerID, Source: commands.SourcePortal},
		c.device, b.Name, b.Params)
	if err != nil {
		return nil, err
	}
	dto := toCommand(c.lang, c.device, cmd)
	dto.By = nil
	return dto, nil
}

// uniTheme serves GET /apis/uni/integration/theme: how the portal looks —
// its title and the console's colours, light and dark.
func (s *Server) uniTheme(c *call) (any, error) {
	return struct {
		Title        string `json:"title"`
		PrimaryColor string `json:"primaryColor"`
		Logo         string `json:"logo"`
	}{i18n.T(c.lang, "portal.title", nil), portalPrimaryColor, "/favicon.svg"}, nil
}

// portalPrimaryColor is the console's primary colour (web/src/lib/theme.tsx).
const portalPrimaryColor = "#3961FF"
