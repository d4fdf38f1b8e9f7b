package rules

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Kind is what an event says: the rule's condition began (warning) or
// ended (common, back to normal).
type Kind string

const (
	KindWarning Kind = "warning"
	KindCommon  Kind = "common"
)

// Transition is the engine's verdict on one report of one device for one
// rule, handed to the store, which turns it into an event only if it
// changes the rule's recorded state (see Store.Apply).
type Transition struct {
	Rule     *Rule
	DeviceID int64
	At       time.Time // the report's time
	Firing   bool
	// Unknown: the report could not be judged (a value missing); the state
	// only records that it was evaluated.
	Unknown bool
	Values  []Judged
}

// Judged is one expression's value at a transition, kept with the event.
type Judged struct {
	ExpressionID int     `json:"expressionId"`
	Param        string  `json:"param"`
	Nodes        []int   `json:"nodes,omitempty"`
	DeviceID     int64   `json:"deviceId,omitempty"`
	Value        float64 `json:"value"`
}

// Event is a stored alert event; to its rule's owner it is also a message.
type Event struct {
	ID       int64
	RuleID   int64
	RuleName string
	DeviceID int64
	SN       string
	TypeID   int
	OwnerID  int64
	Kind     Kind
	Level    Level
	At       time.Time
	Created  time.Time
	Values   []Judged
	Read     bool
	// Rule is the rule as it was evaluated (set on new events, for
	// notifications).
	Rule *Rule
}

// EventFilter selects events.
type EventFilter struct {
	DeviceID   int64
	RuleID     int64
	Level      Level
	Kind       Kind
	UnreadOnly bool
	Begin, End time.Time // zero: unbounded
	Page, Size int
}

// Store is what rules need from the database.
type Store interface {
	CreateRule(ctx context.Context, r *Rule) error
	UpdateRule(ctx context.Context, r *Rule) error
	DeleteRule(ctx context.Context, owner, id int64) error
	Rule(ctx context.Context, owner, id int64) (*Rule, error)
	Rules(ctx context.Context, owner int64, page, size int) ([]*Rule, int, error)
	SetRuleEnabled(ctx context.Context, owner, id int64, enabled bool) error
	SetRuleDevices(ctx context.Context, owner, id int64, deviceIDs []int64) error

	// RulesForDevices returns the enabled rules evaluated for each device
	// whose owners can still see the device.
	RulesForDevices(ctx context.Context, deviceIDs []int64) (map[int64][]*Rule, error)
	// OfflineCandidates returns, for every enabled rule on offline
	// minutes, its devices and their last report times.
	OfflineCandidates(ctx context.Context) ([]OfflineCandidate, error)
	// Apply records a transition in one transaction: if At is newer than
	// the state's last evaluation and Firing differs from it, the state
	// flips; an event is stored when the condition begins (unless inside
	// the rule's silent period since its last event) or ends (if it had
	// raised one), with one queued notification per method for a
	// warning. It returns the new event or nil. Two nodes applying the
	// same transition store it once. A report older than the last one
	// judged applies nothing and returns ErrStale.
	Apply(ctx context.Context, t Transition, now time.Time) (*Event, error)
	// Episode records, in one transaction, a warning at start and its
	// return at end that reports judged out of order hid: nothing when the
	// state has not been judged up to end, an event of the rule and device
	// lies between them, the last event before start is a warning, or start
	// lies in the silent period after the last warning. It returns the
	// warning or nil.
	Episode(ctx context.Context, start, end Transition, now time.Time) (*Event, error)
	// JudgedUntil returns, for each of these devices with a rule state, the
	// time of the oldest last-judged report among its enabled rules.
	JudgedUntil(ctx context.Context, deviceIDs []int64) (map[int64]time.Time, error)
	// Unevaluated returns, for each device whose last report (at or after
	// since, before until) is newer than some enabled rule's last
	// evaluation of it (offline rules aside), that report: the device's
	// latest readings of its time. Reports committed on a node that stopped
	// before evaluating them are found here.
	Unevaluated(ctx context.Context, since, until time.Time) ([]*telemetry.Report, error)

	Events(ctx context.Context, owner int64, f EventFilter) ([]*Event, int, error)
	Unread(ctx context.Context, owner int64) (int, error)
	MarkRead(ctx context.Context, owner int64, ids []int64, now time.Time) (int, error)

	// Readings returns stored readings (windows, and the reports between
	// the last judged one and a new one).
	Readings(ctx context.Context, q telemetry.Query) ([]telemetry.Reading, error)
}

// OfflineCandidate is a device under an offline rule.
type OfflineCandidate struct {
	Rule       *Rule
	DeviceID   int64
	LastReport *time.Time
	Created    time.Time
}
