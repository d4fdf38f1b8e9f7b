package devices

import (
	"context"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Right is what a caller may do with a device they can see: the owner
// everything, a grantee reading plus the flags of their grant (SPEC §6).
type Right struct {
	Owner    bool
	Rename   bool // edit name and profile
	Settings bool // edit settings
	Export   bool // export data
}

// OwnerRight is the owner's: everything.
var OwnerRight = Right{Owner: true, Rename: true, Settings: true, Export: true}

// Need is what a call needs of a device.
type Need int

const (
	NeedRead     Need = iota // see it and its data: owner or any grantee
	NeedRename               // edit its name and profile
	NeedSettings             // edit its settings
	NeedExport               // export its data
	NeedOwner                // remove, transfer, share, read its key
	// NeedControl is sending it commands (open a valve, take a picture). A
	// grant's settings right carries it: changing how a device works is
	// what that right is for (docs/decisions.md).
	NeedControl
)

var needNames = [...]string{"read", "rename", "settings", "export", "owner", "control"}

func (n Need) String() string { return needNames[n] }

// Allows reports whether r covers n.
func (r Right) Allows(n Need) bool {
	switch n {
	case NeedRead:
		return true
	case NeedRename:
		return r.Rename
	case NeedSettings, NeedControl:
		return r.Settings
	case NeedExport:
		return r.Export
	}
	return r.Owner
}

// Denied is the error for a visible device whose right lacks n: 'No
// permission to export!' for exports, 'No permission to modify!' otherwise.
func (n Need) Denied() error {
	if n == NeedExport {
		return errs.New(errs.EForbidden, "export.noRight")
	}
	return errs.New(errs.EForbidden, "device.noModifyRight")
}

// Authorize is the one permission check of every device-scoped call: it
// returns the device and the viewer's right when the viewer holds need on
// it; ENOTFOUND when the viewer cannot see it (exactly as for a device that
// does not exist) and EFORBIDDEN when they see it without the right.
func (s *Service) Authorize(ctx context.Context, viewer, id int64, need Need) (*Device, Right, error) {
	d, r, err := s.store.DeviceRight(ctx, viewer, id)
	if err != nil {
		return nil, Right{}, err
	}
	if !r.Allows(need) {
		return nil, Right{}, need.Denied()
	}
	return d, r, nil
}

// Open is Authorize for a call that shows the device: it also carries the
// viewer's tags on it. Errors are as Authorize's.
func (s *Service) Open(ctx context.Context, viewer, id int64, need Need) (*Device, Right, error) {
	d, r, err := s.Authorize(ctx, viewer, id, need)
	if err != nil {
		return nil, Right{}, err
	}
	tags, err := s.store.DeviceTags(ctx, viewer, []int64{id})
	if err != nil {
		return nil, Right{}, err
	}
	d.Tags = tags[id]
	return d, r, nil
}
