// Package commands sends commands to devices and follows each through its
// states (SPEC §4): submitted, then pending ('will take effect': delivered
// to the device, or queued until it next connects or reports), then
// effective (the device acknowledged it, or its next report shows it in
// force); or failed (the device said so, with its reason) or expired (no
// acknowledgement within the command's time to live).
//
// Every command is recorded: who sent it, from where, what, and when it
// reached each state. The device link (package ingest) delivers commands
// through a Link and reports acknowledgements, uplinks and reports here.
package commands

import (
	"encoding/json"
	"time"
)

// State is where a command is.
type State string

const (
	// StateSubmitted is a command being recorded. Send records a checked
	// command pending at once (its submittedAt and pendingAt are the same
	// instant), so the store holds this state only for a command that
	// failed on its way in.
	StateSubmitted State = "submitted"
	StatePending   State = "pending"   // will take effect: delivered, or queued for the device
	StateEffective State = "effective" // acknowledged, or confirmed by a report
	StateFailed    State = "failed"    // the device refused or could not carry it out
	StateExpired   State = "expired"   // no acknowledgement within its time to live
)

// Open reports whether a command in state s still waits for the device.
func (s State) Open() bool { return s == StateSubmitted || s == StatePending }

// Source is where a command was sent from.
type Source string

const (
	SourceConsole  Source = "console"  // the console's device page
	SourceSettings Source = "settings" // saving the device's settings
	SourcePortal   Source = "portal"   // a device's unified portal
	SourceAPI      Source = "api"      // the thingverse device API
)

// Confirmation is what made a command effective.
type Confirmation string

const (
	ByAck    Confirmation = "ack"    // the device acknowledged it
	ByReport Confirmation = "report" // a report showed it in force
)

// Reason codes of a command that did not take effect (i18n keys).
const (
	ReasonDevice       = "command.reason.device"       // the device's own reason follows
	ReasonNotDelivered = "command.reason.notDelivered" // the device never connected or reported in time
	ReasonNoAck        = "command.reason.noAck"        // delivered, never acknowledged
)

// Command is one command to one device.
type Command struct {
	ID       int64
	DeviceID int64
	Name     string
	Params   map[string]any
	By       int64  // the account that sent it; 0 if since deleted
	ByName   string // its name, as the store reads it back
	Source   Source

	State       State
	ReasonCode  string // why it failed or expired (i18n key)
	Reason      string // the device's own words, for a failure it reported
	ConfirmedBy Confirmation

	SubmittedAt time.Time
	PendingAt   *time.Time
	DeliveredAt *time.Time // handed to the device (its PUBACK, or the HTTP answer carrying it)
	FinishedAt  *time.Time // effective, failed or expired
	ExpiresAt   time.Time
}

// Wire is a command as the device receives it on devices/{sn}/commands
// and in the answer to an HTTP report (docs/device-protocol.md).
type Wire struct {
	ID        int64          `json:"id"`
	Name      string         `json:"name"`
	Params    map[string]any `json:"params"`
	Time      int64          `json:"ts"`        // unix ms, when it was sent
	ExpiresAt int64          `json:"expiresAt"` // unix ms; not carried out after
}

// Wire returns the command as a device receives it.
func (c *Command) Wire() Wire {
	p := c.Params
	if p == nil {
		p = map[string]any{}
	}
	return Wire{ID: c.ID, Name: c.Name, Params: p, Time: c.SubmittedAt.UnixMilli(), ExpiresAt: c.ExpiresAt.UnixMilli()}
}

// Payload is the command's MQTT payload.
func (c *Command) Payload() []byte {
	b, _ := json.Marshal(c.Wire())
	return b
}
