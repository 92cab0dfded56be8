package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strings"
)

// TLS says how the client checks the server and shows itself to it; the
// client builds its transport from it, so that no caller handles HTTP.
// Verification is on unless InsecureSkipVerify says otherwise.
type TLS struct {
	// CABundle is PEM certificates of private authorities, trusted in
	// addition to the system's (a private CA need not replace public ones).
	CABundle []byte
	// InsecureSkipVerify accepts any server certificate.
	InsecureSkipVerify bool
	// ClientCertificate, when not nil, is shown to servers that ask for one
	// (mutual TLS).
	ClientCertificate *tls.Certificate
}

// ErrNoPEMCertificate is a CA bundle without a single PEM certificate.
var ErrNoPEMCertificate = errors.New("no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----)")

// CheckCABundle reports whether a CA bundle holds a certificate, so that a
// caller can blame its source before building a client.
func CheckCABundle(pem []byte) error {
	_, err := caPool(pem)
	return err
}

func caPool(pem []byte) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, ErrNoPEMCertificate
	}
	return pool, nil
}

// transport clones the default transport (proxy settings, timeouts,
// HTTP/2) and gives it these TLS settings, never below TLS 1.2.
func (t TLS) transport() (*http.Transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// A contact listing has up to maxListingWindow pages in flight; the
	// default of two idle connections per host closed the others as their
	// pages came back, and the next pages dialled again (a TCP and a TLS
	// handshake each, across a network).
	tr.MaxIdleConnsPerHost = maxListingWindow
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if t.ClientCertificate != nil {
		tr.TLSClientConfig.Certificates = []tls.Certificate{*t.ClientCertificate}
	}
	if len(t.CABundle) > 0 {
		pool, err := caPool(t.CABundle)
		if err != nil {
			return nil, err
		}
		tr.TLSClientConfig.RootCAs = pool
	}
	if t.InsecureSkipVerify {
		tr.TLSClientConfig.InsecureSkipVerify = true //nolint:gosec // explicit user choice; the provider warns on every run
	}
	return tr, nil
}

// IsUntrustedCertificate reports whether a call failed because the
// server's certificate did not verify: unknown authority, wrong host name,
// or any other verification failure.
func IsUntrustedCertificate(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host)
}

// IsClientCertificateRefused recognises the TLS alert a server sends when
// it requires a client certificate and got none, or one it does not trust.
// The alert type is not exported, so the "remote error" is matched by its
// text: "tls: certificate required" (TLS 1.3) or "tls: bad certificate"
// (TLS 1.2, or a certificate of an unknown authority).
func IsClientCertificateRefused(err error) bool {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "remote error" || op.Err == nil {
		return false
	}
	msg := op.Err.Error()
	return strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") ||
		strings.Contains(msg, "unknown certificate authority")
}
