package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCreateOrAdopt(t *testing.T) {
	uncertain := &UncertainError{Method: "POST", Path: "/rest/1/projects", Err: errors.New("connection reset")}
	refused := &APIError{Method: "POST", Path: "/rest/1/projects", StatusCode: 400, Message: "name is mandatory"}
	cases := map[string]struct {
		creates    []error // outcome of each create attempt; nil = success
		finds      []bool  // outcome of each find
		findErr    error
		maxRetries int
		wantValue  string
		wantErr    string
		wantCreate int
		wantFind   int
	}{
		"success needs no read-back":       {creates: []error{nil}, wantValue: "created", wantCreate: 1},
		"a refusal is returned at once":    {creates: []error{refused}, wantErr: "name is mandatory", wantCreate: 1},
		"uncertain and found is adopted":   {creates: []error{uncertain}, finds: []bool{true}, wantValue: "found", wantCreate: 1, wantFind: 1},
		"uncertain and absent is repeated": {creates: []error{uncertain, nil}, finds: []bool{false}, wantValue: "created", wantCreate: 2, wantFind: 1},
		"a failed read-back is reported":   {creates: []error{uncertain}, findErr: errors.New("2 candidates"), wantErr: "2 candidates", wantCreate: 1, wantFind: 1},
		"the retry budget bounds attempts": {creates: []error{uncertain, uncertain, uncertain}, finds: []bool{false, false, false}, maxRetries: 2, wantErr: "outcome is unknown", wantCreate: 3, wantFind: 3},
		"found on the second read-back":    {creates: []error{uncertain, uncertain}, finds: []bool{false, true}, wantValue: "found", wantCreate: 2, wantFind: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, _ := newTestClient(t, http.NotFoundHandler(), func(cfg *Config) {
				if tc.maxRetries > 0 {
					cfg.MaxRetries = tc.maxRetries
				}
			})
			var creates, finds int
			v, err := CreateOrAdopt(context.Background(), c, "thing",
				func(context.Context) (string, error) {
					e := tc.creates[creates]
					creates++
					if e != nil {
						return "", e
					}
					return "created", nil
				},
				func(_ context.Context, since time.Time) (string, bool, error) {
					if time.Since(since) < AdoptWindow {
						t.Errorf("since %v is not at least AdoptWindow before the attempt", since)
					}
					finds++
					if tc.findErr != nil {
						return "", false, tc.findErr
					}
					if tc.finds[finds-1] {
						return "found", true, nil
					}
					return "", false, nil
				})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
			} else if err != nil || v != tc.wantValue {
				t.Fatalf("got %q, %v; want %q", v, err, tc.wantValue)
			}
			if creates != tc.wantCreate || finds != tc.wantFind {
				t.Errorf("create called %d times, find %d; want %d and %d", creates, finds, tc.wantCreate, tc.wantFind)
			}
		})
	}
}

func TestUncertainErrorOnPost(t *testing.T) {
	cases := map[string]struct {
		method        string
		status        int
		wantUncertain bool
	}{
		"POST 502 may have acted":      {method: "POST", status: 502, wantUncertain: true},
		"POST 500 may have acted":      {method: "POST", status: 500, wantUncertain: true},
		"POST 501 did not":             {method: "POST", status: 501},
		"POST 400 is a refusal":        {method: "POST", status: 400},
		"PUT 500 is repeatable anyway": {method: "PUT", status: 500},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(`{"code":"X","message":"failed"}`))
			}), func(cfg *Config) { cfg.MaxRetries = -1 })
			err := c.doJSON(context.Background(), tc.method, "projects", nil, map[string]any{"name": "x"}, nil)
			if IsUncertain(err) != tc.wantUncertain {
				t.Fatalf("IsUncertain(%v) = %v, want %v", err, IsUncertain(err), tc.wantUncertain)
			}
			if _, ok := AsAPIError(err); !ok {
				t.Errorf("the APIError is not reachable through %v", err)
			}
		})
	}
}

func TestCreatedSince(t *testing.T) {
	since := time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC)
	cases := map[string]struct {
		ts   string
		want bool
	}{
		"same second": {"2026-11-22T10:00:00Z", true},
		"later":       {"2026-11-22T10:00:03Z", true},
		"earlier":     {"2026-11-22T09:59:59Z", false},
		"unparseable": {"yesterday", true},
		// Read-back compares parsed times: the same instant in other forms.
		"offset, same second":   {"2026-11-22T12:00:00.000+02:00", true},
		"offset, earlier":       {"2026-11-22T11:59:59+02:00", false},
		"epoch millis, later":   {"1795341603000", true},
		"epoch seconds, later":  {"1795341603", true},
		"epoch seconds, before": {"1795341599", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := createdSince(ParseTimestamp(tc.ts), since); got != tc.want {
				t.Errorf("createdSince(%q) = %v, want %v", tc.ts, got, tc.want)
			}
		})
	}
}
