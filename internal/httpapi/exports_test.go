package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// exportEnv is the HTTP API with the export service and its worker sending
// to an SMTP server on loopback (none when smtp is false), and the map tile
// source tiles.
func exportEnv(t *testing.T, db *store.DB, smtp bool, tiles maptiles.Source) (*env, *mailtest.Server) {
	t.Helper()
	ctx := context.Background()
	svc := accounts.New(accounts.Options{Store: db})
	for _, a := range [][3]string{{"farmer01", "secret1", "东坡农场"}, {"farmer02", "secret2", "西岭农场"}} {
		if _, err := svc.Create(ctx, a[0], a[1], a[2]); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("Asia/Shanghai")
	dev := devices.New(devices.Options{Store: db, Keys: keys})
	o := exports.Options{Store: db, Devices: dev, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: loc}), Location: loc,
		Backoff: []time.Duration{time.Millisecond}, Heartbeat: 5 * time.Millisecond, Poll: 5 * time.Millisecond, TempDir: t.TempDir()}
	var server *mailtest.Server
	if smtp {
		if server, err = mailtest.Listen("127.0.0.1:0", mailtest.Options{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { server.Close() })
		sender, err := mail.New(mail.Config{URL: server.URL(), From: "Fieldwatch <exports@fieldwatch.test>"})
		if err != nil {
			t.Fatal(err)
		}
		o.Mailer = sender
	}
	ex := exports.New(o)
	jobs, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ex.Run(jobs)
	}()
	t.Cleanup(func() {
		stop()
		<-done
	})
	srv := httptest.NewServer(httpapi.New(httpapi.Options{Accounts: svc, Devices: dev, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: loc}), Images: db,
		Exports: ex, MapTiles: tiles, Location: loc, Metrics: metrics.New(), Ping: db.Ping,
		App: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, Log: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, svc: svc, db: db, devices: dev}, server
}

type exportStatus struct {
	TaskID     string
	Status     string
	Progress   int
	Rows       int64
	Attempts   int
	Error      string
	CreatedAt  int64
	FinishedAt *int64
}

// finished polls a job until it is sent, ready or failed.
func finished(t *testing.T, u *user, deviceID int64, taskID string) exportStatus {
	t.Helper()
	for {
		r := u.do("GET", fmt.Sprintf("/apis/poi/%d/datapoints/export/%s", deviceID, taskID), nil)
		r.want(t, 200, 0)
		st := decodeData[exportStatus](t, r)
		if st.Status == "sent" || st.Status == "ready" || st.Status == "failed" {
			return st
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// received waits for the next message and parses it.
func received(t *testing.T, s *mailtest.Server) (*mailtest.Message, *mailtest.Parsed) {
	t.Helper()
	m := <-s.C
	p, err := mailtest.Parse(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

func xlsxRows(t *testing.T, data []byte) (string, [][]string) {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetName(0)
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	return sheet, rows
}

func TestExports_MailedFile(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e, smtp := exportEnv(t, db, true, maptiles.Source{})
		soil := e.register("ZS0000012345", 2, "farmer01")
		loc, _ := time.LoadLocation("Asia/Shanghai")
		t0 := time.Date(2026, 6, 1, 8, 0, 0, 0, loc)
		// Three reports: everything; moisture at 10 cm only; the battery only.
		// A reading at 30 cm is not asked for, and one after the range is left out.
		e.write(soil, t0, telemetry.Point{Param: "soilMoisture", Node: 10, Value: 21.5},
			telemetry.Point{Param: "soilMoisture", Node: 20, Value: 30}, telemetry.Point{Param: "soilMoisture", Node: 30, Value: 33},
			telemetry.Point{Param: "battery", Value: 12.5})
		e.write(soil, t0.Add(10*time.Minute), telemetry.Point{Param: "soilMoisture", Node: 10, Value: 21.75})
		e.write(soil, t0.Add(20*time.Minute), telemetry.Point{Param: "battery", Value: 12.25})
		e.write(soil, t0.Add(24*time.Hour), telemetry.Point{Param: "battery", Value: 11})
		u := e.user("zh_CN")
		u.login("farmer01", "secret1").want(t, 200, 0)
		path := fmt.Sprintf("/apis/poi/%d/datapoints/export", soil.ID)
		begin, end := t0.Add(-time.Hour).UnixMilli(), t0.Add(time.Hour).UnixMilli()

		t.Run("XLSX", func(t *testing.T) {
			r := u.do("POST", path, map[string]any{"params": []string{"battery", "soilMoisture"}, "nodes": []int{20, 10},
				"email": "farmer@example.com", "begin": begin, "end": end, "dim": "raw"})
			r.want(t, 200, 0)
			task := decodeData[struct{ TaskID string }](t, r).TaskID
			if len(task) != 24 {
				t.Fatalf("taskId %q", task)
			}
			m, p := received(t, smtp)
			if m.From != "exports@fieldwatch.test" || len(m.To) != 1 || m.To[0] != "farmer@example.com" {
				t.Fatalf("envelope %s → %v", m.From, m.To)
			}
			d, _ := db.FindDeviceByID(context.Background(), soil.ID)
			if p.Subject != "Fieldwatch 数据导出："+d.Name || len(p.Attachments) != 1 {
				t.Fatalf("subject %q, %d attachments", p.Subject, len(p.Attachments))
			}
			for _, want := range []string{d.Name, "ZS0000012345", "2026-06-01 07:00", "2026-06-01 09:00", "土壤体积含水量、电池电压", "共 3 行"} {
				if !bytes.Contains([]byte(p.Text), []byte(want)) {
					t.Errorf("the text lacks %q: %s", want, p.Text)
				}
			}
			att := p.Attachments[0]
			if att.Name != "ZS0000012345_raw_20260601-20260601.xlsx" || att.ContentType != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
				t.Fatalf("attachment %q %q", att.Name, att.ContentType)
			}
			sheet, rows := xlsxRows(t, att.Data)
			want := [][]string{
				{"时间", "土壤体积含水量 10厘米 (%)", "土壤体积含水量 20厘米 (%)", "电池电压 (V)"},
				{"2026-06-01 08:00:00", "21.5", "30", "12.5"},
				{"2026-06-01 08:10:00", "21.75"},
				{"2026-06-01 08:20:00", "", "", "12.25"},
			}
			if sheet != "数据" || len(rows) != len(want) {
				t.Fatalf("sheet %q: %q", sheet, rows)
			}
			for i := range want {
				if !slices.Equal(rows[i], want[i]) {
					t.Errorf("row %d: %q, want %q", i+1, rows[i], want[i])
				}
			}
			st := finished(t, u, soil.ID, task)
			if st.TaskID != task || st.Status != "sent" || st.Progress != 100 || st.Rows != 3 || st.Attempts != 1 ||
				st.Error != "" || st.CreatedAt == 0 || st.FinishedAt == nil || *st.FinishedAt < st.CreatedAt {
				t.Fatalf("status: %+v", st)
			}
		})

		t.Run("DailyCSV", func(t *testing.T) {
			u.lang = "en_US"
			r := u.do("POST", path, map[string]any{"params": []string{"battery"}, "email": "farmer@example.com",
				"begin": t0.Add(-8 * time.Hour).UnixMilli(), "end": t0.Add(48 * time.Hour).UnixMilli(), "dim": "daily", "format": "csv"})
			r.want(t, 200, 0)
			task := decodeData[struct{ TaskID string }](t, r).TaskID
			_, p := received(t, smtp)
			if p.Subject != "Fieldwatch data export: "+soil.Name || len(p.Attachments) != 1 {
				t.Fatalf("subject %q", p.Subject)
			}
			att := p.Attachments[0]
			want := "\ufeffDate,Battery voltage minimum (V),Battery voltage last (V)\r\n" +
				"2026-06-01,12.25,12.25\r\n" +
				"2026-06-02,11,11\r\n"
			if att.Name != "ZS0000012345_daily_20260601-20260603.csv" || att.ContentType != "text/csv" || string(att.Data) != want {
				t.Fatalf("attachment %q %q: %q", att.Name, att.ContentType, att.Data)
			}
			if st := finished(t, u, soil.ID, task); st.Status != "sent" || st.Rows != 2 {
				t.Fatalf("status: %+v", st)
			}
		})

		t.Run("OthersSeeNothing", func(t *testing.T) {
			r := u.do("POST", path, map[string]any{"params": []string{"battery"}, "email": "farmer@example.com", "begin": begin, "end": end})
			task := decodeData[struct{ TaskID string }](t, r).TaskID
			received(t, smtp)
			other := e.user("en_US")
			other.login("farmer02", "secret2").want(t, 200, 0)
			body := map[string]any{"params": []string{"battery"}, "email": "x@example.com", "begin": begin, "end": end}
			for _, c := range []struct{ method, path string }{
				{"POST", path},
				{"GET", path + "/" + task},
			} {
				theirs := other.do(c.method, c.path, body)
				missing := other.do(c.method, "/apis/poi/987654321/datapoints/export"+c.path[len(path):], body)
				if theirs.status != 404 || theirs.Code != 1404 || theirs.Message != missing.Message || theirs.status != missing.status {
					t.Errorf("%s %s: another's device answers %d %d %q, a missing one %d %q", c.method, c.path,
						theirs.status, theirs.Code, theirs.Message, missing.status, missing.Message)
				}
			}
			// The creator, but through another of their devices or with a wrong id.
			rain := e.register("RG0000067890", 6, "farmer01")
			u.do("GET", fmt.Sprintf("/apis/poi/%d/datapoints/export/%s", rain.ID, task), nil).want(t, 404, 1404)
			u.do("GET", path+"/0123456789abcdef01234567", nil).want(t, 404, 1404)
			finished(t, u, soil.ID, task)
		})
	})
}

func TestExports_Retried(t *testing.T) {
	e, smtp := exportEnv(t, storetest.OpenSQLite(t), true, maptiles.Source{})
	rain := e.register("RG0000000001", 6, "farmer01")
	at := time.Now().Add(-time.Minute)
	e.write(rain, at, telemetry.Point{Param: "rainfall", Value: 0.5})
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	body := map[string]any{"params": []string{"rainfall"}, "email": "farmer@example.com",
		"begin": at.Add(-time.Hour).UnixMilli(), "end": at.Add(time.Hour).UnixMilli()}
	path := fmt.Sprintf("/apis/poi/%d/datapoints/export", rain.ID)

	t.Run("DeliveredOnTheSecondAttempt", func(t *testing.T) {
		smtp.Refuse(1)
		task := decodeData[struct{ TaskID string }](t, u.do("POST", path, body)).TaskID
		_, p := received(t, smtp)
		_, rows := xlsxRows(t, p.Attachments[0].Data)
		if len(rows) != 2 || rows[1][1] != "0.5" {
			t.Fatalf("rows: %q", rows)
		}
		if st := finished(t, u, rain.ID, task); st.Status != "sent" || st.Attempts != 2 || st.Error != "" {
			t.Fatalf("status: %+v", st)
		}
	})
	t.Run("FailedAfterThreeAttempts", func(t *testing.T) {
		smtp.Refuse(-1)
		defer smtp.Refuse(0)
		task := decodeData[struct{ TaskID string }](t, u.do("POST", path, body)).TaskID
		st := finished(t, u, rain.ID, task)
		if st.Status != "failed" || st.Attempts != 3 || st.Error != "Export failed, please try again later" || st.FinishedAt == nil {
			t.Fatalf("status: %+v", st)
		}
		for lang, want := range map[string]string{"zh_CN": "导出失败，请稍后重试", "zh_TW": "匯出失敗，請稍後重試"} {
			u.lang = lang
			if st := finished(t, u, rain.ID, task); st.Error != want {
				t.Errorf("%s: %q", lang, st.Error)
			}
		}
		u.lang = "en_US"
	})
}

// TestExports_Messages checks the export rules of SPEC.md §5 over HTTP, with
// the message in each language and the field it names.
func TestExports_Messages(t *testing.T) {
	e, smtp := exportEnv(t, storetest.OpenSQLite(t), true, maptiles.Source{})
	soil := e.register("ZS0000054321", 2, "farmer01")
	path := fmt.Sprintf("/apis/poi/%d/datapoints/export", soil.ID)
	begin := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ok := func() map[string]any {
		return map[string]any{"params": []string{"soilMoisture"}, "email": "farmer@example.com",
			"begin": begin.UnixMilli(), "end": begin.AddDate(0, 1, 0).UnixMilli(), "dim": "raw"}
	}
	with := func(k string, v any) map[string]any {
		b := ok()
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	type msgs struct{ zhCN, zhTW, enUS string }
	cases := []struct {
		name  string
		body  map[string]any
		field string
		want  msgs
	}{
		{"NoParameter", with("params", []string{}), "params",
			msgs{"请至少选择一个参数", "請至少選擇一個參數", "Please select at least one parameter"}},
		{"UnknownParameter", with("params", []string{"windSpeed"}), "params",
			msgs{"该设备没有参数 windSpeed", "該設備沒有參數 windSpeed", "This device has no parameter windSpeed"}},
		{"NoEmail", with("email", nil), "email",
			msgs{"请输入邮箱", "請輸入電子郵件", "Please enter email"}},
		{"InvalidEmail", with("email", "farmer@example"), "email",
			msgs{"请输入有效的邮箱地址", "請輸入有效的電子郵件地址", "Please enter a valid email address"}},
		{"EndNotAfterBegin", with("end", begin.UnixMilli()), "end",
			msgs{"结束时间须晚于开始时间", "結束時間須晚於開始時間", "The end must be after the beginning"}},
		{"OverOneYear", with("end", begin.AddDate(1, 0, 1).UnixMilli()), "begin",
			msgs{"下载时间范围最多为一年", "下載時間範圍最多為一年", "The download range may span at most one year"}},
		{"Dim", with("dim", "hourly"), "dim",
			msgs{"数据维度的取值无效", "資料維度的取值無效", "Dimension has an invalid value"}},
		{"NoBegin", with("begin", nil), "begin",
			msgs{"请输入开始时间", "請輸入開始時間", "Begin is required"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for lang, want := range map[string]string{"zh_CN": tc.want.zhCN, "zh_TW": tc.want.zhTW, "en_US": tc.want.enUS} {
				u := e.user(lang)
				u.login("farmer01", "secret1").want(t, 200, 0)
				r := u.do("POST", path, tc.body)
				r.want(t, 400, 1400)
				if r.Message != want || r.Error == nil || r.Error.Field != tc.field {
					t.Errorf("%s: %q %+v, want %q on %s", lang, r.Message, r.Error, want, tc.field)
				}
			}
		})
	}
	t.Run("ExactlyOneYearIsAllowed", func(t *testing.T) {
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		task := decodeData[struct{ TaskID string }](t, u.do("POST", path, with("end", begin.AddDate(1, 0, 0).UnixMilli()))).TaskID
		received(t, smtp)
		if st := finished(t, u, soil.ID, task); st.Status != "sent" || st.Rows != 0 {
			t.Fatalf("status: %+v", st)
		}
	})
}

func TestExports_WithoutMailServer(t *testing.T) {
	e, _ := exportEnv(t, storetest.OpenSQLite(t), false, maptiles.Source{})
	soil := e.register("ZS0000054321", 2, "farmer01")
	body := map[string]any{"params": []string{"soilMoisture"}, "email": "farmer@example.com", "begin": 1, "end": 2}
	for lang, want := range map[string]string{"zh_CN": "本服务器未配置邮件发送", "zh_TW": "本伺服器未設定郵件發送",
		"en_US": "E-mail sending is not configured on this server"} {
		u := e.user(lang)
		u.login("farmer01", "secret1").want(t, 200, 0)
		r := u.do("POST", fmt.Sprintf("/apis/poi/%d/datapoints/export", soil.ID), body)
		r.want(t, 503, 1503)
		if r.Message != want || r.Error.Key != "export.mailNotConfigured" {
			t.Errorf("%s: %q %+v", lang, r.Message, r.Error)
		}
		// Another's device still answers like a missing one.
		u.do("POST", "/apis/poi/987654321/datapoints/export", body).want(t, 404, 1404)
	}
}

// Without a mail server the page says so before the form, and an export
// asked for without an address ends ready for its owner to download.
func TestExports_DownloadWithoutMailServer(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e, _ := exportEnv(t, db, false, maptiles.Source{})
		soil := e.register("ZS0000054322", 2, "farmer01")
		loc, _ := time.LoadLocation("Asia/Shanghai")
		t0 := time.Date(2026, 6, 1, 8, 0, 0, 0, loc)
		e.write(soil, t0, telemetry.Point{Param: "soilMoisture", Node: 10, Value: 21.5})
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		cfg := decodeData[struct {
			Mail          bool
			FileKeepHours int
		}](t, u.do("GET", "/apis/export/config", nil))
		if cfg.Mail || cfg.FileKeepHours != 24 {
			t.Fatalf("config: %+v", cfg)
		}
		r := u.do("POST", fmt.Sprintf("/apis/poi/%d/datapoints/export", soil.ID), map[string]any{"params": []string{"soilMoisture"},
			"nodes": []int{10}, "begin": t0.Add(-time.Hour).UnixMilli(), "end": t0.Add(time.Hour).UnixMilli(), "format": "csv"})
		r.want(t, 200, 0)
		task := decodeData[struct{ TaskID string }](t, r).TaskID
		if st := finished(t, u, soil.ID, task); st.Status != "ready" || st.Rows != 1 || st.Progress != 100 {
			t.Fatalf("status: %+v", st)
		}
		file := fmt.Sprintf("/apis/poi/%d/datapoints/export/%s/file", soil.ID, task)
		get := func(u *user, path string) (int, http.Header, string) {
			t.Helper()
			res, err := u.http.Get(e.url + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, res.Header, string(b)
		}
		status, h, body := get(u, file)
		if status != 200 || h.Get("Content-Type") != "text/csv" || h.Get("Cache-Control") != "no-store" ||
			!strings.Contains(h.Get("Content-Disposition"), `filename="ZS0000054322_raw_20260601-20260601.csv"`) ||
			!strings.Contains(body, "2026-06-01 08:00:00,21.5") {
			t.Fatalf("file: %d %v %q", status, h, body)
		}
		// Nobody else gets it: another account, or the owner through a wrong task.
		other := e.user("en_US")
		other.login("farmer02", "secret2").want(t, 200, 0)
		if status, _, body := get(other, file); status != 404 || !strings.Contains(body, `"code":1404`) {
			t.Fatalf("another account: %d %s", status, body)
		}
		if status, _, _ := get(u, fmt.Sprintf("/apis/poi/%d/datapoints/export/%s/file", soil.ID, "0123456789abcdef01234567")); status != 404 {
			t.Fatalf("unknown task: %d", status)
		}
	})
}

func TestMapConfig(t *testing.T) {
	type config struct {
		URL, Subdomains, Coords, Attribution string
		MaxZoom                              int
	}
	for name, c := range map[string]struct {
		tiles maptiles.Source
		want  config
	}{
		"DefaultOSM": {maptiles.Source{}, config{"https://tile.openstreetmap.org/{z}/{x}/{y}.png", "", "wgs84", "© OpenStreetMap contributors", 19}},
		"AMap": {maptiles.AMap, config{"https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}",
			"1234", "gcj02", "© 高德地图 AutoNavi", 18}},
	} {
		t.Run(name, func(t *testing.T) {
			e, _ := exportEnv(t, storetest.OpenSQLite(t), false, c.tiles)
			u := e.user("en_US")
			u.do("GET", "/apis/map/config", nil).want(t, 401, 2)
			u.login("farmer01", "secret1").want(t, 200, 0)
			got := decodeData[config](t, u.do("GET", "/apis/map/config", nil))
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestPoiInfo_ByHashID(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e, _ := exportEnv(t, db, false, maptiles.Source{})
		rain := e.register("RG0000000009", 6, "farmer01")
		theirs := e.register("RG0000000010", 6, "farmer02")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		for _, route := range []string{"/apis/poi/info", "/apis/poi/detail"} {
			got := decodeData[struct {
				ID     int64
				HashID string
				Page   string
				Right  struct{ Owner bool }
			}](t, u.do("GET", route+"?hashId="+rain.HashID, nil))
			if got.ID != rain.ID || got.HashID != rain.HashID || got.Page != "pluviometer" || !got.Right.Owner {
				t.Fatalf("%s: %+v", route, got)
			}
			other := u.do("GET", route+"?hashId="+theirs.HashID, nil)
			missing := u.do("GET", route+"?hashId=0000000000000000", nil)
			if other.status != 404 || other.Code != 1404 || other.Message != missing.Message || missing.status != 404 {
				t.Errorf("%s: another's hashId answers %d %q, a missing one %d %q", route, other.status, other.Message, missing.status, missing.Message)
			}
			r := u.do("GET", route, nil)
			r.want(t, 400, 1400)
			if r.Error.Field != "id" {
				t.Errorf("%s without id or hashId: %+v", route, r.Error)
			}
		}
	})
}
