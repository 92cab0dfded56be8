package operation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// downloadToFile streams a finished export into path: into a temporary file
// beside it first, renamed over path only once the whole file has arrived,
// so a failed download never leaves a partial file under the final name.
// Missing parent directories are created. The file is readable by its owner
// only, since it holds account data.
// A failure on the local side (the directory, the temporary file, the
// rename) is a localFileError; any other came from the service.
func downloadToFile(ctx context.Context, c *client.Client, batchID, path string) (*client.Download, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, localFileError{fmt.Errorf("creating the directory of %s: %w", path, err)}
	}
	tmp, err := os.CreateTemp(dir, ".rms-download-*")
	if err != nil {
		return nil, localFileError{fmt.Errorf("creating a temporary file beside %s: %w", path, err)}
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after a successful rename
	d, err := c.Batches.DownloadResult(ctx, batchID, tmp)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = localFileError{fmt.Errorf("writing %s: %w", tmp.Name(), cerr)}
	}
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, localFileError{fmt.Errorf("moving the download into place at %s: %w", path, err)}
	}
	return d, nil
}

// localFileError is a download that failed while writing the local file,
// not on the service's side: fetching again does not help until the path
// is fixed.
type localFileError struct{ err error }

func (e localFileError) Error() string { return e.err.Error() }
func (e localFileError) Unwrap() error { return e.err }
