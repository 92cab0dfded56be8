package emulator

// Ids in request paths, which every domain's item routes read.

import (
	"net/http"
	"strconv"
)

// itemID is the id of the entity an item path names: {subid} when nested.
func itemID(r *http.Request) (string, int64, bool) {
	raw := r.PathValue("subid")
	if raw == "" {
		raw = r.PathValue("id")
	}
	id, ok := parseID(raw)
	return raw, id, ok
}

// parseID reads a positive id; anything else names no entity.
func parseID(raw string) (int64, bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	return id, err == nil && id > 0
}
