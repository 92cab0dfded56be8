package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Download describes a file streamed to a writer.
type Download struct {
	// Size is the number of bytes written.
	Size int64
	// SHA256 is the lower-case hexadecimal SHA-256 of those bytes.
	SHA256 string
	// ContentType is the media type the storage answered with.
	ContentType string
}

// errInsecureRedirect refuses a redirect that would leave https for plain
// http (other than to a loopback address): the file would cross the network
// in clear text.
var errInsecureRedirect = errors.New("refusing to follow a redirect to a plain http URL that is not a loopback address")

// maxDownloadRedirects bounds redirect chains of file transfers.
const maxDownloadRedirects = 10

var errTooManyRedirects = fmt.Errorf("stopped after %d redirects", maxDownloadRedirects)

// checkDownloadRedirect is the redirect policy of file transfers. Go's client
// already drops the Authorization header when a redirect leaves the host, so
// the account's credentials never reach the object storage.
func checkDownloadRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxDownloadRedirects {
		return errTooManyRedirects
	}
	if req.URL.Scheme == "https" || (req.URL.Scheme == "http" && IsLoopbackHost(req.URL.Hostname())) {
		return nil
	}
	return errInsecureRedirect
}

// DownloadResult streams a finished export's file into w: it asks the
// service for the result, follows the redirect to the object storage and
// copies the body as it arrives, hashing and counting it on the way, so the
// file is never held whole in memory. When it fails part-way, w has received
// part of the file: write to a temporary file and rename it on success.
func (s *BatchService) DownloadResult(ctx context.Context, batchID string, w io.Writer) (*Download, error) {
	resp, err := s.c.send(ctx, request{
		method: http.MethodGet,
		path:   Path(batchesPath, batchID, "result"),
		accept: "text/csv, */*;q=0.5",
		stream: true,
	})
	if err != nil {
		return nil, fmt.Errorf("downloading the result of batch %s: %w", batchID, err)
	}
	defer func() { _ = resp.Body.Close() }()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), resp.Body)
	if err != nil {
		return nil, fmt.Errorf("downloading the result of batch %s: after %d bytes: %w", batchID, n, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return nil, fmt.Errorf("downloading the result of batch %s: received %d of %d bytes", batchID, n, resp.ContentLength)
	}
	return &Download{Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), ContentType: resp.Header.Get("Content-Type")}, nil
}
