package emulator

import (
	"net/http"
	"net/mail"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Contact attributes are account-wide: they are the entities of the public
// Properties domain (generic pattern, "name" mandatory, server-assigned
// integer id). A contact's properties map is keyed by the attribute's name or
// by its id written as a string; both resolve to the same attribute, and
// responses always use the name. Names are unique within the account and may
// not consist of digits only, so that a key is never ambiguous.

// StandardProperties are the attributes every emulated account starts with,
// in id order (they get the ids 1 to 4), so that configurations work without
// declaring them.
var StandardProperties = []string{"email", "mobile", "firstname", "lastname"}

// preloadProperties creates the standard attributes of a new account.
func (st *store) preloadProperties(now string) {
	for _, name := range StandardProperties {
		if _, _, err := st.create(nil, propertiesKey, map[string]any{"name": name}, now, nil); err != nil {
			panic("preloading property " + name + ": " + err.Error())
		}
	}
}

// checkProperty keeps attribute names unambiguous: not all digits (a key of
// digits means an id) and unique within the account.
func checkProperty(st *store, e entity, selfID int64) *apierr.Error {
	name, _ := e["name"].(string) // checkMandatory ran first
	if allDigits(name) {
		return apierr.FieldError("name", "a property name must not consist of digits only (%q): a contact property key of digits names an attribute by id", name)
	}
	var clash int64
	st.eachLocked(propertiesKey, func(other entity) bool {
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
func checkList(_ *store, e entity, _ int64) *apierr.Error {
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

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// propertyNamesLocked maps every attribute id to its name. The caller holds
// st.mu.
func (st *store) propertyNamesLocked() map[int64]string {
	names := map[int64]string{}
	st.eachLocked(propertiesKey, func(e entity) bool {
		names[e["id"].(int64)] = e["name"].(string)
		return true
	})
	return names
}

// resolvePropertyLocked finds the attribute a contact property key names:
// digits are an id, anything else a name. The caller holds st.mu.
func (st *store) resolvePropertyLocked(key string) (int64, bool) {
	if allDigits(key) {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return 0, false
		}
		ok := st.hasLocked(propertiesKey, id)
		return id, ok
	}
	var found int64
	st.eachLocked(propertiesKey, func(e entity) bool {
		if e["name"] == key {
			found = e["id"].(int64)
			return false
		}
		return true
	})
	return found, found != 0
}
