// Package config holds the typed options of every subcommand. Each flag can
// also be set in the environment as FIELDWATCH_<NAME> (dashes become
// underscores); a flag on the command line wins over the environment.
package config

import (
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
)

// EnvPrefix starts the environment name of every option.
const EnvPrefix = "FIELDWATCH_"

// Store selects the database.
type Store struct {
	Data     string // directory for the SQLite file and other local data
	DB       string // a postgres:// URL switches to PostgreSQL
	Secret   string // file holding the server secret; default {Data}/secret.key
	Timezone string // where a day begins for daily rollups
	DBConns  int    // PostgreSQL: connections this node opens at most
}

// SecretFile is the secret's path.
func (s *Store) SecretFile() string {
	if s.Secret != "" {
		return s.Secret
	}
	return filepath.Join(s.Data, "secret.key")
}

// Location loads the timezone.
func (s *Store) Location() (*time.Location, error) {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return nil, fmt.Errorf("--timezone %q: %v", s.Timezone, err)
	}
	return loc, nil
}

// Serve is the configuration of `fieldwatch serve`.
type Serve struct {
	Store
	Log
	Addr       string
	Demo       bool
	TrustProxy bool
	// TrustedProxies are the proxies whose X-Forwarded-* headers count under
	// TrustProxy; nil leaves the HTTP server's default (loopback).
	TrustedProxies []netip.Prefix
	TLSCert        string
	TLSKey         string
	SessionTTL     time.Duration

	MetricsAddr   string        // listener of its own for GET /metrics; empty serves none
	ShutdownDelay time.Duration // on SIGTERM, /readyz answers 503 this long before the node stops serving
	MetricsToken  string        // bearer token that opens GET /metrics on --addr; empty keeps it closed there

	MQTT       string // embedded broker's plain listener; "" or "off" disables it
	MQTTS      string // embedded broker's MQTT-over-TLS listener; "" serves none
	MQTTWS     string // embedded broker's MQTT-over-WebSocket listener; "" serves none
	MQTTQueue  int    // messages to a device that may wait to be written, per connection
	MQTTBuffer int    // read and write buffer per connection, bytes
	// MemoryLimit is the Go runtime's soft memory limit: "auto" (3/4 of the
	// cgroup's memory limit, else of the machine's memory; GOMEMLIMIT when
	// set), "off", or a size such as 150MiB.
	MemoryLimit  string
	MQTTTLSCert  string // the TLS listeners' certificate; default TLSCert
	MQTTTLSKey   string // its key; default TLSKey
	DeviceCACert string // CA that signs device certificates; default {Data}/device-ca.pem, created on first use
	DeviceCAKey  string // its key; default {Data}/device-ca.key
	// ACME: certificates of ACMEDomains from an ACME CA for HTTPS and the
	// MQTT TLS listeners, cached under {Data}/acme.
	ACMEDomains   []string
	ACMEEmail     string
	ACMEDirectory string        // the CA's directory URL; "" is Let's Encrypt
	ACMECA        string        // PEM file of CAs that check the directory's HTTPS (a private ACME server)
	MQTTBroker    string        // external broker URL; replaces the embedded one
	MQTTClientID  string        // client id on the external broker
	MQTTDynSec    bool          // keep device logins on the external Mosquitto through its dynamic-security plugin
	MQTTAuthToken string        // bearer token of the external broker's questions (/broker/v1/*); empty: 404 there
	RetentionRaw  time.Duration // raw readings older than this are deleted; rollups stay
	DemoInterval  time.Duration // live report interval of the demo fleet
	DemoDays      int           // days of history the demo fleet starts with

	SMTPURL  string // smtp:// or smtps:// server for outgoing mail; empty disables e-mail
	MailFrom string // sender of outgoing mail
	MapTiles string // osm, amap or a tile URL template
	// WeChat template messages for alert notifications; empty AppID disables them.
	WeChatAPI, WeChatAppID, WeChatSecret, WeChatTemplate string
	// WeChatToken checks the messages WeChat pushes to /apis/wechat/callback;
	// with it, accounts link WeChat and log in by QR code (images from WeChatMP).
	WeChatToken, WeChatMP string
	// SMS verification codes through Aliyun's SMS API (dysmsapi SendSms);
	// empty SMSURL disables them.
	SMSURL, SMSAccessKeyID, SMSAccessKeySecret, SMSSignName, SMSTemplate string
	// ForecastURL is the weather forecast provider (Open-Meteo's API); empty disables forecasts.
	ForecastURL string
	// LLMURL is an OpenAI-compatible chat-completions API that answers farm
	// questions (with LLMModel and LLMKey); empty: the embedded advisor answers.
	LLMURL, LLMModel, LLMKey string
	// LLMTimeout bounds one streamed answer of the model.
	LLMTimeout time.Duration
	// BriefingFont is the TrueType font (or collection) embedded in briefing PDFs.
	BriefingFont string
	// WarningFeed is an upstream weather warning feed in CAP 1.2 (one alert or an Atom feed); empty: none.
	WarningFeed string
	// PushAllowPrivate lets push targets resolve to the server's own network.
	PushAllowPrivate bool
	// PushRetries are the waits before each retry of a failed delivery;
	// nil is the push worker's default.
	PushRetries []time.Duration
	// PublicURL is the console's address as users reach it, for links in notifications.
	PublicURL string
	// FeedbackMail is the operator's address each new feedback is mailed
	// to (through SMTPURL); empty mails none.
	FeedbackMail string
}

// Log configures logging.
type Log struct {
	Format string // text or json
	Level  string // debug, info, warn, error
}

// BindStore registers the store flags.
func BindStore(fs *flag.FlagSet, s *Store) {
	fs.StringVar(&s.Data, "data", "./data", "directory for the SQLite database and local data")
	fs.StringVar(&s.DB, "db", "", "PostgreSQL URL (postgres://user:pass@host:5432/db); empty uses SQLite under --data")
	fs.IntVar(&s.DBConns, "db-conns", 20, "PostgreSQL: connections this node opens at most; nodes × this must stay under the server's max_connections (more requests wait for a free one)")
	fs.StringVar(&s.Secret, "secret-file", "", "file with the server secret that seals device keys, created if absent; every node of one deployment needs the same (default {data}/secret.key)")
	fs.StringVar(&s.Timezone, "timezone", "Asia/Shanghai", "the farm's IANA time zone: days begin in it (daily history, downloads) and the console shows device times on its clock")
}

// BindLog registers the logging flags.
func BindLog(fs *flag.FlagSet, l *Log) {
	fs.StringVar(&l.Format, "log-format", "text", "log format: text or json")
	fs.StringVar(&l.Level, "log-level", "info", "log level: debug, info, warn or error")
}

// BindServe registers every serve flag.
func BindServe(fs *flag.FlagSet, s *Serve) {
	BindStore(fs, &s.Store)
	BindLog(fs, &s.Log)
	fs.StringVar(&s.Addr, "addr", ":8080", "HTTP listen address")
	fs.BoolVar(&s.Demo, "demo", false, "create the demo account demo01 (password demo123456) if absent")
	fs.BoolVar(&s.TrustProxy, "trust-proxy", false, "trust X-Forwarded-For and X-Forwarded-Proto from the reverse proxies of --trusted-proxies")
	fs.Func("trusted-proxies", "with --trust-proxy: addresses or CIDR ranges of the reverse proxies, comma-separated; the client is the rightmost X-Forwarded-For address that is not one of them (default loopback: 127.0.0.0/8,::1)", func(v string) error {
		ps, err := ParsePrefixes(v)
		s.TrustedProxies = ps
		return err
	})
	fs.StringVar(&s.TLSCert, "tls-cert", "", "TLS certificate file; with --tls-key serves HTTPS")
	fs.StringVar(&s.TLSKey, "tls-key", "", "TLS private key file")
	fs.StringVar(&s.MetricsAddr, "metrics-addr", "", "serve GET /metrics (Prometheus) on this address of its own, e.g. 127.0.0.1:9464; empty serves it nowhere but under --metrics-token")
	fs.StringVar(&s.MetricsToken, "metrics-token", "", "serve GET /metrics on --addr too, to callers sending this as a bearer token (at least 16 characters); empty: 404 there")
	fs.DurationVar(&s.ShutdownDelay, "shutdown-delay", 0, "on SIGTERM or SIGINT, keep serving this long with /readyz answering 503 (\"draining\") before stopping, so a load balancer takes the node out first, e.g. 10s; a second signal stops at once")
	fs.DurationVar(&s.SessionTTL, "session-ttl", 7*24*time.Hour, "a login session unused for this long expires")
	fs.StringVar(&s.MQTT, "mqtt", ":1883", "embedded MQTT broker's plain listen address for devices; off (or empty) turns plain MQTT off")
	fs.IntVar(&s.MQTTQueue, "mqtt-queue", 32, "embedded broker: messages to a device (commands) that may wait to be written, per connection; one more closes the connection (Quota exceeded) and the device gets them when it reconnects")
	fs.IntVar(&s.MQTTBuffer, "mqtt-buffer", 1024, "embedded broker: read and write buffer per connection, bytes (larger messages are still read whole)")
	fs.StringVar(&s.MemoryLimit, "memory-limit", "auto", "soft memory limit of the process, the garbage collector's target: auto (3/4 of the cgroup's limit, else of the machine's memory; GOMEMLIMIT when set), off, or a size such as 150MiB or 1GB")
	fs.StringVar(&s.MQTTS, "mqtts", "", "MQTT over TLS (1.2, 1.3) listen address of the embedded broker, e.g. :8883; needs --mqtt-tls-cert or --tls-cert; devices log in with their key or a device certificate")
	fs.StringVar(&s.MQTTWS, "mqtt-ws", "", "MQTT over WebSocket listen address of the embedded broker, e.g. :8083 (any path); over TLS (wss) when a certificate is configured")
	fs.StringVar(&s.MQTTTLSCert, "mqtt-tls-cert", "", "certificate of the MQTT TLS listeners (default --tls-cert); reloaded on change and on SIGHUP")
	fs.StringVar(&s.MQTTTLSKey, "mqtt-tls-key", "", "key of --mqtt-tls-cert (default --tls-key)")
	fs.StringVar(&s.DeviceCACert, "device-ca-cert", "", "CA certificate that signs device certificates (default {data}/device-ca.pem, created with its key on first use)")
	fs.StringVar(&s.DeviceCAKey, "device-ca-key", "", "key of --device-ca-cert (default {data}/device-ca.key, mode 0600)")
	fs.Func("acme-domain", "obtain and renew the HTTPS and MQTT TLS certificate of these names (comma-separated) from an ACME CA (Let's Encrypt) with the TLS-ALPN-01 challenge: --addr must be reachable on port 443 of each name; cached under {data}/acme; replaces --tls-cert", func(v string) error {
		s.ACMEDomains = nil
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				s.ACMEDomains = append(s.ACMEDomains, part)
			}
		}
		if len(s.ACMEDomains) == 0 {
			return fmt.Errorf("give at least one name")
		}
		return nil
	})
	fs.StringVar(&s.ACMEEmail, "acme-email", "", "with --acme-domain: contact address given to the ACME CA (expiry notices)")
	fs.StringVar(&s.ACMEDirectory, "acme-directory", "", "with --acme-domain: the ACME CA's directory URL (default Let's Encrypt's https://acme-v02.api.letsencrypt.org/directory)")
	fs.StringVar(&s.ACMECA, "acme-ca", "", "with --acme-domain: PEM file of the CAs that sign the ACME directory's own HTTPS certificate (a private ACME server); default the system's")
	fs.StringVar(&s.MQTTBroker, "mqtt-broker", "", "external MQTT 5 broker URL (tcp://user:pass@host:1883); replaces the embedded broker")
	fs.BoolVar(&s.MQTTDynSec, "mqtt-dynsec", false, "with --mqtt-broker on Mosquitto 2: keep every device's login (SN and key, its own topics only) on the broker through its dynamic-security plugin, as devices are added, rekeyed and retired; the --mqtt-broker user needs the plugin's admin role")
	fs.StringVar(&s.MQTTAuthToken, "mqtt-auth-token", "", "with --mqtt-broker: answer the broker's HTTP authentication and authorization (EMQX 5's HTTP authenticator and authorizer, mosquitto-go-auth's HTTP backend) at POST /broker/v1/authenticate and /broker/v1/authorize, to a broker sending this as a bearer token (at least 16 characters); devices log in with SN and key, the nodes with the --mqtt-broker user")
	fs.StringVar(&s.MQTTClientID, "mqtt-client-id", "", "with --mqtt-broker: this node's client id, unique per node and stable across restarts (default fieldwatch-{hostname})")
	s.RetentionRaw = 400 * 24 * time.Hour
	fs.Func("retention-raw", "keep raw readings this long, e.g. 400d or 9600h; daily rollups are kept (default 400d)", func(v string) error {
		d, err := ParseDays(v)
		if err == nil && d < 24*time.Hour {
			err = fmt.Errorf("must be at least 1d")
		}
		s.RetentionRaw = d
		return err
	})
	fs.DurationVar(&s.DemoInterval, "demo-interval", time.Minute, "with --demo: time between live reports of each demo device")
	fs.IntVar(&s.DemoDays, "demo-days", 30, "with --demo: days of 10-minute history the demo fleet starts with")
	fs.StringVar(&s.SMTPURL, "smtp-url", "", "SMTP server for outgoing mail (data exports): smtp://user:pass@host:port[?starttls=require|opportunistic|none] or smtps://…; empty disables e-mail")
	fs.StringVar(&s.MailFrom, "mail-from", mail.DefaultFrom, "sender address of outgoing mail")
	fs.StringVar(&s.FeedbackMail, "feedback-mail", "", "the operator's e-mail address: each feedback sent from the console is mailed there with its screenshots (needs --smtp-url); empty mails none, feedback is still kept and listed by \"fieldwatch feedback list\"")
	fs.StringVar(&s.WeChatAPI, "wechat-api", "https://api.weixin.qq.com", "WeChat Official Account API base URL (alert template messages, JS-SDK signatures of pages inside WeChat)")
	fs.StringVar(&s.WeChatAppID, "wechat-appid", "", "WeChat Official Account app id; empty disables WeChat notifications")
	fs.StringVar(&s.WeChatSecret, "wechat-secret", "", "WeChat Official Account app secret")
	fs.StringVar(&s.WeChatToken, "wechat-token", "", "WeChat Official Account server token (the callback URL {--public-url}/apis/wechat/callback checks pushed messages with it); enables linking WeChat and QR login")
	fs.StringVar(&s.WeChatMP, "wechat-mp-url", "https://mp.weixin.qq.com", "base URL of WeChat QR code images (showqrcode)")
	fs.StringVar(&s.SMSURL, "sms-url", "", "Aliyun SMS API base URL (https://dysmsapi.aliyuncs.com) for phone verification codes; empty disables phone binding")
	fs.StringVar(&s.SMSAccessKeyID, "sms-access-key-id", "", "Aliyun AccessKey ID of the SMS API")
	fs.StringVar(&s.SMSAccessKeySecret, "sms-access-key-secret", "", "Aliyun AccessKey secret of the SMS API")
	fs.StringVar(&s.SMSSignName, "sms-sign-name", "", "approved SMS signature name (shown in 【】)")
	fs.StringVar(&s.SMSTemplate, "sms-template", "", "approved SMS template code whose text has a ${code} variable, e.g. SMS_123456789")
	fs.StringVar(&s.WeChatTemplate, "wechat-template", "", "WeChat template id of alert messages (fields first, keyword1-3, remark)")
	fs.StringVar(&s.LLMURL, "llm-url", "", "OpenAI-compatible chat-completions API for farm questions (vLLM, Ollama, llama.cpp server, a cloud provider), e.g. http://127.0.0.1:11434/v1; empty: the embedded advisor answers")
	fs.StringVar(&s.LLMModel, "llm-model", "", "model name sent to --llm-url")
	fs.StringVar(&s.LLMKey, "llm-key", "", "API key sent to --llm-url as a bearer token (optional)")
	fs.DurationVar(&s.LLMTimeout, "llm-timeout", 2*time.Minute, "longest a streamed answer of --llm-url may take")
	fs.StringVar(&s.ForecastURL, "forecast-url", "", "weather forecast provider speaking Open-Meteo's API, e.g. https://api.open-meteo.com; empty: views say the forecast is unavailable")
	fs.StringVar(&s.BriefingFont, "briefing-font", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "TrueType font or collection (its first face) with Chinese glyphs, embedded in soil-moisture briefing PDFs (Debian: fonts-wqy-microhei)")
	fs.StringVar(&s.WarningFeed, "warning-feed", "", "upstream weather warning feed: a CAP 1.2 alert or an Atom feed of CAP alerts (national early-warning release system, a weather service); empty: typhoon, hail, fog and the other types a station cannot measure are listed as needing a feed")
	fs.StringVar(&s.PublicURL, "public-url", "", "the console's address as users reach it (links in notifications), e.g. https://farm.example.com")
	fs.Func("push-retries", "waits before each retry of a failed push delivery, comma-separated; after the last it is kept as failed (default 1s,2s,4s,8s,16s,32s,64s,128s)", func(v string) error {
		var ds []time.Duration
		for part := range strings.SplitSeq(v, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(part))
			if err != nil || d <= 0 {
				return fmt.Errorf("%q is not a positive duration", part)
			}
			ds = append(ds, d)
		}
		if len(ds) == 0 || len(ds) > 20 {
			return fmt.Errorf("give 1 to 20 waits")
		}
		s.PushRetries = ds
		return nil
	})
	fs.BoolVar(&s.PushAllowPrivate, "push-allow-private", false, "let data-push channels target loopback, private and link-local addresses (the server's own network)")
	fs.StringVar(&s.MapTiles, "map-tiles", "osm", "map tiles: osm, amap (高德, GCJ-02), or a URL template with {z}, {x}, {y} (prefix gcj02: for a GCJ-02 source)")
}

// ParsePrefixes parses a comma-separated list of addresses and CIDR ranges;
// an address is a range of one.
func ParsePrefixes(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("give at least one address or CIDR range")
	}
	return out, nil
}

// ParseDays parses a duration that may be given in days ("400d").
func ParseDays(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a number of days", v)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

// Validate checks values the flag package cannot.
func (s *Serve) Validate() error {
	if err := s.Log.Validate(); err != nil {
		return err
	}
	if (s.TLSCert == "") != (s.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key must be given together")
	}
	if (s.MQTTTLSCert == "") != (s.MQTTTLSKey == "") {
		return fmt.Errorf("--mqtt-tls-cert and --mqtt-tls-key must be given together")
	}
	if (s.DeviceCACert == "") != (s.DeviceCAKey == "") {
		return fmt.Errorf("--device-ca-cert and --device-ca-key must be given together")
	}
	if s.MQTT == "off" {
		s.MQTT = ""
	}
	if len(s.ACMEDomains) > 0 && s.TLSCert != "" {
		return fmt.Errorf("--acme-domain obtains the certificate itself; it cannot be combined with --tls-cert")
	}
	if len(s.ACMEDomains) == 0 && (s.ACMEEmail != "" || s.ACMEDirectory != "" || s.ACMECA != "") {
		return fmt.Errorf("--acme-email, --acme-directory and --acme-ca need --acme-domain")
	}
	if s.ACMEDirectory != "" {
		if u, err := url.Parse(s.ACMEDirectory); err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("--acme-directory %q: must be an https:// URL", s.ACMEDirectory)
		}
	}
	if s.MQTTS != "" {
		if c, _ := s.MQTTCertPair(); c == "" && len(s.ACMEDomains) == 0 {
			return fmt.Errorf("--mqtts needs a certificate: --mqtt-tls-cert and --mqtt-tls-key, --tls-cert and --tls-key, or --acme-domain")
		}
	}
	if s.MQTTAuthToken != "" && s.MQTTBroker == "" {
		return fmt.Errorf("--mqtt-auth-token answers an external broker: it needs --mqtt-broker")
	}
	if s.MQTTAuthToken != "" && len(s.MQTTAuthToken) < 16 {
		return fmt.Errorf("--mqtt-auth-token: must be at least 16 characters")
	}
	if s.MQTTDynSec && s.MQTTBroker == "" {
		return fmt.Errorf("--mqtt-dynsec keeps device logins on an external broker: it needs --mqtt-broker")
	}
	if s.MQTTBroker != "" && (s.MQTTS != "" || s.MQTTWS != "") {
		return fmt.Errorf("--mqtts and --mqtt-ws are listeners of the embedded broker; they cannot be combined with --mqtt-broker")
	}
	if s.TrustedProxies != nil && !s.TrustProxy {
		return fmt.Errorf("--trusted-proxies needs --trust-proxy")
	}
	if s.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(s.MetricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr %q: must be host:port, e.g. 127.0.0.1:9464", s.MetricsAddr)
		}
	}
	if s.MetricsToken != "" && len(s.MetricsToken) < 16 {
		return fmt.Errorf("--metrics-token: must be at least 16 characters")
	}
	if s.MQTTQueue < 1 || s.MQTTQueue > 65535 {
		return fmt.Errorf("--mqtt-queue %d: must be 1 to 65535", s.MQTTQueue)
	}
	if s.MQTTBuffer < 256 || s.MQTTBuffer > 1<<20 {
		return fmt.Errorf("--mqtt-buffer %d: must be 256 to 1048576 bytes", s.MQTTBuffer)
	}
	if _, err := s.MemoryLimitBytes(); err != nil {
		return err
	}
	if s.SessionTTL < time.Minute {
		return fmt.Errorf("--session-ttl %s: must be at least 1m", s.SessionTTL)
	}
	if _, err := s.Location(); err != nil {
		return err
	}
	if s.MQTTBroker != "" && s.Demo {
		return fmt.Errorf("--demo runs its fleet on the embedded broker; it cannot be combined with --mqtt-broker")
	}
	if s.Demo && s.MQTT == "" {
		return fmt.Errorf("--demo runs its fleet on the embedded broker; it cannot be combined with --mqtt off")
	}
	if s.DemoInterval < time.Second {
		return fmt.Errorf("--demo-interval %s: must be at least 1s", s.DemoInterval)
	}
	if s.DemoDays < 0 || s.DemoDays > 400 {
		return fmt.Errorf("--demo-days %d: must be between 0 and 400", s.DemoDays)
	}
	if s.SMTPURL != "" {
		if _, err := mail.ParseURL(s.SMTPURL); err != nil {
			return fmt.Errorf("--smtp-url: %v", err)
		}
	}
	if _, err := mail.ParseFrom(s.MailFrom); err != nil {
		return fmt.Errorf("--mail-from: %v", err)
	}
	if s.FeedbackMail != "" {
		if s.SMTPURL == "" {
			return fmt.Errorf("--feedback-mail needs --smtp-url")
		}
		if _, err := mail.ParseFrom(s.FeedbackMail); err != nil {
			return fmt.Errorf("--feedback-mail: %v", err)
		}
	}
	if _, err := maptiles.Parse(s.MapTiles); err != nil {
		return fmt.Errorf("--map-tiles %v", err)
	}
	if s.WeChatAppID != "" && (s.WeChatSecret == "" || s.WeChatTemplate == "") {
		return fmt.Errorf("--wechat-appid needs --wechat-secret and --wechat-template")
	}
	if s.LLMURL != "" && s.LLMModel == "" {
		return fmt.Errorf("--llm-url needs --llm-model")
	}
	if s.WeChatToken != "" && s.WeChatAppID == "" {
		return fmt.Errorf("--wechat-token needs --wechat-appid")
	}
	if s.SMSURL != "" && (s.SMSAccessKeyID == "" || s.SMSAccessKeySecret == "" || s.SMSSignName == "" || s.SMSTemplate == "") {
		return fmt.Errorf("--sms-url needs --sms-access-key-id, --sms-access-key-secret, --sms-sign-name and --sms-template")
	}
	for name, v := range map[string]string{"--sms-url": s.SMSURL, "--wechat-mp-url": s.WeChatMP, "--wechat-api": s.WeChatAPI, "--public-url": s.PublicURL, "--forecast-url": s.ForecastURL, "--warning-feed": s.WarningFeed, "--llm-url": s.LLMURL} {
		if v == "" && name != "--wechat-api" && name != "--wechat-mp-url" {
			continue
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s %q: must be an http:// or https:// URL", name, v)
		}
	}
	s.PublicURL = strings.TrimRight(s.PublicURL, "/")
	return nil
}

// MQTTCertPair is the certificate and key of the MQTT TLS listeners:
// --mqtt-tls-cert/--mqtt-tls-key, else the HTTP pair; "" without either.
func (s *Serve) MQTTCertPair() (cert, key string) {
	if s.MQTTTLSCert != "" {
		return s.MQTTTLSCert, s.MQTTTLSKey
	}
	return s.TLSCert, s.TLSKey
}

// EmbeddedBroker reports whether serve runs the embedded broker: not with
// --mqtt-broker, and not with every listener off.
func (s *Serve) EmbeddedBroker() bool {
	return s.MQTTBroker == "" && (s.MQTT != "" && s.MQTT != "off" || s.MQTTS != "" || s.MQTTWS != "")
}

// Validate checks the log options.
func (l *Log) Validate() error {
	switch l.Format {
	case "text", "json":
	default:
		return fmt.Errorf("--log-format %q: must be text or json", l.Format)
	}
	switch l.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("--log-level %q: must be debug, info, warn or error", l.Level)
	}
	return nil
}

// EnvName is the environment variable for a flag.
func EnvName(flagName string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Parse parses args, then fills every flag not given on the command line from
// its environment variable. Each flag's usage is extended with that name.
func Parse(fs *flag.FlagSet, args []string) error {
	fs.VisitAll(func(f *flag.Flag) { f.Usage += " (env " + EnvName(f.Name) + ")" })
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || err != nil {
			return
		}
		if v, ok := os.LookupEnv(EnvName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %v", EnvName(f.Name), v, e)
			}
		}
	})
	return err
}

// DefaultServe returns the serve configuration with every flag at its default.
func DefaultServe() Serve {
	var s Serve
	BindServe(flag.NewFlagSet("serve", flag.ContinueOnError), &s)
	return s
}
