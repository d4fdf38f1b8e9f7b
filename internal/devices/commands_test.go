package devices_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

func TestCommands_PerType(t *testing.T) {
	for _, ty := range devices.Types() {
		names := []string{}
		for _, c := range ty.Commands {
			names = append(names, c.Name)
		}
		got := strings.Join(names, ",")
		want := "reportInterval"
		switch {
		case ty.Camera:
			want = "capture,light,captureInterval,reportInterval"
		case ty.ID == 10:
			want = "open,close,openFor,reportInterval"
		}
		if got != want {
			t.Errorf("type %d: %s, want %s", ty.ID, got, want)
		}
		if s := ty.SlaveType(); s != nil && len(s.Commands) != 0 {
			t.Errorf("type %d: the slave, without a modem, takes commands", ty.ID)
		}
		for _, c := range ty.Commands {
			for _, l := range i18n.Langs {
				if c.Label(l) == "" {
					t.Errorf("type %d %s: no name in %s", ty.ID, c.Name, l)
				}
			}
		}
	}
}

// Every rule of SPEC §5's control inputs (required, maximum size, pattern,
// numeric range, length range) refuses with a message naming the field in
// each language.
func TestCommands_InputRules(t *testing.T) {
	valve, _ := devices.TypeByID(10)
	camera, _ := devices.TypeByID(20)
	openFor, _ := valve.Command("openFor")
	light, _ := camera.Command("light")
	capture, _ := camera.Command("capture")

	type want struct {
		code, field string
		msg         map[i18n.Lang]string
	}
	cases := []struct {
		name   string
		def    *devices.CommandDef
		params string
		want   want
	}{
		{"required", openFor, `{}`, want{"command.input.required", "params.minutes", map[i18n.Lang]string{
			i18n.ZhCN: "请输入开阀时长", i18n.ZhTW: "請輸入開閥時長", i18n.EnUS: "Open for is required"}}},
		{"required, null", openFor, `{"minutes": null}`, want{"command.input.required", "params.minutes", nil}},
		{"required, no params", light, ``, want{"command.input.required", "params.state", map[i18n.Lang]string{
			i18n.ZhCN: "请输入开关", i18n.ZhTW: "請輸入開關", i18n.EnUS: "On or off is required"}}},
		{"maximum size", light, `{"state": "` + strings.Repeat("o", 300) + `"}`, want{"command.input.tooLarge", "params", map[i18n.Lang]string{
			i18n.ZhCN: "指令参数不能超过 256 字节", i18n.ZhTW: "指令參數不能超過 256 位元組", i18n.EnUS: "Command parameters must be at most 256 bytes"}}},
		{"length below", light, `{"state": "o"}`, want{"command.input.length", "params.state", map[i18n.Lang]string{
			i18n.ZhCN: "开关长度须在 2 到 3 个字符之间", i18n.ZhTW: "開關長度須在 2 到 3 個字元之間", i18n.EnUS: "On or off must be 2 to 3 characters long"}}},
		{"length above", light, `{"state": "open"}`, want{"command.input.length", "params.state", nil}},
		{"pattern", light, `{"state": "dim"}`, want{"command.input.pattern", "params.state", map[i18n.Lang]string{
			i18n.ZhCN: "开关格式不正确", i18n.ZhTW: "開關格式不正確", i18n.EnUS: "On or off is not in the required format"}}},
		{"range below", openFor, `{"minutes": 0}`, want{"command.input.range", "params.minutes", map[i18n.Lang]string{
			i18n.ZhCN: "开阀时长须在 1 到 720 之间", i18n.ZhTW: "開閥時長須在 1 到 720 之間", i18n.EnUS: "Open for must be between 1 and 720"}}},
		{"range above", openFor, `{"minutes": 721}`, want{"command.input.range", "params.minutes", nil}},
		{"whole minutes", openFor, `{"minutes": 2.5}`, want{"command.input.type", "params.minutes", map[i18n.Lang]string{
			i18n.EnUS: "Open for has the wrong type"}}},
		{"number as text", openFor, `{"minutes": "5"}`, want{"command.input.type", "params.minutes", nil}},
		{"text as number", light, `{"state": 1}`, want{"command.input.type", "params.state", nil}},
		{"unknown input", capture, `{"zoom": 2}`, want{"command.input.unknown", "params.zoom", map[i18n.Lang]string{
			i18n.EnUS: "params.zoom: the command has no such parameter"}}},
		{"not an object", openFor, `[5]`, want{"command.input.malformed", "params", map[i18n.Lang]string{
			i18n.ZhTW: "指令參數須為 JSON 物件"}}},
	}
	for _, c := range cases {
		_, err := c.def.Check(json.RawMessage(c.params))
		e := errs.As(err)
		if e == nil || e.Kind != errs.EInvalid || e.Code != c.want.code || e.Field != c.want.field {
			t.Errorf("%s: %v, want %s on %s", c.name, err, c.want.code, c.want.field)
			continue
		}
		for lang, msg := range c.want.msg {
			if got := i18n.Message(lang, e.Code, e.Field, e.Params); got != msg {
				t.Errorf("%s, %s: %q, want %q", c.name, lang, got, msg)
			}
		}
	}

	// Valid inputs come back decoded.
	if p, err := openFor.Check(json.RawMessage(`{"minutes": 720}`)); err != nil || p["minutes"] != int64(720) {
		t.Errorf("720 minutes: %v %v", p, err)
	}
	if p, err := light.Check(json.RawMessage(` {"state": "off"} `)); err != nil || p["state"] != "off" {
		t.Errorf("off: %v %v", p, err)
	}
	if p, err := capture.Check(nil); err != nil || len(p) != 0 {
		t.Errorf("capture: %v %v", p, err)
	}
}
