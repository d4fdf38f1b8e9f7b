package httpapi

import (
	"net/url"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
)

// purviewDTO is a grant's rights (SPEC §3 Authorization "purview").
type purviewDTO struct {
	Rename   bool `json:"rename"`
	Settings bool `json:"settings"`
	Export   bool `json:"export"`
}

func toPurview(r devices.Right) purviewDTO {
	return purviewDTO{Rename: r.Rename, Settings: r.Settings, Export: r.Export}
}

func (p purviewDTO) right() devices.Right {
	return devices.Right{Rename: p.Rename, Settings: p.Settings, Export: p.Export}
}

type refDTO struct {
	PoiID    int64  `json:"poiId"`
	HashID   string `json:"hashId"`
	Page     string `json:"page"`
	Name     string `json:"name"`
	SN       string `json:"sn"`
	TypeID   int    `json:"typeId"`
	TypeName string `json:"typeName"`
	Model    string `json:"model"`
}

func toRef(d sharing.DeviceRef, lang i18n.Lang) refDTO {
	out := refDTO{PoiID: d.ID, HashID: d.HashID, Name: d.Name, SN: d.SN, TypeID: d.TypeID}
	if t, ok := devices.TypeByID(d.TypeID); ok {
		if d.Slave && t.Slave != nil {
			t = t.SlaveType()
		}
		out.TypeName, out.Model, out.Page = t.Name(lang), t.Model, string(t.Page)
	}
	return out
}

type linkDTO struct {
	ID       string     `json:"id"`
	Kind     string     `json:"kind"`
	Link     string     `json:"link"`
	ExpireAt int64      `json:"expireAt"`
	Purview  purviewDTO `json:"purview"`
	Devices  []refDTO   `json:"devices"`
}

type linkRequest struct {
	PoiIDs  []int64    `json:"poiIds"`
	Purview purviewDTO `json:"purview"`
}

// grantLink serves PUT /apis/grant/credential.
func (s *Server) grantLink(c *call) (any, error) { return s.offer(c, sharing.KindGrant) }

// transferLink serves PUT /apis/transfer/credential.
func (s *Server) transferLink(c *call) (any, error) { return s.offer(c, sharing.KindTransfer) }

func (s *Server) offer(c *call, kind sharing.Kind) (any, error) {
	var req linkRequest
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	l, token, err := s.Sharing.Offer(c.r.Context(), c.account.ID, kind, req.PoiIDs, req.Purview.right())
	if err != nil {
		return nil, err
	}
	ds, err := s.Sharing.Store.LinkDevices(c.r.Context(), l)
	if err != nil {
		return nil, err
	}
	out := linkDTO{ID: token, Kind: string(l.Kind), Link: s.linkURL(c, kind, token), ExpireAt: l.ExpiresAt.UnixMilli(),
		Purview: toPurview(l.Right), Devices: []refDTO{}}
	for _, d := range ds {
		out.Devices = append(out.Devices, toRef(d, c.lang))
	}
	return out, nil
}

// linkURL is the acceptance page of a link, under --public-url or else
// the address the owner reached the console at.
func (s *Server) linkURL(c *call, kind sharing.Kind, token string) string {
	return s.baseURL(c) + "/apps/authoried/" + string(kind) + "?credential=" + url.QueryEscape(token)
}

// baseURL is the console's address: --public-url, or else the address the
// caller reached it at.
func (s *Server) baseURL(c *call) string {
	if s.PublicURL != "" {
		return s.PublicURL
	}
	scheme := "http"
	if s.secure(c.r) {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host
}

// describeLink serves GET /apis/device/credential/{id}: what a link offers,
// to anyone holding it (no login).
func (s *Server) describeLink(c *call) (any, error) {
	token := c.r.PathValue("id")
	o, err := s.Sharing.Describe(c.r.Context(), token)
	if err != nil {
		return nil, err
	}
	type offeredDevice struct {
		Name     string `json:"name"`
		TypeName string `json:"typeName"`
		Model    string `json:"model"`
	}
	type from struct {
		Name string `json:"name"`
	}
	out := struct {
		ID       string          `json:"id"`
		Kind     string          `json:"kind,omitempty"`
		Status   string          `json:"status"`
		ExpireAt int64           `json:"expireAt,omitempty"`
		From     *from           `json:"from,omitempty"`
		Purview  *purviewDTO     `json:"purview,omitempty"`
		Devices  []offeredDevice `json:"devices,omitempty"`
	}{ID: token, Status: "unavailable"}
	if o == nil {
		return out, nil
	}
	p := toPurview(o.Link.Right)
	out.Kind, out.Status, out.ExpireAt = string(o.Link.Kind), "available", o.Link.ExpiresAt.UnixMilli()
	out.From, out.Purview = &from{o.From.Name}, &p
	for _, d := range o.Devices {
		r := toRef(d, c.lang)
		out.Devices = append(out.Devices, offeredDevice{r.Name, r.TypeName, r.Model})
	}
	return out, nil
}

// acceptLink serves POST /apis/grant/accept/{id} for grant and transfer
// links alike.
func (s *Server) acceptLink(c *call) (any, error) {
	kind, ids, err := s.Sharing.Accept(c.r.Context(), c.account.ID, c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := struct {
		Kind    string      `json:"kind"`
		Devices []deviceDTO `json:"devices"`
	}{Kind: string(kind), Devices: []deviceDTO{}}
	for _, id := range ids {
		d, r, err := s.Devices.Get(c.r.Context(), c.account.ID, id)
		if err != nil {
			continue // changed hands again since
		}
		out.Devices = append(out.Devices, withRight(s.toDevice(c, d, now), r))
	}
	return out, nil
}

type personDTO struct {
	UID           int64  `json:"uid"`
	Name          string `json:"name"`
	AccountNumber string `json:"accountNumber,omitempty"`
}

type granteeDTO struct {
	UID           int64      `json:"uid"`
	Name          string     `json:"name"`
	AccountNumber string     `json:"accountNumber"`
	Purview       purviewDTO `json:"purview"`
	GrantTime     int64      `json:"grantTime"`
}

func toGrantee(e sharing.Entry) granteeDTO {
	return granteeDTO{UID: e.Grantee.ID, Name: e.Grantee.Name, AccountNumber: e.Grantee.AccountNumber,
		Purview: toPurview(e.Right), GrantTime: e.At.UnixMilli()}
}

// sharedWithMe serves GET /apis/authorized/devices.
func (s *Server) sharedWithMe(c *call) (any, error) {
	es, err := s.Sharing.SharedWithMe(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	type shared struct {
		refDTO
		Owner     personDTO  `json:"owner"`
		Purview   purviewDTO `json:"purview"`
		GrantTime int64      `json:"grantTime"`
	}
	all := make([]shared, len(es))
	for i, e := range es {
		all[i] = shared{toRef(e.Device, c.lang), personDTO{UID: e.Owner.ID, Name: e.Owner.Name}, toPurview(e.Right), e.At.UnixMilli()}
	}
	return page(c, all)
}

// giveBack serves DELETE /apis/authorized/devices/{id}: a grantee returns a
// device shared with them.
func (s *Server) giveBack(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Sharing.GiveBack(c.r.Context(), c.account.ID, id)
}

// grantedDevices serves GET /apis/granted/devices: my shared devices, each
// with its grantees.
func (s *Server) grantedDevices(c *call) (any, error) {
	es, err := s.Sharing.Granted(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	type granted struct {
		refDTO
		Users []granteeDTO `json:"users"`
	}
	var all []granted
	at := map[int64]int{}
	for _, e := range es {
		i, ok := at[e.Device.ID]
		if !ok {
			i = len(all)
			at[e.Device.ID] = i
			all = append(all, granted{refDTO: toRef(e.Device, c.lang)})
		}
		all[i].Users = append(all[i].Users, toGrantee(e))
	}
	return page(c, all)
}

// revokeDevice serves DELETE /apis/granted/devices/{id}: every grantee of
// one of my devices loses it.
func (s *Server) revokeDevice(c *call) (any, error) {
	return nil, s.Sharing.RevokeDevice(c.r.Context(), c.account.ID, c.device.ID, 0)
}

// grantedUsers serves GET /apis/granted/users: the people I share with,
// each with the devices they hold.
func (s *Server) grantedUsers(c *call) (any, error) {
	es, err := s.Sharing.Granted(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	type held struct {
		refDTO
		Purview   purviewDTO `json:"purview"`
		GrantTime int64      `json:"grantTime"`
	}
	type user struct {
		personDTO
		Devices []held `json:"devices"`
	}
	var all []user
	at := map[int64]int{}
	for _, e := range es {
		i, ok := at[e.Grantee.ID]
		if !ok {
			i = len(all)
			at[e.Grantee.ID] = i
			all = append(all, user{personDTO: personDTO{UID: e.Grantee.ID, Name: e.Grantee.Name, AccountNumber: e.Grantee.AccountNumber}})
		}
		all[i].Devices = append(all[i].Devices, held{toRef(e.Device, c.lang), toPurview(e.Right), e.At.UnixMilli()})
	}
	return page(c, all)
}

// revokeUser serves DELETE /apis/granted/users/{id}: that user loses every
// device I shared with them.
func (s *Server) revokeUser(c *call) (any, error) {
	uid, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Sharing.RevokeUser(c.r.Context(), c.account.ID, uid)
}

// grantees serves GET /apis/poi/{id}/authorized.
func (s *Server) grantees(c *call) (any, error) {
	es, err := s.Sharing.Grantees(c.r.Context(), c.account.ID, c.device.ID)
	if err != nil {
		return nil, err
	}
	out := make([]granteeDTO, len(es))
	for i, e := range es {
		out[i] = toGrantee(e)
	}
	return out, nil
}

// revokeGrantee serves DELETE /apis/poi/{id}/authorized?uid=.
func (s *Server) revokeGrantee(c *call) (any, error) {
	uid, err := queryUID(c)
	if err != nil {
		return nil, err
	}
	if uid == 0 {
		return nil, errs.Invalid("uid", "error.required")
	}
	return nil, s.Sharing.RevokeDevice(c.r.Context(), c.account.ID, c.device.ID, uid)
}

func queryUID(c *call) (int64, error) {
	v := c.r.URL.Query().Get("uid")
	if v == "" {
		return 0, nil
	}
	uid, err := strconv.ParseInt(v, 10, 64)
	if err != nil || uid <= 0 {
		return 0, errs.NotFound()
	}
	return uid, nil
}

// modifyPermissions serves PUT /apis/poi/modify/permissions.
func (s *Server) modifyPermissions(c *call) (any, error) {
	var req struct {
		PoiID   int64      `json:"poiId"`
		UID     int64      `json:"uid"`
		Purview purviewDTO `json:"purview"`
	}
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	if req.PoiID <= 0 {
		return nil, errs.Invalid("poiId", "error.required")
	}
	if req.UID <= 0 {
		return nil, errs.Invalid("uid", "error.required")
	}
	if err := s.Sharing.SetPermissions(c.r.Context(), c.account.ID, req.PoiID, req.UID, req.Purview.right()); err != nil {
		return nil, err
	}
	es, err := s.Sharing.Grantees(c.r.Context(), c.account.ID, req.PoiID)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Grantee.ID == req.UID {
			return toGrantee(e), nil
		}
	}
	return nil, errs.NotFound()
}

// queryPermissions serves GET /apis/poi/query/permissions?poiId=[&uid=]:
// the caller's right on a device, or (owner only) a grantee's.
func (s *Server) queryPermissions(c *call) (any, error) {
	uid, err := queryUID(c)
	if err != nil {
		return nil, err
	}
	r, err := s.Sharing.Permissions(c.r.Context(), c.account.ID, c.device.ID, uid)
	if err != nil {
		return nil, err
	}
	return struct {
		Owner   bool       `json:"owner"`
		Purview purviewDTO `json:"purview"`
	}{r.Owner, toPurview(r)}, nil
}
