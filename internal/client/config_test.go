package client

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseBaseURL(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		want    string
		wantErr []string // substrings of the error; nil means success
	}{
		{name: "https", raw: "https://server.example.com", want: "https://server.example.com"},
		{name: "https with port", raw: "https://server.example.com:8443", want: "https://server.example.com:8443"},
		{name: "surrounding space", raw: "  https://server.example.com \n", want: "https://server.example.com"},
		{name: "trailing slash trimmed", raw: "https://server.example.com/", want: "https://server.example.com"},
		{name: "trailing /rest trimmed", raw: "https://server.example.com/rest", want: "https://server.example.com"},
		{name: "trailing /rest/ trimmed", raw: "https://server.example.com/rest/", want: "https://server.example.com"},
		{name: "prefix kept, /rest trimmed", raw: "https://server.example.com/prefix/rest", want: "https://server.example.com/prefix"},
		{name: "prefix kept", raw: "https://server.example.com/prefix/", want: "https://server.example.com/prefix"},
		{name: "http to 127.0.0.1", raw: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{name: "http to 127.0.0.0/8", raw: "http://127.10.0.3:8080/", want: "http://127.10.0.3:8080"},
		{name: "http to [::1]", raw: "http://[::1]:8080", want: "http://[::1]:8080"},
		{name: "http to localhost", raw: "http://localhost:8080/rest", want: "http://localhost:8080"},
		{name: "http to LOCALHOST", raw: "http://LOCALHOST", want: "http://LOCALHOST"},

		{name: "http to public host", raw: "http://server.example.com", wantErr: []string{"https", "loopback"}},
		{name: "http to private address", raw: "http://10.0.0.1", wantErr: []string{"https"}},
		{name: "http to host named like loopback", raw: "http://127.0.0.1.example.com", wantErr: []string{"https"}},
		{name: "http to localhost subdomain", raw: "http://localhost.example.com", wantErr: []string{"https"}},
		{name: "missing scheme", raw: "server.example.com", wantErr: []string{"https://"}},
		{name: "missing scheme with port", raw: "server.example.com:443", wantErr: []string{"base URL"}},
		{name: "ftp scheme", raw: "ftp://server.example.com", wantErr: []string{"https://"}},
		{name: "empty", raw: "", wantErr: []string{"https://"}},
		{name: "no host", raw: "https://", wantErr: []string{"https://"}},
		{name: "query", raw: "https://server.example.com?customer=1", wantErr: []string{"query"}},
		{name: "fragment", raw: "https://server.example.com#top", wantErr: []string{"fragment"}},
		{name: "credentials", raw: "https://user:hunter2@server.example.com", wantErr: []string{"credentials"}},
		{name: "user only", raw: "https://user@server.example.com", wantErr: []string{"credentials"}},
		{name: "not a URL", raw: "https://server example.com/%zz", wantErr: []string{"not a URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ParseBaseURL(tt.raw)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("ParseBaseURL(%q) = %v, want an error", tt.raw, u)
				}
				for _, s := range tt.wantErr {
					mustContain(t, err.Error(), s)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseBaseURL(%q): %v", tt.raw, err)
			}
			if diff := cmp.Diff(tt.want, u.String()); diff != "" {
				t.Errorf("ParseBaseURL(%q) (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

// The password in a refused base URL must not be echoed into a diagnostic.
func TestParseBaseURLDoesNotEchoPassword(t *testing.T) {
	for _, raw := range []string{
		"https://user:hunter2@server.example.com",
		"http://user:hunter2@server.example.com",
		"ftp://user:hunter2@server.example.com",
		"https://user:hunter2@server.example.com/%zz", // not a URL
	} {
		_, err := ParseBaseURL(raw)
		if err == nil {
			t.Errorf("ParseBaseURL(%q) succeeded, want an error", raw)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseBaseURL(%q) error reveals the password: %v", raw, err)
		}
	}
}

func TestIsLoopbackHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true},
		{"127.255.255.254", true},
		{"::1", true},
		{"0:0:0:0:0:0:0:1", true},
		{"localhost", true},
		{"LocalHost", true},
		{"[::1]", false}, // a host name, not a URL authority: brackets are stripped by url.Hostname
		{"", false},
		{"0.0.0.0", false},
		{"10.0.0.1", false},
		{"192.168.1.1", false},
		{"::", false},
		{"example.com", false},
		{"localhost.example.com", false},
		{"127.0.0.1.nip.io", false},
	}
	for _, tt := range tests {
		if got := IsLoopbackHost(tt.host); got != tt.want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestNew(t *testing.T) {
	auth := BasicAuth{Username: "u", Password: "p"}
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{name: "valid", cfg: Config{BaseURL: "https://server.example.com/rest/", CustomerID: 42, Auth: auth}},
		{name: "customer id zero", cfg: Config{BaseURL: "https://server.example.com", CustomerID: 0, Auth: auth}, wantErr: "customer id"},
		{name: "customer id negative", cfg: Config{BaseURL: "https://server.example.com", CustomerID: -7, Auth: auth}, wantErr: "-7"},
		{name: "nil auth", cfg: Config{BaseURL: "https://server.example.com", CustomerID: 42}, wantErr: "credentials"},
		{name: "bad base URL", cfg: Config{BaseURL: "http://server.example.com", CustomerID: 42, Auth: auth}, wantErr: "https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("New succeeded, want an error containing %q", tt.wantErr)
				}
				mustContain(t, err.Error(), tt.wantErr)
				if c != nil {
					t.Errorf("New returned a client with an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if got := c.CustomerID(); got != 42 {
				t.Errorf("CustomerID() = %d, want 42", got)
			}
			if got := c.BaseURL(); got != "https://server.example.com" {
				t.Errorf("BaseURL() = %q", got)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Config
		want func(Config) []string // returns problems
	}{
		{
			name: "zero values get defaults",
			in:   Config{},
			want: func(c Config) (p []string) {
				if c.MaxRetries != DefaultMaxRetries || c.RetryWaitMin != DefaultRetryWaitMin ||
					c.RetryWaitMax != DefaultRetryWaitMax || c.RequestTimeout != DefaultRequestTimeout {
					p = append(p, "numeric defaults not applied")
				}
				if c.UserAgent == "" || c.Logger == nil || c.Transport == nil {
					p = append(p, "UserAgent, Logger or Transport left empty")
				}
				if c.Transport == http.DefaultTransport {
					p = append(p, "Transport is the shared default, not a clone")
				}
				return p
			},
		},
		{
			name: "negative retries means none",
			in:   Config{MaxRetries: -3},
			want: func(c Config) (p []string) {
				if c.MaxRetries != 0 {
					p = append(p, "MaxRetries not 0")
				}
				return p
			},
		},
		{
			name: "max below min raised to min",
			in:   Config{RetryWaitMin: 2 * time.Second, RetryWaitMax: time.Second},
			want: func(c Config) (p []string) {
				if c.RetryWaitMax != 2*time.Second {
					p = append(p, "RetryWaitMax not raised")
				}
				return p
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range tt.want(tt.in.withDefaults()) {
				t.Error(p)
			}
		})
	}
}
