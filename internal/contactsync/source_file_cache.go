package contactsync

import (
	"context"
	"os"
	"sync"
	"time"
)

// Within one terraform command a source file is read by several calls of
// one provider process: the apply's final plan, then the apply itself (and
// a refresh, then its plan, share the refresh's book through Snapshots). A
// million-row file takes a second or two to read, so the run keeps the
// last book of each way of reading a file, for as long as the file's size
// and modification time stay as they were when it was read. The apply
// still compares the digest of what it writes with the plan's.

// sourceFiles is a run's cache of books by how a file is read.
type sourceFiles struct {
	mu    sync.Mutex
	books map[FileOptions]cachedBook
}

type cachedBook struct {
	book    *Book
	size    int64
	modTime time.Time
}

// SourceFile is ReadSourceFile through the run's cache.
func (r *Run) SourceFile(ctx context.Context, opts FileOptions) (*Book, error) {
	st, statErr := os.Stat(opts.Path)
	if statErr == nil {
		r.files.mu.Lock()
		c, ok := r.files.books[opts]
		r.files.mu.Unlock()
		if ok && c.size == st.Size() && c.modTime.Equal(st.ModTime()) {
			return c.book, nil
		}
		r.readingLargeFile(st.Size())
	}
	book, err := ReadSourceFile(ctx, opts, r.Attributes)
	if err != nil {
		return nil, err
	}
	r.heldLargeBook(book)
	if statErr != nil || len(book.UnknownColumns) > 0 {
		// A book with columns of no attribute is read again: the apply
		// reads it once more after the attributes were confirmed.
		return book, nil
	}
	r.files.mu.Lock()
	defer r.files.mu.Unlock()
	if r.files.books == nil {
		r.files.books = map[FileOptions]cachedBook{}
	}
	r.files.books[opts] = cachedBook{book: book, size: st.Size(), modTime: st.ModTime()}
	return book, nil
}
