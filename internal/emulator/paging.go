package emulator

import (
	"net/http"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Paging of collection GETs (conventions: "Collections and paging").
const (
	defaultPageSize = 100
	maxPageSize     = 1000
)

// pageParams reads the zero-based page and pageSize query parameters.
// A malformed or out-of-range value is a validation error naming the
// parameter, rather than silently falling back to a default a client did not
// ask for.
func pageParams(r *http.Request) (page, pageSize int, err *apierr.Error) {
	q := r.URL.Query()
	page, pageSize = 0, defaultPageSize
	if q.Has("page") {
		n, perr := strconv.Atoi(q.Get("page"))
		if perr != nil || n < 0 {
			return 0, 0, apierr.FieldError("page", "page must be an integer of 0 or more, got %q", q.Get("page"))
		}
		page = n
	}
	if q.Has("pageSize") {
		n, perr := strconv.Atoi(q.Get("pageSize"))
		if perr != nil || n < 1 || n > maxPageSize {
			return 0, 0, apierr.FieldError("pageSize", "pageSize must be an integer from 1 to %d, got %q", maxPageSize, q.Get("pageSize"))
		}
		pageSize = n
	}
	return page, pageSize, nil
}

// pageOffset is the index of the first entity of page, saturating instead of
// overflowing for absurd page numbers (which then simply yield an empty page).
func pageOffset(page, pageSize int) int {
	const maxInt = int(^uint(0) >> 1)
	if page > maxInt/pageSize {
		return maxInt
	}
	return page * pageSize
}
