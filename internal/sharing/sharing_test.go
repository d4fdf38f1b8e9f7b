package sharing_test

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// env is the sharing service over a real store: an owner with two soil
// stations, a grantee holding a grant on the first, and a stranger.
type env struct {
	t        *testing.T
	db       *store.DB
	devices  *devices.Service
	sharing  *sharing.Service
	now      time.Time
	owner    int64
	grantee  int64
	stranger int64
	soil     *devices.Device // shared with grantee (rename only)
	plot     *devices.Device // not shared
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.OpenSQLite(t)
	e := &env{t: t, db: db, devices: devices.New(devices.Options{Store: db, Keys: keys}), now: time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)}
	e.sharing = sharing.New(sharing.Options{Store: db, Devices: e.devices, Now: func() time.Time { return e.now }})
	e.owner, e.grantee, e.stranger = e.account("farmer01"), e.account("agron01"), e.account("stranger1")
	if e.soil, _, err = e.devices.Register(ctx, devices.Registration{SN: "ZS0000001", TypeID: 21, Owner: e.owner}); err != nil {
		t.Fatal(err)
	}
	if e.plot, _, err = e.devices.Register(ctx, devices.Registration{SN: "ZS0000002", TypeID: 21, Owner: e.owner}); err != nil {
		t.Fatal(err)
	}
	e.accept(e.grantee, e.offer(e.owner, sharing.KindGrant, devices.Right{Rename: true}, e.soil.ID))
	return e
}

func (e *env) account(number string) int64 {
	e.t.Helper()
	a := &accounts.Account{AccountNumber: number, Name: "Farm " + number, PasswordHash: "h", CreatedAt: e.now}
	if err := e.db.CreateAccount(context.Background(), a); err != nil {
		e.t.Fatal(err)
	}
	return a.ID
}

func (e *env) offer(from int64, kind sharing.Kind, r devices.Right, ids ...int64) string {
	e.t.Helper()
	_, token, err := e.sharing.Offer(context.Background(), from, kind, ids, r)
	if err != nil {
		e.t.Fatal(err)
	}
	return token
}

func (e *env) accept(who int64, token string) []int64 {
	e.t.Helper()
	_, ids, err := e.sharing.Accept(context.Background(), who, token)
	if err != nil {
		e.t.Fatal(err)
	}
	return ids
}

// wantErr fails unless err is of kind, with code and field when given.
func wantErr(t *testing.T, err error, kind errs.Kind, code, field string) {
	t.Helper()
	e := errs.As(err)
	if e == nil || e.Kind != kind || code != "" && e.Code != code || field != "" && e.Field != field {
		t.Fatalf("got %v, want %s %s (field %q)", err, kind, code, field)
	}
}

func TestService_OfferRefuses(t *testing.T) {
	e := newEnv(t)
	many := make([]int64, sharing.MaxLinkDevices+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	cases := []struct {
		name   string
		viewer int64
		kind   sharing.Kind
		ids    []int64
		want   errs.Kind
		code   string
		field  string
	}{
		{"unknown kind", e.owner, "lend", []int64{e.soil.ID}, errs.EInvalid, "query.unknownValue", "kind"},
		{"no devices", e.owner, sharing.KindGrant, nil, errs.EInvalid, "share.noDevices", "poiIds"},
		{"only ids that are no devices", e.owner, sharing.KindTransfer, []int64{0, -3}, errs.EInvalid, "share.noDevices", "poiIds"},
		{"more than a link holds", e.owner, sharing.KindGrant, many, errs.EInvalid, "share.tooManyDevices", "poiIds"},
		{"a device that does not exist", e.owner, sharing.KindGrant, []int64{e.soil.ID, 999}, errs.ENotFound, "error.notFound", ""},
		{"a stranger's offer", e.stranger, sharing.KindGrant, []int64{e.soil.ID}, errs.ENotFound, "error.notFound", ""},
		{"a grantee passing a device on", e.grantee, sharing.KindGrant, []int64{e.soil.ID}, errs.EForbidden, "device.noModifyRight", ""},
		{"a grantee giving a device away", e.grantee, sharing.KindTransfer, []int64{e.soil.ID}, errs.EForbidden, "device.noModifyRight", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, token, err := e.sharing.Offer(context.Background(), c.viewer, c.kind, c.ids, devices.OwnerRight)
			wantErr(t, err, c.want, c.code, c.field)
			if l != nil || token != "" {
				t.Fatalf("a refused offer made a link: %+v %q", l, token)
			}
		})
	}
	t.Run("the limit names itself", func(t *testing.T) {
		_, _, err := e.sharing.Offer(context.Background(), e.owner, sharing.KindGrant, many, devices.Right{})
		if p := errs.As(err).Params; p["max"] != sharing.MaxLinkDevices {
			t.Fatalf("params %v", p)
		}
	})
}

var tokenPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestService_OfferMakesLink(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name      string
		kind      sharing.Kind
		ids       []int64
		right     devices.Right
		wantIDs   []int64
		wantRight devices.Right
	}{
		{"a grant keeps its flags but never ownership", sharing.KindGrant, []int64{e.plot.ID}, devices.OwnerRight,
			[]int64{e.plot.ID}, devices.Right{Rename: true, Settings: true, Export: true}},
		{"a grant of reading only", sharing.KindGrant, []int64{e.plot.ID}, devices.Right{},
			[]int64{e.plot.ID}, devices.Right{}},
		{"a transfer carries no right", sharing.KindTransfer, []int64{e.plot.ID}, devices.Right{Export: true},
			[]int64{e.plot.ID}, devices.Right{}},
		{"duplicates and non-ids dropped, order kept", sharing.KindGrant, []int64{e.plot.ID, 0, e.soil.ID, e.plot.ID, -1}, devices.Right{Export: true},
			[]int64{e.plot.ID, e.soil.ID}, devices.Right{Export: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, token, err := e.sharing.Offer(context.Background(), e.owner, c.kind, c.ids, c.right)
			if err != nil {
				t.Fatal(err)
			}
			if !tokenPattern.MatchString(token) || l.ID != sharing.TokenID(token) || l.ID == token {
				t.Fatalf("token %q, link id %q", token, l.ID)
			}
			if l.Kind != c.kind || l.OwnerID != e.owner || l.Right != c.wantRight || !slices.Equal(l.DeviceIDs, c.wantIDs) {
				t.Fatalf("link %+v", l)
			}
			if !l.CreatedAt.Equal(e.now) || l.ExpiresAt.Sub(l.CreatedAt) != sharing.LinkTTL || l.UsedAt != nil {
				t.Fatalf("link times %v … %v, used %v", l.CreatedAt, l.ExpiresAt, l.UsedAt)
			}
			stored, err := e.db.FindLink(context.Background(), l.ID)
			if err != nil || stored.Right != c.wantRight || stored.Kind != c.kind {
				t.Fatalf("stored %+v, %v", stored, err)
			}
		})
	}
	t.Run("every link has its own token", func(t *testing.T) {
		a := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
		b := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
		if a == b {
			t.Fatal("two offers share a token")
		}
	})
}

func TestService_Describe(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		token func(e *env) string
		ok    bool
	}{
		{"a fresh link", func(e *env) string { return e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID) }, true},
		{"a second before it expires", func(e *env) string {
			tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
			e.now = e.now.Add(sharing.LinkTTL - time.Second)
			return tok
		}, true},
		{"when it expires", func(e *env) string {
			tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
			e.now = e.now.Add(sharing.LinkTTL)
			return tok
		}, false},
		{"used", func(e *env) string {
			tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
			e.accept(e.stranger, tok)
			return tok
		}, false},
		{"its devices gone to another owner", func(e *env) string {
			tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
			e.accept(e.stranger, e.offer(e.owner, sharing.KindTransfer, devices.Right{}, e.plot.ID))
			return tok
		}, false},
		{"unknown", func(*env) string { return "0123456789abcdef0123456789abcdef" }, false},
		{"empty", func(*env) string { return "" }, false},
		{"the stored id instead of the token", func(e *env) string {
			return sharing.TokenID(e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID))
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			o, err := e.sharing.Describe(ctx, c.token(e))
			if err != nil {
				t.Fatal(err)
			}
			if !c.ok {
				if o != nil {
					t.Fatalf("an unavailable link describes itself: %+v", o)
				}
				return
			}
			if o == nil || o.From.ID != e.owner || o.From.Name != "Farm farmer01" || len(o.Devices) != 1 || o.Devices[0].ID != e.plot.ID {
				t.Fatalf("described %+v", o)
			}
		})
	}
}

func TestService_Accept(t *testing.T) {
	ctx := context.Background()
	t.Run("refusals", func(t *testing.T) {
		cases := []struct {
			name  string
			who   func(e *env) int64
			token func(e *env) string
			code  string
		}{
			{"own link", func(e *env) int64 { return e.owner },
				func(e *env) string { return e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID) }, "share.ownLink"},
			{"unknown", func(e *env) int64 { return e.stranger },
				func(*env) string { return "not-a-token" }, "share.linkUnavailable"},
			{"used", func(e *env) int64 { return e.stranger }, func(e *env) string {
				tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
				e.accept(e.grantee, tok)
				return tok
			}, "share.linkUnavailable"},
			{"expired", func(e *env) int64 { return e.stranger }, func(e *env) string {
				tok := e.offer(e.owner, sharing.KindTransfer, devices.Right{}, e.plot.ID)
				e.now = e.now.Add(sharing.LinkTTL)
				return tok
			}, "share.linkUnavailable"},
			{"its devices gone", func(e *env) int64 { return e.grantee }, func(e *env) string {
				tok := e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.plot.ID)
				e.accept(e.stranger, e.offer(e.owner, sharing.KindTransfer, devices.Right{}, e.plot.ID))
				return tok
			}, "share.linkUnavailable"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e := newEnv(t)
				tok := c.token(e)
				kind, ids, err := e.sharing.Accept(ctx, c.who(e), tok)
				wantErr(t, err, errs.EConflict, c.code, "")
				if kind != "" || ids != nil {
					t.Fatalf("refused, yet %q %v", kind, ids)
				}
			})
		}
	})
	t.Run("a grant", func(t *testing.T) {
		e := newEnv(t)
		kind, ids, err := e.sharing.Accept(ctx, e.stranger, e.offer(e.owner, sharing.KindGrant, devices.Right{Export: true}, e.plot.ID))
		if err != nil || kind != sharing.KindGrant || !slices.Equal(ids, []int64{e.plot.ID}) {
			t.Fatalf("%q %v %v", kind, ids, err)
		}
		if r, err := e.sharing.Permissions(ctx, e.stranger, e.plot.ID, 0); err != nil || r != (devices.Right{Export: true}) {
			t.Fatalf("the new grantee's right: %+v %v", r, err)
		}
	})
	t.Run("a transfer", func(t *testing.T) {
		e := newEnv(t)
		kind, ids, err := e.sharing.Accept(ctx, e.stranger, e.offer(e.owner, sharing.KindTransfer, devices.Right{}, e.soil.ID))
		if err != nil || kind != sharing.KindTransfer || !slices.Equal(ids, []int64{e.soil.ID}) {
			t.Fatalf("%q %v %v", kind, ids, err)
		}
		if r, err := e.sharing.Permissions(ctx, e.stranger, e.soil.ID, 0); err != nil || r != devices.OwnerRight {
			t.Fatalf("the new owner's right: %+v %v", r, err)
		}
		_, err = e.sharing.Permissions(ctx, e.grantee, e.soil.ID, 0)
		wantErr(t, err, errs.ENotFound, "", "")
	})
}

func TestService_Revoke(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		revoke func(e *env) error
		want   errs.Kind // "" succeeds
		code   string
		stays  bool // the grantee still sees the shared station
	}{
		{"the grantee gives it back", func(e *env) error { return e.sharing.GiveBack(ctx, e.grantee, e.soil.ID) }, "", "", false},
		{"giving back what was not shared", func(e *env) error { return e.sharing.GiveBack(ctx, e.grantee, e.plot.ID) }, errs.ENotFound, "error.notFound", true},
		{"the owner giving back", func(e *env) error { return e.sharing.GiveBack(ctx, e.owner, e.soil.ID) }, errs.ENotFound, "error.notFound", true},
		{"giving back device 0", func(e *env) error { return e.sharing.GiveBack(ctx, e.grantee, 0) }, errs.ENotFound, "error.notFound", true},
		{"the owner revokes the device", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.owner, e.soil.ID, 0) }, "", "", false},
		{"the owner revokes the grantee on it", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.owner, e.soil.ID, e.grantee) }, "", "", false},
		{"the owner revokes someone without a grant", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.owner, e.soil.ID, e.stranger) }, errs.ENotFound, "error.notFound", true},
		{"revoking on an unshared device", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.owner, e.plot.ID, 0) }, errs.ENotFound, "error.notFound", true},
		{"the grantee revoking the device", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.grantee, e.soil.ID, 0) }, errs.EForbidden, "device.noModifyRight", true},
		{"a stranger revoking the device", func(e *env) error { return e.sharing.RevokeDevice(ctx, e.stranger, e.soil.ID, 0) }, errs.ENotFound, "error.notFound", true},
		{"the owner revokes the grantee", func(e *env) error { return e.sharing.RevokeUser(ctx, e.owner, e.grantee) }, "", "", false},
		{"revoking someone without a grant", func(e *env) error { return e.sharing.RevokeUser(ctx, e.owner, e.stranger) }, errs.ENotFound, "error.notFound", true},
		{"revoking nobody", func(e *env) error { return e.sharing.RevokeUser(ctx, e.owner, 0) }, errs.ENotFound, "error.notFound", true},
		{"revoking a negative id", func(e *env) error { return e.sharing.RevokeUser(ctx, e.owner, -1) }, errs.ENotFound, "error.notFound", true},
		{"the grantee revoking itself as owner", func(e *env) error { return e.sharing.RevokeUser(ctx, e.grantee, e.grantee) }, errs.ENotFound, "error.notFound", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			err := c.revoke(e)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				wantErr(t, err, c.want, c.code, "")
			}
			_, _, seen := e.devices.Authorize(ctx, e.grantee, e.soil.ID, devices.NeedRead)
			if (seen == nil) != c.stays {
				t.Fatalf("the grantee still sees the station: %v, want %v", seen == nil, c.stays)
			}
		})
	}
	t.Run("the device's other grantees stay", func(t *testing.T) {
		e := newEnv(t)
		e.accept(e.stranger, e.offer(e.owner, sharing.KindGrant, devices.Right{}, e.soil.ID))
		if err := e.sharing.RevokeDevice(ctx, e.owner, e.soil.ID, e.grantee); err != nil {
			t.Fatal(err)
		}
		es, err := e.sharing.Grantees(ctx, e.owner, e.soil.ID)
		if err != nil || len(es) != 1 || es[0].Grantee.ID != e.stranger {
			t.Fatalf("grantees left: %+v %v", es, err)
		}
	})
}

func TestService_Permissions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	cases := []struct {
		name                    string
		viewer, device, grantee func(e *env) int64
		want                    devices.Right
		err                     errs.Kind
	}{
		{"the owner's own", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(*env) int64 { return 0 }, devices.OwnerRight, ""},
		{"the owner naming itself", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.owner }, devices.OwnerRight, ""},
		{"the grantee's own", func(e *env) int64 { return e.grantee }, func(e *env) int64 { return e.soil.ID }, func(*env) int64 { return 0 }, devices.Right{Rename: true}, ""},
		{"the owner asking about the grantee", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee }, devices.Right{Rename: true}, ""},
		{"the owner asking about someone without a grant", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.stranger }, devices.Right{}, errs.ENotFound},
		{"the grantee asking about another", func(e *env) int64 { return e.grantee }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.owner }, devices.Right{}, errs.EForbidden},
		{"a stranger's own", func(e *env) int64 { return e.stranger }, func(e *env) int64 { return e.soil.ID }, func(*env) int64 { return 0 }, devices.Right{}, errs.ENotFound},
		{"a stranger asking about the grantee", func(e *env) int64 { return e.stranger }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee }, devices.Right{}, errs.ENotFound},
		{"a device that does not exist", func(e *env) int64 { return e.owner }, func(*env) int64 { return 999 }, func(*env) int64 { return 0 }, devices.Right{}, errs.ENotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := e.sharing.Permissions(ctx, c.viewer(e), c.device(e), c.grantee(e))
			if c.err != "" {
				wantErr(t, err, c.err, "", "")
				return
			}
			if err != nil || r != c.want {
				t.Fatalf("got %+v, %v, want %+v", r, err, c.want)
			}
		})
	}
}

func TestService_SetPermissions(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		viewer  func(e *env) int64
		device  func(e *env) int64
		grantee func(e *env) int64
		set     devices.Right
		err     errs.Kind
		want    devices.Right // the grantee's right on the station afterwards
	}{
		{"flags set, ownership never", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee },
			devices.OwnerRight, "", devices.Right{Rename: true, Settings: true, Export: true}},
		{"down to reading", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee },
			devices.Right{}, "", devices.Right{}},
		{"someone without a grant", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.stranger },
			devices.Right{Export: true}, errs.ENotFound, devices.Right{Rename: true}},
		{"on an unshared device", func(e *env) int64 { return e.owner }, func(e *env) int64 { return e.plot.ID }, func(e *env) int64 { return e.grantee },
			devices.Right{Export: true}, errs.ENotFound, devices.Right{Rename: true}},
		{"the grantee raising its own", func(e *env) int64 { return e.grantee }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee },
			devices.OwnerRight, errs.EForbidden, devices.Right{Rename: true}},
		{"a stranger", func(e *env) int64 { return e.stranger }, func(e *env) int64 { return e.soil.ID }, func(e *env) int64 { return e.grantee },
			devices.OwnerRight, errs.ENotFound, devices.Right{Rename: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			err := e.sharing.SetPermissions(ctx, c.viewer(e), c.device(e), c.grantee(e), c.set)
			if c.err != "" {
				wantErr(t, err, c.err, "", "")
			} else if err != nil {
				t.Fatal(err)
			}
			if r, err := e.sharing.Permissions(ctx, e.grantee, e.soil.ID, 0); err != nil || r != c.want {
				t.Fatalf("the grantee's right: %+v %v, want %+v", r, err, c.want)
			}
		})
	}
}

func TestService_Lists(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.accept(e.stranger, e.offer(e.owner, sharing.KindGrant, devices.Right{Export: true}, e.plot.ID))
	ids := func(es []sharing.Entry) (out [][2]int64) {
		for _, x := range es {
			out = append(out, [2]int64{x.Device.ID, x.Grantee.ID})
		}
		slices.SortFunc(out, func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		return out
	}
	cases := []struct {
		name string
		list func() ([]sharing.Entry, error)
		want [][2]int64
		err  errs.Kind
	}{
		{"shared with the grantee", func() ([]sharing.Entry, error) { return e.sharing.SharedWithMe(ctx, e.grantee) },
			[][2]int64{{e.soil.ID, e.grantee}}, ""},
		{"shared with the owner", func() ([]sharing.Entry, error) { return e.sharing.SharedWithMe(ctx, e.owner) }, nil, ""},
		{"granted by the owner", func() ([]sharing.Entry, error) { return e.sharing.Granted(ctx, e.owner) },
			[][2]int64{{e.soil.ID, e.grantee}, {e.plot.ID, e.stranger}}, ""},
		{"granted by the grantee", func() ([]sharing.Entry, error) { return e.sharing.Granted(ctx, e.grantee) }, nil, ""},
		{"grantees of one device", func() ([]sharing.Entry, error) { return e.sharing.Grantees(ctx, e.owner, e.plot.ID) },
			[][2]int64{{e.plot.ID, e.stranger}}, ""},
		{"grantees asked by a grantee", func() ([]sharing.Entry, error) { return e.sharing.Grantees(ctx, e.grantee, e.soil.ID) }, nil, errs.EForbidden},
		{"grantees asked by a stranger", func() ([]sharing.Entry, error) { return e.sharing.Grantees(ctx, e.stranger, e.soil.ID) }, nil, errs.ENotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es, err := c.list()
			if c.err != "" {
				wantErr(t, err, c.err, "", "")
				return
			}
			if err != nil || !slices.Equal(ids(es), c.want) {
				t.Fatalf("got %v, %v, want %v", ids(es), err, c.want)
			}
		})
	}
}
