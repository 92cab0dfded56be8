package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func TestOAuth2Flags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		want    map[string]string
		wantTTL time.Duration
		wantErr string
	}{
		{"none", nil, nil, 20 * time.Minute, ""},
		{"two clients and a ttl", []string{"-oauth2-client", "ci:s1", "-oauth2-client", "ops:s:2", "-token-ttl", "3s"}, map[string]string{"ci": "s1", "ops": "s:2"}, 3 * time.Second, ""},
		{"no secret", []string{"-oauth2-client", "ci"}, nil, 0, "ID:SECRET"},
		{"empty secret", []string{"-oauth2-client", "ci:"}, nil, 0, "ID:SECRET"},
		{"twice", []string{"-oauth2-client", "ci:a", "-oauth2-client", "ci:b"}, nil, 0, "given twice"},
		{"ttl below a second", []string{"-token-ttl", "500ms"}, nil, 0, "at least 1s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			f := registerOAuth2Flags(fs)
			err := fs.Parse(tc.args)
			var clients map[string]string
			var ttl time.Duration
			if err == nil {
				clients, ttl, err = f.options()
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ttl != tc.wantTTL || len(clients) != len(tc.want) {
				t.Fatalf("got %v, %s; want %v, %s", clients, ttl, tc.want, tc.wantTTL)
			}
			for id, secret := range tc.want {
				if clients[id] != secret {
					t.Errorf("client %s: secret %q, want %q", id, clients[id], secret)
				}
			}
			if s := f.clients.String(); strings.Contains(s, "s1") {
				t.Errorf("the flag's String %q shows a secret", s)
			}
		})
	}
}
