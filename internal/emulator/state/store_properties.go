package state

import (
	"strconv"
	"strings"
)

// PropertyIDsByName maps each contact attribute's name to its id.
func (st *Store) PropertyIDsByName() map[string]int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	names := st.PropertyNamesLocked()
	ids := make(map[string]int64, len(names))
	for id, name := range names {
		ids[name] = id
	}
	return ids
}

// StandardProperties are the attributes every emulated account starts with,
// in id order (they get the ids 1 to 4), so that configurations work without
// declaring them.
var StandardProperties = []string{"email", "mobile", "firstname", "lastname"}

// PreloadProperties creates the standard attributes of a new account.
func (st *Store) PreloadProperties(now string) {
	for _, name := range StandardProperties {
		if _, _, err := st.Create(nil, PropertiesKey, map[string]any{"name": name}, now, nil); err != nil {
			panic("preloading property " + name + ": " + err.Error())
		}
	}
}

// PropertyNamesLocked maps every attribute id to its name. The caller holds
// st.
func (st *Store) PropertyNamesLocked() map[int64]string {
	names := map[int64]string{}
	st.EachLocked(PropertiesKey, func(e Entity) bool {
		names[e["id"].(int64)] = e["name"].(string)
		return true
	})
	return names
}

// ResolvePropertyLocked finds the attribute a contact property key names:
// digits are an id, anything else a name. The caller holds st.
func (st *Store) ResolvePropertyLocked(key string) (int64, bool) {
	if AllDigits(key) {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return 0, false
		}
		ok := st.hasLocked(PropertiesKey, id)
		return id, ok
	}
	var found int64
	st.EachLocked(PropertiesKey, func(e Entity) bool {
		if e["name"] == key {
			found = e["id"].(int64)
			return false
		}
		return true
	})
	return found, found != 0
}

// AllDigits reports whether s is a non-empty string of digits only, which
// names an attribute by id.
func AllDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// ResolveProperties finds the attribute each key names, as
// ResolvePropertyLocked does (0 where none), and returns the account's
// attribute names with them, both read at one moment.
func (st *Store) ResolveProperties(keys []string) (ids []int64, names map[int64]string) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	ids = make([]int64, len(keys))
	for i, k := range keys {
		if id, ok := st.ResolvePropertyLocked(k); ok {
			ids[i] = id
		}
	}
	return ids, st.PropertyNamesLocked()
}
