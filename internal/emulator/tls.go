package emulator

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLS makes a Listener serve HTTPS, and optionally require client
// certificates (mutual TLS), so that configurations using ca_bundle_file and
// client certificates can be tested as they will run against a real
// account. PEM text rather than files, so tests can generate certificates
// in memory; ReadTLSFiles reads the files rms-emulator is given.
type TLS struct {
	// CertPEM is the server's certificate (chain, leaf first) and KeyPEM its
	// private key.
	CertPEM, KeyPEM []byte
	// ClientCAPEM, when set, makes every connection present a client
	// certificate signed by one of these authorities; a connection without
	// one fails its handshake.
	ClientCAPEM []byte
}

// ReadTLSFiles reads the PEM files of a TLS setting; clientCAFile may be "".
func ReadTLSFiles(certFile, keyFile, clientCAFile string) (TLS, error) {
	var t TLS
	var err error
	if t.CertPEM, err = os.ReadFile(certFile); err != nil {
		return TLS{}, fmt.Errorf("reading the TLS certificate: %w", err)
	}
	if t.KeyPEM, err = os.ReadFile(keyFile); err != nil {
		return TLS{}, fmt.Errorf("reading the TLS key: %w", err)
	}
	if clientCAFile != "" {
		if t.ClientCAPEM, err = os.ReadFile(clientCAFile); err != nil {
			return TLS{}, fmt.Errorf("reading the client CA: %w", err)
		}
	}
	return t, nil
}

// config builds the server's tls.Config.
func (t TLS) config() (*tls.Config, error) {
	if len(t.CertPEM) == 0 || len(t.KeyPEM) == 0 {
		return nil, errors.New("emulator: TLS needs both a certificate and a key")
	}
	cert, err := tls.X509KeyPair(t.CertPEM, t.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("emulator: loading the TLS certificate and key: %w", err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	if len(t.ClientCAPEM) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(t.ClientCAPEM) {
			return nil, errors.New("emulator: the client CA holds no PEM certificate")
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}
