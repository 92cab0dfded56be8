package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

// bearerStatus sends GET url with a bearer token through hc.
func bearerStatus(t *testing.T, hc *http.Client, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// -token adds a bearer token to the first account (Basic still works), and
// -account id:token:TOKEN serves a token-only account; the banner shows the
// provider block for each.
func TestRunTokens(t *testing.T) {
	url, out, _ := startRun(t, "-token", "first-tok", "-account", "2000:token:second:tok", "-account", "3000:carol:pw")
	for _, want := range []string{`# token     = "first-tok"`, "customer_id = 2000\n  token       = \"second:tok\"", `username    = "carol"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
	cases := []struct {
		name, path, token string
		want              int
	}{
		{"first account by token", "/rest/1000/lists", "first-tok", http.StatusOK},
		{"token account by its token", "/rest/2000/lists", "second:tok", http.StatusOK},
		{"token of another account", "/rest/2000/lists", "first-tok", http.StatusForbidden},
		{"wrong token", "/rest/2000/lists", "nope", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		if got := bearerStatus(t, http.DefaultClient, url+tc.path, tc.token); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if status, _ := call(t, http.MethodGet, url+"/rest/1000/lists", ""); status != http.StatusOK {
		t.Errorf("Basic on the first account beside -token: %d", status)
	}
	// The token account has no Basic user; "token" is not one either.
	if status, _ := callAs(t, "token", "second:tok", http.MethodGet, url+"/rest/2000/lists", ""); status != http.StatusUnauthorized {
		t.Errorf("Basic token:second:tok on the token account: %d, want 401", status)
	}
}

// -tls-cert/-tls-key serve HTTPS and -client-ca requires client
// certificates that authority signed.
func TestRunTLSAndClientCA(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "ci CA")
	certFile, keyFile := ca.Server(t).WriteFiles(t, dir, "server")
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	client := ca.Client(t, "ci")
	url, out, _ := startRun(t, "-tls-cert", certFile, "-tls-key", keyFile, "-client-ca", caFile, "-token", "tls-tok")
	if !strings.HasPrefix(url, "https://127.0.0.1:") || !strings.Contains(out.String(), "client certificates required") {
		t.Fatalf("url %q, banner:\n%s", url, out.String())
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.CertPEM)
	cert, err := tls.X509KeyPair(client.CertPEM, client.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	with := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}}
	if got := bearerStatus(t, with, url+"/rest/1000/lists", "tls-tok"); got != http.StatusOK {
		t.Errorf("with a client certificate: %d", got)
	}
	without := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	req, _ := http.NewRequest(http.MethodGet, url+"/rest/1000/lists", nil)
	if resp, err := without.Do(req); err == nil {
		_ = resp.Body.Close()
		t.Errorf("served %d without a client certificate", resp.StatusCode)
	}
}

func TestRunRefusesBadTLSFlags(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := testpki.NewCA(t, "ca").Server(t).WriteFiles(t, dir, "server")
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"cert without key", []string{"-tls-cert", certFile}, "-tls-cert and -tls-key go together"},
		{"key without cert", []string{"-tls-key", keyFile}, "-tls-cert and -tls-key go together"},
		{"client CA without TLS", []string{"-client-ca", certFile}, "-client-ca needs -tls-cert"},
		{"missing cert file", []string{"-tls-cert", filepath.Join(dir, "nope.crt"), "-tls-key", keyFile}, "reading the TLS certificate"},
		{"key of nothing", []string{"-tls-cert", certFile, "-tls-key", certFile}, "loading the TLS certificate and key"},
		{"bad token account", []string{"-account", "2000:token:"}, "customerid:token:TOKEN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, tc.args...), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("run: %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}
