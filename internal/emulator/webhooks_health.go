package emulator

import (
	"errors"
	"log/slog"
	"net/url"
	"time"
)

// How failing deliveries are logged. One line per failed attempt flooded CI
// logs (a receiver that is down costs five attempts per event, and one
// import sends hundreds of events), so the log speaks per target, a webhook
// id with its url, not per attempt:
//
//   - the first failed attempt of a target in good health logs a warning,
//     "webhook delivery failing", with what that attempt got;
//   - later failed attempts are counted, not logged; while the target keeps
//     failing, a warning "webhook delivery still failing" sums up the
//     failed attempts and the deliveries given up since it began to fail;
//   - the first successful attempt after failures logs "webhook delivery
//     recovered" with the counts of the whole failing spell, which then
//     start again from zero. It is a warning too, not info: it reports
//     failures, and rms-emulator shows warnings only by default;
//   - a target gets at most one line per deliveryReportEvery: a change
//     sooner is logged when that time is up, by a timer, so a receiver that
//     flaps cannot flood the log either;
//   - Close logs what no line has reported yet.
//
// Retries keep their schedule (Options.WebhookRetryWait,
// WebhookMaxAttempts) whatever is logged.

// deliveryReportEvery is the least time between two lines about one
// target's deliveries.
const deliveryReportEvery = time.Minute

// targetKey names a delivery target: a webhook whose url changes is a new
// target, with a health of its own.
type targetKey struct {
	webhook int64
	url     string
}

// targetHealth is what the log has said, and not yet said, about a target.
type targetHealth struct {
	failing     bool // the last attempt failed
	failed      int  // attempts failed since the target began to fail
	gaveUp      int  // deliveries given up since then
	lastFailure string
	// reported is what the last line said.
	reported struct {
		failing        bool
		failed, gaveUp int
	}
	lastLine      time.Time   // zero before the first line
	flush         *time.Timer // a pending line, held back by deliveryReportEvery
	refusalLogged bool        // the target's refusal has been logged (webhooks_targets.go)
}

// due reports whether something happened that no line has reported.
func (h *targetHealth) due() bool {
	return h.failing != h.reported.failing || h.failed != h.reported.failed || h.gaveUp != h.reported.gaveUp
}

// logLine is a record to write once the deliverer's lock is released, so
// that a slow log never holds up Emit and the requests that call it.
type logLine struct {
	msg   string
	attrs []any
}

func (l *logLine) write(log *slog.Logger) {
	if l != nil {
		log.Warn(l.msg, l.attrs...)
	}
}

// line is the line reporting h now. A recovery ends the failing spell:
// the counts start again from zero.
func (h *targetHealth) line(k targetKey, now time.Time) *logLine {
	msg := "webhook delivery recovered"
	switch {
	case h.failing && !h.reported.failing:
		msg = "webhook delivery failing; it is retried on schedule, and further failures are summed up at most once a minute"
	case h.failing:
		msg = "webhook delivery still failing"
	}
	attrs := []any{"webhook", k.webhook, "url", logURL(k.url), "failed_attempts", h.failed, "given_up", h.gaveUp}
	if h.failing {
		attrs = append(attrs, "last_failure", h.lastFailure)
	}
	if !h.failing {
		h.failed, h.gaveUp = 0, 0
	}
	h.reported.failing, h.reported.failed, h.reported.gaveUp = h.failing, h.failed, h.gaveUp
	h.lastLine = now
	return &logLine{msg: msg, attrs: attrs}
}

// attemptFailure is what a failed attempt's transport error says, without
// the request's URL (which url.Error adds, query and all).
func attemptFailure(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// logURL is a delivery URL fit for a log: without credentials or query,
// where receivers often keep a token.
func logURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable url)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}
