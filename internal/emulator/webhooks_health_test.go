package emulator

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// logRecorder is a slog.Handler that keeps every record, for tests that
// count log lines.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }

func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Clone())
	return nil
}

func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecorder) WithGroup(string) slog.Handler      { return l }

// warnings returns the records at Warn or above as "msg key=value ...",
// the level rms-emulator logs at by default.
func (l *logRecorder) warnings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.records {
		if r.Level < slog.LevelWarn {
			continue
		}
		line := r.Message
		r.Attrs(func(a slog.Attr) bool {
			line += fmt.Sprintf(" %s=%v", a.Key, a.Value)
			return true
		})
		out = append(out, line)
	}
	return out
}

// newLoggedServer is New with a recording logger.
func newLoggedServer(o Options) (*Server, *logRecorder) {
	logs := &logRecorder{}
	o.Logger = slog.New(logs)
	return New(o), logs
}

func wantWarnings(t *testing.T, logs *logRecorder, when string, want ...string) {
	t.Helper()
	if diff := cmp.Diff(want, logs.warnings()); diff != "" {
		t.Errorf("warnings %s (-want +got):\n%s", when, diff)
	}
}

const (
	failingLine = "webhook delivery failing; it is retried on schedule, and further failures are summed up at most once a minute"
	answered500 = "last_failure=answered 500 Internal Server Error"
)

// A receiver that keeps failing gets one warning when it starts, one
// summary a minute while it goes on (none when nothing new failed), and
// one line with the spell's counts when it answers again; every attempt
// keeps the retry schedule all the same.
func TestWebhookFailuresLoggedPerTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, logs := newLoggedServer(Options{})
		defer s.Close()
		statuses := make([]int, 50) // 10 deliveries of 5 attempts
		for i := range statuses {
			statuses[i] = http.StatusInternalServerError
		}
		rc := newReceiver(statuses...)
		hook := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s) + "/hook?token=abc", "events": []string{"message.sent"}})
		prefix := "webhook=" + idOf(t, hook) + " url=http://127.0.0.1/hook" // the query may hold a token: never logged

		for range 10 {
			s.Emit("message.sent", nil)
		}
		synctest.Wait()
		first := failingLine + " " + prefix + " failed_attempts=1 given_up=0 " + answered500
		wantWarnings(t, logs, "after the first attempts", first)

		// Attempts after 1, 3, 7 and 15 seconds: all made, none logged.
		advance(15 * time.Second)
		synctest.Wait()
		if n := len(rc.received()); n != 50 {
			t.Fatalf("%d attempts, want 50: the retry schedule does not depend on the log", n)
		}
		for _, d := range s.Deliveries() {
			if d.State != DeliveryFailed || d.Attempts != 5 {
				t.Errorf("delivery %+v; want failed after 5 attempts", d)
			}
		}
		wantWarnings(t, logs, "after every retry", first)

		advance(45 * time.Second) // a minute after the first line
		synctest.Wait()
		summary := "webhook delivery still failing " + prefix + " failed_attempts=50 given_up=10 " + answered500
		wantWarnings(t, logs, "a minute after the first", first, summary)

		advance(time.Hour)
		synctest.Wait()
		wantWarnings(t, logs, "when nothing new failed", first, summary)

		// The receiver answers 204 from now on.
		for range 3 {
			s.Emit("message.sent", nil)
		}
		synctest.Wait()
		recovered := "webhook delivery recovered " + prefix + " failed_attempts=50 given_up=10"
		wantWarnings(t, logs, "after the recovery", first, summary, recovered)
		s.Close()
		wantWarnings(t, logs, "after Close", first, summary, recovered)
	})
}

// A receiver that flaps (every first attempt fails, every retry succeeds)
// gets at most one line a minute: the first failure at once, then one
// line with what the minute held, by a timer.
func TestWebhookFlappingLoggedOncePerMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, logs := newLoggedServer(Options{})
		defer s.Close()
		var statuses []int
		for range 20 {
			statuses = append(statuses, http.StatusServiceUnavailable, http.StatusNoContent)
		}
		rc := newReceiver(statuses...)
		hook := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s) + "/hook", "events": []string{"message.sent"}})
		prefix := "webhook=" + idOf(t, hook) + " url=http://127.0.0.1/hook"
		for range 20 {
			s.Emit("message.sent", nil)
			advance(DefaultWebhookRetryWait)
			synctest.Wait()
		}
		for _, d := range s.Deliveries() {
			if d.State != DeliveryDelivered || d.Attempts != 2 {
				t.Errorf("delivery %+v; want delivered on the second attempt", d)
			}
		}
		first := failingLine + " " + prefix + " failed_attempts=1 given_up=0 last_failure=answered 503 Service Unavailable"
		wantWarnings(t, logs, "within the first minute", first)
		advance(time.Minute)
		synctest.Wait()
		wantWarnings(t, logs, "after the minute", first, "webhook delivery recovered "+prefix+" failed_attempts=20 given_up=0")
	})
}

// Close logs what the last minute held back, and nothing about the
// attempts it cuts short.
func TestWebhookFailuresReportedOnClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, logs := newLoggedServer(Options{})
		rc := newReceiver(500, 500, 500, 500, 500)
		hook := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s) + "/hook", "events": []string{"message.sent"}})
		prefix := "webhook=" + idOf(t, hook) + " url=http://127.0.0.1/hook"
		s.Emit("message.sent", nil)
		advance(DefaultWebhookRetryWait)
		synctest.Wait()
		s.Close()
		wantWarnings(t, logs, "after Close",
			failingLine+" "+prefix+" failed_attempts=1 given_up=0 "+answered500,
			"webhook delivery still failing "+prefix+" failed_attempts=2 given_up=0 "+answered500)
		if d := s.Deliveries()[0]; d.State != DeliveryFailed || d.Attempts != 2 {
			t.Errorf("delivery after Close = %+v", d)
		}
	})
}

// Targets are told apart by webhook and url: a failing one does not hide
// another, and a transport error is named.
func TestWebhookFailuresPerTarget(t *testing.T) {
	s, logs := newLoggedServer(Options{WebhookMaxAttempts: 1})
	defer s.Close()
	// Nothing listens on port 1 of loopback.
	a := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "http://127.0.0.1:1/a", "events": []string{"message.sent"}})
	b := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "http://127.0.0.1:1/b", "events": []string{"message.sent"}})
	s.Emit("message.sent", nil)
	s.Emit("message.sent", nil)
	waitFinal(t, s) // Close would cut the attempts short
	s.Close()
	got := logs.warnings()
	want := []string{"webhook=" + idOf(t, a) + " url=http://127.0.0.1:1/a failed_attempts=1", "webhook=" + idOf(t, b) + " url=http://127.0.0.1:1/b failed_attempts=1"}
	if len(got) != 4 {
		t.Fatalf("warnings = %q; want a first line and a summary for each of the two targets", got)
	}
	for i, line := range got[:2] {
		if !strings.HasPrefix(line, failingLine) || !strings.Contains(line, "connection refused") {
			t.Errorf("warning %d = %q; want the start of a failing spell naming the transport error", i, line)
		}
	}
	for _, w := range want {
		n := 0
		for _, line := range got {
			if strings.Contains(line, w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings contain %q, want 1: %q", n, w, got)
		}
	}
}

// waitFinal waits until every delivery of s is delivered or failed, for
// tests whose receivers are real sockets, outside a synctest bubble.
func waitFinal(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		final := true
		for _, d := range s.Deliveries() {
			final = final && (d.State == DeliveryDelivered || d.State == DeliveryFailed)
		}
		if final {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries not final after 10s: %+v", s.Deliveries())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
