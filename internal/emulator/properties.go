package emulator

import (
	"net/http"
	"net/mail"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Contact attributes are account-wide: they are the entities of the public
// Properties domain (generic pattern, "name" mandatory, server-assigned
// integer id). A contact's properties map is keyed by the attribute's name or
// by its id written as a string; both resolve to the same attribute, and
// responses always use the name. Names are unique within the account and may
// not consist of digits only, so that a key is never ambiguous.

// checkProperty keeps attribute names unambiguous: not all digits (a key of
// digits means an id) and unique within the account.
func checkProperty(st *state.Store, e state.Entity, selfID int64) *apierr.Error {
	name, _ := e["name"].(string) // checkMandatory ran first
	if state.AllDigits(name) {
		return apierr.FieldError("name", "a property name must not consist of digits only (%q): a contact property key of digits names an attribute by id", name)
	}
	var clash int64
	st.EachLocked(state.PropertiesKey, func(other state.Entity) bool {
		if id := other["id"].(int64); id != selfID && other["name"] == name {
			clash = id
			return false
		}
		return true
	})
	if clash != 0 {
		return &apierr.Error{Status: http.StatusConflict, Field: "name",
			Message: "a property named " + strconv.Quote(name) + " already exists (id " + strconv.FormatInt(clash, 10) + ")"}
	}
	return nil
}

// checkList validates the optional fields of a list: description and
// senderName are strings, senderEmail is an e-mail address.
func checkList(_ *state.Store, e state.Entity, _ int64) *apierr.Error {
	for _, f := range []string{"description", "senderName", "senderEmail"} {
		if v, ok := e[f]; ok {
			if _, isString := v.(string); !isString {
				return apierr.FieldError(f, "%s must be a string", f)
			}
		}
	}
	if v, ok := e["senderEmail"].(string); ok {
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
			return apierr.FieldError("senderEmail", "senderEmail must be a bare e-mail address such as news@example.com, got %q", v)
		}
	}
	return nil
}

// StandardProperties are the attributes every emulated account starts with,
// in id order (they get the ids 1 to 4).
var StandardProperties = state.StandardProperties
