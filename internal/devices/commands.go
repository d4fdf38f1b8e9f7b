package devices

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// InputKind is the JSON type of a command input.
type InputKind string

const (
	InputInt    InputKind = "int"    // a whole number
	InputString InputKind = "string" // text
)

// Input is one parameter of a command, with the checks of SPEC §5's
// control inputs: required, numeric range min–max, length range,
// format pattern (the command's Def.MaxSize bounds the whole input).
type Input struct {
	Name     string // key in the command's params
	Names    Names
	Kind     InputKind
	Required bool
	Unit     string  // shown after the value: "min"
	Min, Max float64 // range of an InputInt
	// MinLen and MaxLen bound an InputString in characters.
	MinLen, MaxLen int
	// Pattern is a regular expression an InputString must match whole.
	Pattern string
	// Options are the values a client offers for an InputString (the
	// pattern still decides what is accepted).
	Options []string
	re      *regexp.Regexp
}

// Name returns the input's label in lang.
func (in *Input) Label(lang i18n.Lang) string { return in.Names.In(lang) }

// CommandDef is a command a device type accepts.
type CommandDef struct {
	Name  string // wire name; never renamed
	Names Names
	// Inputs are the command's parameters, in the order a form shows them.
	Inputs []Input
	// MaxSize bounds the params object as JSON, in bytes: what the
	// device's command buffer holds.
	MaxSize int
	// Confirms, when set, says whether a report's readings show the command
	// in force, which confirms it as well as the device's acknowledgement.
	Confirms func(params map[string]any, value func(param string) (float64, bool)) bool
}

// Label returns the command's name in lang.
func (c *CommandDef) Label(lang i18n.Lang) string { return c.Names.In(lang) }

// Command returns the command of the type with the given name.
func (t *Type) Command(name string) (*CommandDef, bool) {
	for i := range t.Commands {
		if t.Commands[i].Name == name {
			return &t.Commands[i], true
		}
	}
	return nil, false
}

// Command names. Every type with a modem takes CmdReportInterval; the
// others belong to cameras and valve controllers.
const (
	CmdReportInterval  = "reportInterval"
	CmdCapture         = "capture"
	CmdLight           = "light"
	CmdCaptureInterval = "captureInterval"
	CmdOpen            = "open"
	CmdClose           = "close"
	CmdOpenFor         = "openFor"
)

// maxCommandSize bounds the params of every command: a device's downlink
// buffer is small, and no command needs more.
const maxCommandSize = 256

var minutesNames = Names{"分钟数", "分鐘數", "Minutes"}

func minutes(names Names, lo, hi float64) Input {
	return Input{Name: "minutes", Names: names, Kind: InputInt, Required: true, Unit: "min", Min: lo, Max: hi}
}

var reportIntervalCmd = CommandDef{
	Name: CmdReportInterval, Names: Names{"设置上报间隔", "設定上報間隔", "Set report interval"},
	Inputs:  []Input{minutes(Names{"上报间隔", "上報間隔", "Report interval"}, MinReportInterval, MaxReportInterval)},
	MaxSize: maxCommandSize,
}

// valveIs confirms a valve command by the valve state a report shows.
func valveIs(open float64) func(map[string]any, func(string) (float64, bool)) bool {
	return func(_ map[string]any, value func(string) (float64, bool)) bool {
		v, ok := value("valveState")
		return ok && v == open
	}
}

var valveCommands = []CommandDef{
	{Name: CmdOpen, Names: Names{"开阀", "開閥", "Open valve"}, MaxSize: maxCommandSize, Confirms: valveIs(1)},
	{Name: CmdClose, Names: Names{"关阀", "關閥", "Close valve"}, MaxSize: maxCommandSize, Confirms: valveIs(0)},
	{Name: CmdOpenFor, Names: Names{"定时开阀", "定時開閥", "Open for a time"}, MaxSize: maxCommandSize,
		Inputs:   []Input{minutes(Names{"开阀时长", "開閥時長", "Open for"}, 1, 720)},
		Confirms: valveIs(1)},
	reportIntervalCmd,
}

var cameraCommands = []CommandDef{
	{Name: CmdCapture, Names: Names{"立即拍照", "立即拍照", "Capture now"}, MaxSize: maxCommandSize},
	{Name: CmdLight, Names: Names{"补光灯", "補光燈", "Light"}, MaxSize: maxCommandSize,
		Inputs: []Input{{Name: "state", Names: Names{"开关", "開關", "On or off"}, Kind: InputString, Required: true,
			MinLen: 2, MaxLen: 3, Pattern: `on|off`, Options: []string{"on", "off"}}}},
	{Name: CmdCaptureInterval, Names: Names{"设置拍照间隔", "設定拍照間隔", "Set capture interval"}, MaxSize: maxCommandSize,
		Inputs: []Input{minutes(Names{"拍照间隔", "拍照間隔", "Capture interval"}, 10, 1440)}},
	reportIntervalCmd,
}

func init() {
	for _, t := range registry {
		switch {
		case t.Camera:
			t.Commands = cameraCommands
		case t.Category == CategoryIrrigation:
			t.Commands = valveCommands
		default:
			t.Commands = []CommandDef{reportIntervalCmd}
		}
		for i := range t.Commands {
			c := &t.Commands[i]
			for j := range c.Inputs {
				if p := c.Inputs[j].Pattern; p != "" {
					c.Inputs[j].re = regexp.MustCompile(`^(?:` + p + `)$`)
				}
			}
		}
	}
}

// field is an input's place in an error: its JSON path, and its label in
// each language for the message.
func (in *Input) invalid(code string, params map[string]any) *errs.Error {
	p := map[string]any{"field": in.Names}
	for k, v := range params {
		p[k] = v
	}
	return errs.Invalid(fmt.Sprintf("params.%s", in.Name), code).With(p)
}

var paramsNames = Names{"指令参数", "指令參數", "Command parameters"}

// Check validates a command's params (a JSON object, or empty for none)
// against its inputs and returns them decoded: numbers as int64, text as
// string. Returns EINVALID naming the field: command.input.tooLarge
// (params), command.input.malformed (params), command.input.unknown,
// command.input.required, command.input.type, command.input.length,
// command.input.pattern, command.input.range (params.{input}).
func (c *CommandDef) Check(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > c.MaxSize {
		return nil, errs.Invalid("params", "command.input.tooLarge").
			With(map[string]any{"field": paramsNames, "max": c.MaxSize})
	}
	fields := map[string]json.RawMessage{}
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, errs.Invalid("params", "command.input.malformed").With(map[string]any{"field": paramsNames})
		}
	}
	out := map[string]any{}
	for name := range fields {
		known := false
		for i := range c.Inputs {
			known = known || c.Inputs[i].Name == name
		}
		if !known {
			path := fmt.Sprintf("params.%s", name)
			return nil, errs.Invalid(path, "command.input.unknown").With(map[string]any{"field": path})
		}
	}
	for i := range c.Inputs {
		in := &c.Inputs[i]
		v, ok := fields[in.Name]
		if !ok || bytes.Equal(v, []byte("null")) {
			if in.Required {
				return nil, in.invalid("command.input.required", nil)
			}
			continue
		}
		val, err := in.check(v)
		if err != nil {
			return nil, err
		}
		out[in.Name] = val
	}
	return out, nil
}

func (in *Input) check(v json.RawMessage) (any, error) {
	switch in.Kind {
	case InputInt:
		var f float64
		if err := json.Unmarshal(v, &f); err != nil || v[0] == '"' {
			return nil, in.invalid("command.input.type", map[string]any{"type": "int"})
		}
		if f != math.Trunc(f) {
			return nil, in.invalid("command.input.type", map[string]any{"type": "int"})
		}
		if f < in.Min || f > in.Max {
			return nil, in.invalid("command.input.range", map[string]any{"min": in.Min, "max": in.Max})
		}
		return int64(f), nil
	default:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, in.invalid("command.input.type", map[string]any{"type": "string"})
		}
		if n := utf8.RuneCountInString(s); n < in.MinLen || (in.MaxLen > 0 && n > in.MaxLen) {
			return nil, in.invalid("command.input.length", map[string]any{"min": in.MinLen, "max": in.MaxLen})
		}
		if in.re != nil && !in.re.MatchString(s) {
			return nil, in.invalid("command.input.pattern", nil)
		}
		return s, nil
	}
}
