package rules

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Devices is what the rule service needs to know about devices: whether
// the caller can see one, and its type.
type Devices interface {
	Get(ctx context.Context, viewer, id int64) (*devices.Device, devices.Right, error)
}

// Options configure the rule service.
type Options struct {
	Store   Store
	Devices Devices
	Now     func() time.Time
}

// Service is the business side of rules and events: every call is scoped
// to the caller.
type Service struct{ Options }

// New returns the rule service.
func New(o Options) *Service { return &Service{Options: o} }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// check validates r for owner: fields, then that every device (the rule's
// and those its expressions read) is one owner can see and of the right type.
func (s *Service) check(ctx context.Context, owner int64, r *Rule) error {
	if err := r.Validate(RegistryCatalogue{}); err != nil {
		return err
	}
	for _, id := range r.DeviceIDs {
		d, _, err := s.Devices.Get(ctx, owner, id)
		if err != nil {
			if errs.KindOf(err) == errs.ENotFound {
				return errs.Invalid("deviceIds", "rule.devices.unknown")
			}
			return err
		}
		if d.TypeID != r.TypeID {
			return errs.Invalid("deviceIds", "rule.devices.type")
		}
	}
	for i := range r.Expressions {
		x := &r.Expressions[i]
		if x.DeviceID == 0 {
			continue
		}
		d, _, err := s.Devices.Get(ctx, owner, x.DeviceID)
		if err != nil {
			if errs.KindOf(err) == errs.ENotFound {
				return errs.Invalid("expressions", "rule.expression.device")
			}
			return err
		}
		if err := x.CheckForeign(RegistryCatalogue{}, d.TypeID); err != nil {
			return err
		}
	}
	return nil
}

// Create validates and stores a new rule of owner. Returns EINVALID: the
// rule's own fields (see Validate), rule.devices.unknown or
// rule.devices.type (deviceIds) for a device owner cannot see or of another
// type, rule.expression.device for an expression's device owner cannot
// see, and CheckForeign's codes for that device's parameter and nodes;
// ENOTFOUND when a device stops being visible while the rule is stored.
func (s *Service) Create(ctx context.Context, owner int64, r *Rule) error {
	r.OwnerID = owner
	if err := s.check(ctx, owner, r); err != nil {
		return err
	}
	r.CreatedAt, r.UpdatedAt = s.now(), s.now()
	return s.Store.CreateRule(ctx, r)
}

// Update replaces one of owner's rules. Returns ENOTFOUND (no such rule of
// owner's), EINVALID as Create.
func (s *Service) Update(ctx context.Context, owner int64, r *Rule) error {
	old, err := s.Store.Rule(ctx, owner, r.ID)
	if err != nil {
		return err
	}
	r.OwnerID = owner
	if err := s.check(ctx, owner, r); err != nil {
		return err
	}
	r.CreatedAt, r.UpdatedAt = old.CreatedAt, s.now()
	return s.Store.UpdateRule(ctx, r)
}

// SetEnabled switches one of owner's rules on or off. Returns ENOTFOUND.
func (s *Service) SetEnabled(ctx context.Context, owner, id int64, enabled bool) error {
	return s.Store.SetRuleEnabled(ctx, owner, id, enabled)
}

// SetDevices replaces the devices of one of owner's rules. Returns
// ENOTFOUND (no such rule of owner's), EINVALID as Create.
func (s *Service) SetDevices(ctx context.Context, owner, id int64, deviceIDs []int64) error {
	r, err := s.Store.Rule(ctx, owner, id)
	if err != nil {
		return err
	}
	r.DeviceIDs = deviceIDs
	if err := s.check(ctx, owner, r); err != nil {
		return err
	}
	return s.Store.SetRuleDevices(ctx, owner, id, r.DeviceIDs)
}

// Get returns one of owner's rules. Returns ENOTFOUND.
func (s *Service) Get(ctx context.Context, owner, id int64) (*Rule, error) {
	return s.Store.Rule(ctx, owner, id)
}

// List returns a page of owner's rules. Fails only with EINTERNAL.
func (s *Service) List(ctx context.Context, owner int64, page, size int) ([]*Rule, int, error) {
	return s.Store.Rules(ctx, owner, page, size)
}

// Delete deletes one of owner's rules and its events. Returns ENOTFOUND.
func (s *Service) Delete(ctx context.Context, owner, id int64) error {
	return s.Store.DeleteRule(ctx, owner, id)
}

// Events returns a page of owner's events. Fails only with EINTERNAL.
func (s *Service) Events(ctx context.Context, owner int64, f EventFilter) ([]*Event, int, error) {
	return s.Store.Events(ctx, owner, f)
}

// Unread counts owner's unread messages. Fails only with EINTERNAL.
func (s *Service) Unread(ctx context.Context, owner int64) (int, error) {
	return s.Store.Unread(ctx, owner)
}

// MarkRead marks messages read (all when ids is empty) and returns how
// many it marked; ids that are not owner's unread messages are skipped.
// Fails only with EINTERNAL.
func (s *Service) MarkRead(ctx context.Context, owner int64, ids []int64) (int, error) {
	return s.Store.MarkRead(ctx, owner, ids, s.now())
}
