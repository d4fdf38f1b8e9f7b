package httpapi

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// The external broker's questions (--mqtt-auth-token): who may connect
// (POST /broker/v1/authenticate) and what a client may do (POST
// /broker/v1/authorize), in the request and answer format of EMQX 5's HTTP
// authenticator and authorizer; mosquitto-go-auth's HTTP backend (JSON
// answers) asks the same. The broker sends the token as a bearer token.
//
// Requests: a JSON object or a form, with username, password (to
// authenticate), topic and either action ("publish", "subscribe", EMQX) or
// acc (1 read, 2 write, 3 both, 4 subscribe: mosquitto-go-auth). Other
// fields (clientid, peerhost, …) are ignored. Answers: 200 with
// {"result": "allow" | "deny", "is_superuser": false, "ok": bool}; 401
// without the token, 503 when the store cannot answer (EMQX then goes on
// down its chain: "ignore").

// brokerQuestion is the fields of a broker's question.
type brokerQuestion struct {
	Username, Password, Topic, Action string
	Acc                               int
}

// brokerAsks checks the broker's token and reads its question; false when
// it has answered already.
func (s *Server) brokerAsks(w http.ResponseWriter, r *http.Request) (brokerQuestion, bool) {
	var q brokerQuestion
	if s.BrokerAuthToken == "" || s.Ingest == nil {
		http.NotFound(w, r)
		return q, false
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.BrokerAuthToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fieldwatch broker"`)
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return q, false
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	fields := map[string]string{}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/json" {
		var raw map[string]any
		if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
			http.Error(w, "the body is not a JSON object", http.StatusBadRequest)
			return q, false
		}
		for k, v := range raw {
			switch v := v.(type) {
			case string:
				fields[k] = v
			case float64:
				fields[k] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
	} else {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "the body is not a form", http.StatusBadRequest)
			return q, false
		}
		for k := range r.PostForm {
			fields[k] = r.PostForm.Get(k)
		}
	}
	q.Username, q.Password, q.Topic, q.Action = fields["username"], fields["password"], fields["topic"], fields["action"]
	q.Acc, _ = strconv.Atoi(fields["acc"])
	return q, true
}

// access is what the question asks for; 0 for nothing known.
func (q brokerQuestion) access() ingest.Access {
	switch q.Action {
	case "publish":
		return ingest.AccessPublish
	case "subscribe":
		return ingest.AccessSubscribe
	}
	switch q.Acc {
	case 1:
		return ingest.AccessReceive
	case 2:
		return ingest.AccessPublish
	case 3:
		return ingest.AccessReceive | ingest.AccessPublish
	case 4:
		return ingest.AccessSubscribe
	}
	return 0
}

func (s *Server) brokerAuth() ingest.BrokerAuth {
	return ingest.BrokerAuth{Pipeline: s.Ingest, NodeUser: s.BrokerNodeUser, NodePassword: s.BrokerNodePassword}
}

// brokerAuthenticate serves POST /broker/v1/authenticate.
func (s *Server) brokerAuthenticate(w http.ResponseWriter, r *http.Request) {
	q, ok := s.brokerAsks(w, r)
	if !ok {
		return
	}
	allow, err := s.brokerAuth().Authenticate(r.Context(), q.Username, q.Password)
	s.brokerAnswer(w, allow, err, "broker login refused", "username", q.Username)
}

// brokerAuthorize serves POST /broker/v1/authorize.
func (s *Server) brokerAuthorize(w http.ResponseWriter, r *http.Request) {
	q, ok := s.brokerAsks(w, r)
	if !ok {
		return
	}
	allow, err := s.brokerAuth().Authorize(r.Context(), q.Username, q.Topic, q.access())
	s.brokerAnswer(w, allow, err, "broker topic refused", "username", q.Username, "topic", q.Topic, "action", fmt.Sprint(q.Action, q.Acc))
}

func (s *Server) brokerAnswer(w http.ResponseWriter, allow bool, err error, refused string, attrs ...any) {
	if err != nil {
		s.log.Warn("broker question", append(attrs, "err", err)...)
		http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
		return
	}
	result := "allow"
	if !allow {
		result = "deny"
		s.log.Info(refused, attrs...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": result, "is_superuser": false, "ok": allow, "error": ""})
}
