package httpapi

import (
	"encoding/json"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// inputDTO is one input of a command form.
type inputDTO struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"` // int or string
	Required bool     `json:"required"`
	Unit     string   `json:"unit,omitempty"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	MinLen   *int     `json:"minLength,omitempty"`
	MaxLen   *int     `json:"maxLength,omitempty"`
	Pattern  string   `json:"pattern,omitempty"`
	Options  []string `json:"options,omitempty"`
}

type commandDefDTO struct {
	Name    string     `json:"name"`
	Label   string     `json:"label"`
	Inputs  []inputDTO `json:"inputs"`
	MaxSize int        `json:"maxSize"`
}

// commandDefs serves GET /apis/poi/{id}/commands/definitions: the commands
// the device accepts, with their inputs and checks, and whether the caller
// may send them.
func (s *Server) commandDefs(c *call) (any, error) {
	out := struct {
		Allowed  bool            `json:"allowed"`
		Commands []commandDefDTO `json:"commands"`
	}{Allowed: c.right.Allows(devices.NeedControl), Commands: []commandDefDTO{}}
	t := c.device.Type()
	if t == nil {
		return out, nil
	}
	for i := range t.Commands {
		def := &t.Commands[i]
		d := commandDefDTO{Name: def.Name, Label: def.Label(c.lang), Inputs: []inputDTO{}, MaxSize: def.MaxSize}
		for j := range def.Inputs {
			in := &def.Inputs[j]
			dto := inputDTO{Name: in.Name, Label: in.Label(c.lang), Kind: string(in.Kind), Required: in.Required,
				Unit: in.Unit, Pattern: in.Pattern, Options: in.Options}
			if in.Kind == devices.InputInt {
				dto.Min, dto.Max = &in.Min, &in.Max
			} else {
				dto.MinLen, dto.MaxLen = &in.MinLen, &in.MaxLen
			}
			d.Inputs = append(d.Inputs, dto)
		}
		out.Commands = append(out.Commands, d)
	}
	return out, nil
}

type commandBody struct {
	Name   string          `json:"name"`
	Params json.RawMessage `json:"params"`
}

func (b *commandBody) validate() error {
	if b.Name == "" {
		return errs.Invalid("name", "error.required")
	}
	return nil
}

// sendCommand serves POST /apis/poi/{id}/commands {name, params}: the
// command as recorded, usually already pending.
func (s *Server) sendCommand(c *call) (any, error) {
	var b commandBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	cmd, err := s.Commands.SendAuthorized(c.r.Context(), commands.Sender{Account: c.account.ID, Source: commands.SourceConsole},
		c.device, b.Name, b.Params)
	if err != nil {
		return nil, err
	}
	return toCommand(c.lang, c.device, cmd), nil
}

// listCommands serves GET /apis/poi/{id}/commands?page=&size=: the
// device's commands, newest first.
func (s *Server) listCommands(c *call) (any, error) {
	p, err := readPage(c)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Commands.List(c.r.Context(), c.account.ID, c.device.ID, p.offset(), p.size)
	if err != nil {
		return nil, err
	}
	out := pageDTO[commandDTO]{List: make([]commandDTO, 0, len(list)), Total: total}
	for _, cmd := range list {
		out.List = append(out.List, toCommand(c.lang, c.device, cmd))
	}
	return out, nil
}

// getCommand serves GET /apis/poi/{id}/commands/{commandId}.
func (s *Server) getCommand(c *call) (any, error) {
	id, err := pathID(c, "commandId")
	if err != nil {
		return nil, err
	}
	cmd, err := s.Commands.Get(c.r.Context(), c.account.ID, c.device.ID, id)
	if err != nil {
		return nil, err
	}
	return toCommand(c.lang, c.device, cmd), nil
}

// commandDTO is a command with its states' times (unix ms; null until
// reached).
type commandDTO struct {
	ID          int64          `json:"id"`
	Name        string         `json:"name"`
	Label       string         `json:"label"`
	Params      map[string]any `json:"params"`
	State       string         `json:"state"`
	ReasonCode  string         `json:"reasonCode,omitempty"`
	Reason      string         `json:"reason,omitempty"`
	ConfirmedBy string         `json:"confirmedBy,omitempty"`
	Source      string         `json:"source"`
	By          *senderDTO     `json:"by"`
	SubmittedAt int64          `json:"submittedAt"`
	PendingAt   *int64         `json:"pendingAt"`
	DeliveredAt *int64         `json:"deliveredAt"`
	FinishedAt  *int64         `json:"finishedAt"`
	ExpiresAt   int64          `json:"expiresAt"`
}

type senderDTO struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func toCommand(lang i18n.Lang, d *devices.Device, cmd *commands.Command) commandDTO {
	label := cmd.Name
	if t := d.Type(); t != nil {
		if def, ok := t.Command(cmd.Name); ok {
			label = def.Label(lang)
		}
	}
	out := commandDTO{ID: cmd.ID, Name: cmd.Name, Label: label, Params: cmd.Params, State: string(cmd.State),
		ReasonCode: cmd.ReasonCode, ConfirmedBy: string(cmd.ConfirmedBy), Source: string(cmd.Source),
		SubmittedAt: cmd.SubmittedAt.UnixMilli(), PendingAt: ms(cmd.PendingAt), DeliveredAt: ms(cmd.DeliveredAt),
		FinishedAt: ms(cmd.FinishedAt), ExpiresAt: cmd.ExpiresAt.UnixMilli()}
	if out.Params == nil {
		out.Params = map[string]any{}
	}
	if cmd.ReasonCode != "" {
		out.Reason = i18n.T(lang, cmd.ReasonCode, map[string]any{"reason": cmd.Reason})
	}
	if cmd.By != 0 {
		out.By = &senderDTO{ID: cmd.By, Name: cmd.ByName}
	}
	return out
}
