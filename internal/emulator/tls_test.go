package emulator

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

// TestListenTLS serves HTTPS with a required client certificate: a client
// trusting the CA and presenting a certificate it signed gets through, one
// without a certificate (or with one another CA signed) fails its handshake.
func TestListenTLS(t *testing.T) {
	ca := testpki.NewCA(t, "test CA")
	server := ca.Server(t)
	good := ca.Client(t, "terraform")
	stranger := testpki.NewCA(t, "other CA").Client(t, "mallory")
	l, err := ListenTLS("127.0.0.1:0", TLS{CertPEM: server.CertPEM, KeyPEM: server.KeyPEM, ClientCAPEM: ca.CertPEM}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if !strings.HasPrefix(l.URL, "https://127.0.0.1:") {
		t.Fatalf("URL %q, want https://127.0.0.1:...", l.URL)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.CertPEM)
	cases := map[string]struct {
		client  *testpki.Pair
		wantErr bool
	}{
		"client certificate of the CA": {client: &good},
		"no client certificate":        {wantErr: true},
		"certificate of another CA":    {client: &stranger, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
			if tc.client != nil {
				cert, err := tls.X509KeyPair(tc.client.CertPEM, tc.client.KeyPEM)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Certificates = []tls.Certificate{cert}
			}
			hc := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
			req, _ := http.NewRequest(http.MethodGet, l.URL+"/rest/1000/projects", nil)
			req.SetBasicAuth(DefaultUsername, DefaultPassword)
			resp, err := hc.Do(req)
			if tc.wantErr {
				if err == nil {
					_ = resp.Body.Close() // a test client: nothing to report
					t.Fatalf("got %d without a valid client certificate", resp.StatusCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close() // a test client: nothing to report
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
		})
	}
}

func TestListenTLSRefusesBadSettings(t *testing.T) {
	ca := testpki.NewCA(t, "test CA")
	server := ca.Server(t)
	other := ca.Server(t)
	cases := map[string]struct {
		tls  TLS
		want string
	}{
		"no key":              {TLS{CertPEM: server.CertPEM}, "needs both a certificate and a key"},
		"key of another cert": {TLS{CertPEM: server.CertPEM, KeyPEM: other.KeyPEM}, "loading the TLS certificate and key"},
		"client CA not PEM":   {TLS{CertPEM: server.CertPEM, KeyPEM: server.KeyPEM, ClientCAPEM: []byte("nope")}, "client CA holds no PEM certificate"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, err := ListenTLS("127.0.0.1:0", tc.tls, Options{})
			if err == nil {
				_ = l.Close()
				t.Fatal("listening despite bad TLS settings")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}
