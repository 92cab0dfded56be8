package client

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ID is a server-assigned identifier. The service sends entity ids as JSON
// numbers and import or batch ids as strings; ID accepts both and always
// holds the decimal string form, which is what paths and Terraform state use.
type ID string

// UnmarshalJSON accepts a JSON number or string.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*id = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decoding id: %w", err)
		}
		*id = ID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("decoding id %s: expected a number or a string", string(b))
	}
	*id = ID(n.String())
	return nil
}

// String returns the id as text.
func (id ID) String() string { return string(id) }
