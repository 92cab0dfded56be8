package bench

import (
	"bufio"
	"io"
	"os"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// CSVHeader is the first line of the files WriteCSV makes: an identity
// column and three contact attributes every emulated account has.
const CSVHeader = "originalId,email,firstname,lastname"

// WriteCSV writes a contact import file of rows data rows (about 60 bytes
// each, so 1,000,000 rows make about 60 MB) without holding it in memory:
// the large-file scenario measures the provider's memory, not the harness's.
func WriteCSV(w io.Writer, rows int) error { return writeCSV(w, rows, 0) }

// ChangedEvery is how far apart the rows are that a changed version of the
// file (WriteCSVVersion, version 1) changes: 1 % of the rows.
const ChangedEvery = 100

// WriteCSVVersion writes WriteCSV's file (version 0) or the same file with
// the firstname of every ChangedEvery-th row changed (version 1), so that
// applying one after the other changes 1 % of the contacts.
func WriteCSVVersion(w io.Writer, rows, version int) error { return writeCSV(w, rows, version) }

// csvFirstname is the firstname of row i in a version of the file.
func csvFirstname(i, version int) string {
	if version == 1 && i%ChangedEvery == 0 {
		return "Grace"
	}
	return "Ada"
}

// CSVContact is row i of WriteCSVVersion's file as the emulator's seeding
// API takes it, so a list can be preloaded with what the file says without
// an apply.
func CSVContact(i, version int) emulator.Contact {
	n := strconv.Itoa(i)
	return emulator.Contact{OriginalID: "customer-" + n, Properties: map[string]string{
		"email": "c" + n + "@example.com", "firstname": csvFirstname(i, version), "lastname": "Lovelace-" + n,
	}}
}

func writeCSV(w io.Writer, rows, version int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString(CSVHeader + "\n"); err != nil {
		return err
	}
	var line []byte
	for i := 0; i < rows; i++ {
		n := strconv.Itoa(i)
		line = append(line[:0], "customer-"...)
		line = append(line, n...)
		line = append(line, ",c"...)
		line = append(line, n...)
		line = append(line, "@example.com,"...)
		line = append(line, csvFirstname(i, version)...)
		line = append(line, ",Lovelace-"...)
		line = append(line, n...)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteCSVFile writes WriteCSV's file at path and returns its size.
func WriteCSVFile(path string, rows int) (int64, error) { return WriteCSVFileVersion(path, rows, 0) }

// WriteCSVFileVersion writes WriteCSVVersion's file at path and returns its
// size.
func WriteCSVFileVersion(path string, rows, version int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	if err := writeCSV(f, rows, version); err != nil {
		_ = f.Close() // the write's error is the one to report
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close() // Stat's error is the one to report
		return 0, err
	}
	return st.Size(), f.Close()
}
