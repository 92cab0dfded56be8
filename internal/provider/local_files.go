package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Local files the provider reads: import files (hashed at plan time,
// streamed at apply), contact files of rms_list_contacts, and exported
// results already downloaded (operation.FetchExportResult writes them).

// hashFile returns the hexadecimal SHA-256 of a file, reading it as a
// stream. exists is false when there is no file at path.
func hashFile(path string) (sum string, exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to flush
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", true, fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}
