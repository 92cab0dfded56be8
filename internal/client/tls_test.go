package client

import (
	"crypto/tls"
	"errors"
	"net/http"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

func TestTLSTransport(t *testing.T) {
	ca := testpki.NewCA(t, "private CA")
	leaf := ca.Client(t, "terraform")
	cert, err := tls.X509KeyPair(leaf.CertPEM, leaf.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		in      TLS
		wantErr error
		check   func(*tls.Config) string
	}{
		"defaults verify against the system": {check: func(c *tls.Config) string {
			if c.InsecureSkipVerify || c.RootCAs != nil || len(c.Certificates) != 0 {
				return "default settings changed"
			}
			return ""
		}},
		"CA bundle adds a pool": {in: TLS{CABundle: ca.CertPEM}, check: func(c *tls.Config) string {
			if c.RootCAs == nil {
				return "no RootCAs"
			}
			return ""
		}},
		"bundle without PEM": {in: TLS{CABundle: []byte("hello")}, wantErr: ErrNoPEMCertificate},
		"insecure": {in: TLS{InsecureSkipVerify: true}, check: func(c *tls.Config) string {
			if !c.InsecureSkipVerify {
				return "verification still on"
			}
			return ""
		}},
		"client certificate": {in: TLS{ClientCertificate: &cert}, check: func(c *tls.Config) string {
			if len(c.Certificates) != 1 {
				return "client certificate not shown"
			}
			return ""
		}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			tr, err := tt.in.transport()
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(CheckCABundle(tt.in.CABundle), tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr == http.DefaultTransport {
				t.Error("the shared default transport, not a clone")
			}
			if tr.TLSClientConfig.MinVersion != tls.VersionTLS12 {
				t.Errorf("MinVersion %x, want TLS 1.2", tr.TLSClientConfig.MinVersion)
			}
			if p := tt.check(tr.TLSClientConfig); p != "" {
				t.Error(p)
			}
		})
	}
}

func TestNewRefusesABundleWithoutCertificate(t *testing.T) {
	_, err := New(Config{BaseURL: "https://server.example.com", CustomerID: 1, Auth: BasicAuth{Username: "u", Password: "p"}, TLS: TLS{CABundle: []byte("hello")}})
	if !errors.Is(err, ErrNoPEMCertificate) {
		t.Fatalf("New: %v, want ErrNoPEMCertificate", err)
	}
}
