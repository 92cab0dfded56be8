package bench

import (
	"bufio"
	"io"
	"os"
	"strconv"
)

// CSVHeader is the first line of the files WriteCSV makes: an identity
// column and three contact attributes every emulated account has.
const CSVHeader = "originalId,email,firstname,lastname"

// WriteCSV writes a contact import file of rows data rows (about 60 bytes
// each, so 1,000,000 rows make about 60 MB) without holding it in memory:
// the large-file scenario measures the provider's memory, not the harness's.
func WriteCSV(w io.Writer, rows int) error {
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
		line = append(line, "@example.com,Ada,Lovelace-"...)
		line = append(line, n...)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteCSVFile writes WriteCSV's file at path and returns its size.
func WriteCSVFile(path string, rows int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	if err := WriteCSV(f, rows); err != nil {
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
