package emulator

import "encoding/binary"

// importRows keeps parsed rows compactly, in order: per row a uvarint of the
// field count plus one, then each field as a uvarint length and its bytes;
// a bad row is a 0 followed by its reason, as a uvarint length and its
// bytes. next reads them back in order.
//
// The rows are kept in blocks of importRowsBlock bytes rather than one
// buffer: a large file's rows (some 770 MB for ten million rows of four
// attributes) are never copied into a buffer twice as large as they grow,
// and a batch that reads them once (ADD, UNSUBSCRIBE) lets each block go as
// soon as it has read it, so that the upload's memory returns as the
// batch's contacts take it.
type importRows struct {
	blocks [][]byte
	n      int64
	// block and pos are where next reads.
	block, pos int
	// keep holds the blocks read, for a batch that reads the rows twice
	// (REPLACE, at its end).
	keep bool
}

// importRowsBlock is the size of a block of rows; a longer row has a
// block of its own.
const importRowsBlock = 4 << 20

// room returns the last block with room for n more bytes.
func (r *importRows) room(n int) *[]byte {
	if len(r.blocks) == 0 || len(r.blocks[len(r.blocks)-1])+n > cap(r.blocks[len(r.blocks)-1]) {
		r.blocks = append(r.blocks, make([]byte, 0, max(importRowsBlock, n)))
	}
	return &r.blocks[len(r.blocks)-1]
}

func (r *importRows) append(fields []string) {
	n := binary.MaxVarintLen64 * (len(fields) + 1)
	for _, f := range fields {
		n += len(f)
	}
	b := r.room(n)
	*b = binary.AppendUvarint(*b, uint64(len(fields))+1)
	for _, f := range fields {
		*b = binary.AppendUvarint(*b, uint64(len(f)))
		*b = append(*b, f...)
	}
	r.n++
}

func (r *importRows) appendBad(reason string) {
	b := r.room(2*binary.MaxVarintLen64 + len(reason))
	*b = binary.AppendUvarint(*b, 0)
	*b = binary.AppendUvarint(*b, uint64(len(reason)))
	*b = append(*b, reason...)
	r.n++
}

// rereader reads the same rows again from the first, keeping them.
func (r *importRows) rereader() importRows {
	return importRows{blocks: r.blocks, n: r.n, keep: true}
}

// next returns the next row's fields, or false and the reason for a bad
// row. The strings are copies: the blocks may go once read.
func (r *importRows) next() ([]string, string, bool) {
	if r.block < len(r.blocks) && r.pos == len(r.blocks[r.block]) {
		if !r.keep {
			r.blocks[r.block] = nil
		}
		r.block, r.pos = r.block+1, 0
	}
	if r.block == len(r.blocks) {
		return nil, "", false // a batch restored without its rows
	}
	buf := r.blocks[r.block]
	count, n := binary.Uvarint(buf[r.pos:])
	r.pos += n
	if count == 0 {
		l, n := binary.Uvarint(buf[r.pos:])
		r.pos += n
		reason := string(buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
		return nil, reason, false
	}
	fields := make([]string, count-1)
	for i := range fields {
		l, n := binary.Uvarint(buf[r.pos:])
		r.pos += n
		fields[i] = string(buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
	}
	return fields, "", true
}
