package functions

import (
	"strings"
	"testing"
)

// Each case gives the arguments, and either the result or the argument an
// error must point at together with a part of its message.
type functionCase struct {
	name    string
	args    []string
	want    string
	wantArg int64
	wantErr string
}

func runFunctionCases(t *testing.T, cases []functionCase, fn func(args []string) (string, *argumentError)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fn(tc.args)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error on argument %d: %s", err.arg, err.msg)
				}
				if got != tc.want {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %q, want an error containing %q", got, tc.wantErr)
			}
			if err.arg != tc.wantArg || !strings.Contains(err.msg, tc.wantErr) {
				t.Fatalf("error on argument %d %q, want argument %d containing %q", err.arg, err.msg, tc.wantArg, tc.wantErr)
			}
		})
	}
}

func TestDelimiterCode(t *testing.T) {
	runFunctionCases(t, []functionCase{
		{name: "comma", args: []string{","}, want: "44"},
		{name: "semicolon", args: []string{";"}, want: "59"},
		{name: "tab", args: []string{"\t"}, want: "9"},
		{name: "pipe", args: []string{"|"}, want: "124"},
		{name: "space", args: []string{" "}, want: "32"},
		{name: "last ASCII", args: []string{"\x7f"}, want: "127"},
		{name: "empty", args: []string{""}, wantErr: "is empty"},
		{name: "two characters", args: []string{",;"}, wantErr: "is 2 characters long"},
		{name: "already a code", args: []string{"44"}, wantErr: "already a delimiter code"},
		{name: "double quote quotes fields", args: []string{`"`}, wantErr: "cannot delimit columns"},
		{name: "NUL", args: []string{"\x00"}, wantErr: "must be an ASCII character"},
		{name: "not ASCII", args: []string{"§"}, wantErr: "not an ASCII character"},
		{name: "emoji", args: []string{"😀"}, wantErr: "not an ASCII character"},
		{name: "newline", args: []string{"\n"}, wantErr: "line break"},
		{name: "carriage return", args: []string{"\r"}, wantErr: "line break"},
	}, func(a []string) (string, *argumentError) { return delimiterCode(a[0]) })
}

func TestWebhookSignature(t *testing.T) {
	// Expected values computed independently with
	//   printf '%s' "$timestamp.$body" | openssl dgst -sha256 -hmac "$secret"
	runFunctionCases(t, []functionCase{
		{
			name: "delivery",
			args: []string{"whsec_test", "1700000000", `{"id":"d-1","event":"contact.subscribed"}`},
			want: "v1=23ddd878a84df4558b5e49271d130278bd7ae5a6c133c312cfe5abf335625f4d",
		},
		{name: "empty body", args: []string{"s3cr3t", "1700000000", ""}, want: "v1=f63f1341b06e485fe1fe78cbfd5f6d4cee0d492c21bbc3333af817254d0db38a"},
		{name: "empty secret", args: []string{"", "1700000000", "{}"}, wantArg: 0, wantErr: "secret is empty"},
		{name: "timestamp not digits", args: []string{"s", "2026-11-22T10:00:00Z", "{}"}, wantArg: 1, wantErr: "not Unix seconds"},
		{name: "timestamp empty", args: []string{"s", "", "{}"}, wantArg: 1, wantErr: "not Unix seconds"},
		{name: "timestamp negative", args: []string{"s", "-1", "{}"}, wantArg: 1, wantErr: "not Unix seconds"},
	}, func(a []string) (string, *argumentError) { return webhookSignature(a[0], a[1], a[2]) })
}

func TestContactImportID(t *testing.T) {
	runFunctionCases(t, []functionCase{
		{name: "email", args: []string{"12", "ada@example.com"}, want: "12/ada@example.com"},
		{name: "original id with slash", args: []string{"7", "crm/42"}, want: "7/crm/42"},
		{name: "list id not numeric", args: []string{"news", "ada"}, wantArg: 0, wantErr: "not a numeric list id"},
		{name: "list id empty", args: []string{"", "ada"}, wantArg: 0, wantErr: "not a numeric list id"},
		{name: "original id empty", args: []string{"12", ""}, wantArg: 1, wantErr: "originalId is empty"},
	}, func(a []string) (string, *argumentError) { return checkedContactImportID(a[0], a[1]) })
}

func TestBatchTime(t *testing.T) {
	cases := []struct {
		ms      int64
		want    string
		wantErr string
	}{
		{ms: 0, want: "1970-01-01T00:00:00Z"},
		{ms: 1795341600000, want: "2026-11-22T10:00:00Z"},
		{ms: 1795341600123, want: "2026-11-22T10:00:00.123Z"},
		{ms: 1795341600100, want: "2026-11-22T10:00:00.1Z"},
		{ms: maxBatchTime, want: "9999-12-31T23:59:59.999Z"},
		{ms: maxBatchTime + 1, wantErr: "after the year 9999"},
		{ms: -1, wantErr: "negative"},
	}
	for _, tc := range cases {
		got, err := batchTime(tc.ms)
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.msg, tc.wantErr)):
			t.Errorf("batchTime(%d) = %q, %v; want error containing %q", tc.ms, got, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("batchTime(%d) = %q, %v; want %q", tc.ms, got, err, tc.want)
		}
	}
}
