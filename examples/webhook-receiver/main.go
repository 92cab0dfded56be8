// Command webhook-receiver is a minimal receiver of the service's webhook
// deliveries that verifies their signature before trusting them. It is the
// example of the guide "Webhooks and verifying their signatures"; copy it
// and replace handleEvent with your own work.
//
//	RMS_WEBHOOK_SECRET=... webhook-receiver -addr 127.0.0.1:9999
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxAge is how old a delivery's timestamp may be; older ones are replays.
const maxAge = 5 * time.Minute

// Event is the JSON body of a delivery.
type Event struct {
	ID         string          `json:"id"`
	Event      string          `json:"event"`
	OccurredAt time.Time       `json:"occurredAt"`
	Data       json.RawMessage `json:"data"`
}

// Verify checks that body was signed with secret at the time in the
// X-RMS-Timestamp header, and that this time is within maxAge of now:
// X-RMS-Signature must be "v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body)).
func Verify(secret []byte, header http.Header, body []byte, now time.Time) error {
	ts := header.Get("X-RMS-Timestamp")
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("missing or malformed X-RMS-Timestamp")
	}
	if age := now.Sub(time.Unix(secs, 0)); age > maxAge || age < -maxAge {
		return fmt.Errorf("timestamp %s is %s away from now; rejecting a possible replay", ts, age.Round(time.Second))
	}
	got, ok := strings.CutPrefix(header.Get("X-RMS-Signature"), "v1=")
	if !ok {
		return errors.New("missing X-RMS-Signature (is a secret set on the webhook?)")
	}
	sig, err := hex.DecodeString(got)
	if err != nil {
		return errors.New("malformed X-RMS-Signature")
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	// Constant time: a comparison that stops at the first difference would
	// tell an attacker how much of a forged signature is right.
	if !hmac.Equal(sig, mac.Sum(nil)) {
		return errors.New("signature does not match")
	}
	return nil
}

// Handler verifies each delivery and passes its event to handle. It answers
// 2xx only when handle succeeded: any other answer makes the service retry
// the delivery (with the same X-RMS-Delivery id, which handle can use to do
// the work once).
func Handler(secret []byte, now func() time.Time, handle func(Event) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		// Verify the raw bytes as received: re-encoded JSON would not match.
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "reading body", http.StatusBadRequest)
			return
		}
		if err := Verify(secret, r.Header, body, now()); err != nil {
			log.Printf("rejected delivery %q: %v", r.Header.Get("X-RMS-Delivery"), err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		var ev Event
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "malformed event", http.StatusBadRequest)
			return
		}
		if err := handle(ev); err != nil {
			log.Printf("delivery %s (%s) failed, the service will retry: %v", ev.ID, ev.Event, err)
			http.Error(w, "try again", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// handleEvent is where a real receiver does its work.
func handleEvent(ev Event) error {
	log.Printf("event %s (%s) at %s: %s", ev.Event, ev.ID, ev.OccurredAt.Format(time.RFC3339), ev.Data)
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:9999", "address to listen on")
	flag.Parse()
	secret := os.Getenv("RMS_WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("set RMS_WEBHOOK_SECRET to the webhook's secret")
	}
	srv := &http.Server{
		Addr:              *addr,
		Handler:           Handler([]byte(secret), time.Now, handleEvent),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Printf("receiving webhook deliveries on http://%s", *addr)
	log.Fatal(srv.ListenAndServe())
}
