package emulator

import "encoding/binary"

// importRows keeps parsed rows compactly, in order: per row a uvarint of the
// field count plus one, then each field as a uvarint length and its bytes;
// a bad row is a 0 followed by its reason, as a uvarint length and its
// bytes. next reads them back in order.
type importRows struct {
	buf []byte
	n   int64
	pos int
}

func (r *importRows) append(fields []string) {
	r.buf = binary.AppendUvarint(r.buf, uint64(len(fields))+1)
	for _, f := range fields {
		r.buf = binary.AppendUvarint(r.buf, uint64(len(f)))
		r.buf = append(r.buf, f...)
	}
	r.n++
}

func (r *importRows) appendBad(reason string) {
	r.buf = binary.AppendUvarint(r.buf, 0)
	r.buf = binary.AppendUvarint(r.buf, uint64(len(reason)))
	r.buf = append(r.buf, reason...)
	r.n++
}

// next returns the next row's fields, or false and the reason for a bad
// row.
func (r *importRows) next() ([]string, string, bool) {
	count, n := binary.Uvarint(r.buf[r.pos:])
	r.pos += n
	if count == 0 {
		l, n := binary.Uvarint(r.buf[r.pos:])
		r.pos += n
		reason := string(r.buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
		return nil, reason, false
	}
	fields := make([]string, count-1)
	for i := range fields {
		l, n := binary.Uvarint(r.buf[r.pos:])
		r.pos += n
		fields[i] = string(r.buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
	}
	return fields, "", true
}
