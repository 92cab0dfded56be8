package emulator

import (
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// checkMandatory verifies that e holds every mandatory field of its
// collection (s.mandatory[rules]) as a non-empty string. It runs on POST
// bodies and on the merged result of a PUT, so a PUT cannot null out a
// mandatory field either.
func (s *base) checkMandatory(rules string, e map[string]any) *apierr.Error {
	for _, f := range s.mandatory[rules] {
		v, ok := e[f]
		if !ok || v == nil {
			return apierr.FieldError(f, "%s is mandatory", f)
		}
		str, isString := v.(string)
		if !isString {
			return apierr.FieldError(f, "%s must be a string", f)
		}
		if str == "" {
			return apierr.FieldError(f, "%s is mandatory", f)
		}
	}
	return nil
}

// domainChecks are the further rules of some collections, beyond mandatory
// fields, keyed like mandatoryFields. Each runs with the store locked (so it
// may compare with other entities through the *Locked methods) on the entity
// as it would be stored; selfID is the entity's own id on update, 0 on
// create.
var domainChecks = map[string]func(st *state.Store, e state.Entity, selfID int64) *apierr.Error{
	state.PropertiesKey: checkProperty,
	state.ListsKey:      checkList,
}

// entityCheck is the check a create (selfID 0) or update of the collection
// rules runs on the entity it would store.
func (s *base) entityCheck(rules string, selfID int64) func(state.Entity) *apierr.Error {
	return func(e state.Entity) *apierr.Error {
		if err := s.checkMandatory(rules, e); err != nil {
			return err
		}
		if check := domainChecks[rules]; check != nil {
			return check(s.store, e, selfID)
		}
		return nil
	}
}

// enumField reads a mandatory string field whose value must be one of
// allowed. The message lists the allowed values and, where the refused value
// is a known mistake or differs only in case, the value meant.
func enumField(body map[string]any, field string, allowed []string, hints map[string]string) (string, *apierr.Error) {
	raw, ok := body[field]
	if !ok || raw == nil {
		return "", apierr.FieldError(field, "%s is mandatory; one of %s", field, strings.Join(allowed, ", "))
	}
	v, ok := raw.(string)
	if !ok {
		return "", apierr.FieldError(field, "%s must be a string; one of %s", field, strings.Join(allowed, ", "))
	}
	if slices.Contains(allowed, v) {
		return v, nil
	}
	hint := hints[strings.ToUpper(v)]
	if hint == "" && slices.Contains(allowed, strings.ToUpper(v)) {
		hint = strings.ToUpper(v)
	}
	if hint != "" {
		return "", apierr.FieldError(field, "%s %q is not supported; did you mean %s? Allowed: %s", field, v, hint, strings.Join(allowed, ", "))
	}
	return "", apierr.FieldError(field, "%s %q is not supported; allowed: %s", field, v, strings.Join(allowed, ", "))
}
