package emulator

import (
	"fmt"
	"slices"
	"strings"
)

// Wire profiles: where the interface leaves an answer's shape
// "not shown", the emulator answers the way the conventions guide says. A
// wire profile switches ONE such open dimension to ONE plausible
// alternative, so that a client can be tested against a service that chose
// differently. The JSON-shape dimensions are applied in one place, a layer
// that rewrites the handlers' answers (wire_rewrite.go), and errors and
// charsets where answers are written (wire_errors.go); the behavioural
// dimensions live where the behaviour does (contacts, paging, batches,
// results), reading s.opts.Wire.

// Wire profile names. They are a contract with the provider's tests: do not
// rename.
const (
	WireCreateIDOnly       = "create-id-only"
	WireCreateLocation     = "create-location"
	WireWrite200           = "write-200"
	WireUpdateEmpty        = "update-empty"
	WireUpdate204          = "update-204"
	WireIDsString          = "ids-string"
	WireIDsNumber          = "ids-number"
	WireTimeMillis         = "time-millis"
	WireTimeSeconds        = "time-seconds"
	WireTimeOffset         = "time-offset"
	WireOptionalNull       = "optional-null"
	WireOptionalEmpty      = "optional-empty"
	WireExtraFields        = "extra-fields"
	WireErrorsText         = "errors-text"
	WireErrorsHTML         = "errors-html"
	WireErrorsEmpty        = "errors-empty"
	WireErrorsOtherJSON    = "errors-other-json"
	WireCharsetNone        = "charset-none"
	WireCharsetUpper       = "charset-upper"
	WirePropertiesByID     = "properties-by-id"
	WireNoStatuses         = "no-statuses"
	WireDoubleOptIn        = "double-opt-in"
	WireStatusOther        = "status-other"
	WireContactConflict400 = "contact-conflict-400"
	WireContactUpsert      = "contact-upsert"
	WirePagingIgnored      = "paging-ignored"
	WirePagingPageIgnored  = "paging-page-ignored"
	WireBatchSparse        = "batch-sparse"
	WireBatchStatusOther   = "batch-status-other"
	WireResultDirect       = "result-direct"
	WireResultURLJSON      = "result-url-json"
	WireNoListings         = "no-listings"
)

// WireAllName is the name ParseWire expands to AllWire.
const WireAllName = "all"

// WireProfile is one wire profile and what it changes.
type WireProfile struct {
	Name        string
	Description string
}

// wireProfiles is the one list of profiles, in their stable order (the order
// of -h, of the docs and of Wire.String).
var wireProfiles = []WireProfile{
	{WireCreateIDOnly, "creates answer 201 with only {\"id\": ...}"},
	{WireCreateLocation, "creates answer 201 with no body and an absolute Location header"},
	{WireWrite200, "POST/PUT answer 200 instead of 201/202; DELETE answers 200 with an empty body"},
	{WireUpdateEmpty, "PUT answers 200 with an empty body"},
	{WireUpdate204, "PUT answers 204 No Content"},
	{WireIDsString, "entity ids (id, triggerId, customerId) are JSON digit strings"},
	{WireIDsNumber, "import id, batchId, listId and importId are JSON integers"},
	{WireTimeMillis, "dateCreated/dateModified are epoch milliseconds"},
	{WireTimeSeconds, "dateCreated/dateModified and batch startTime/endTime are epoch seconds"},
	{WireTimeOffset, "dateCreated/dateModified and batch startTime/endTime are RFC 3339 with milliseconds and a +02:00 offset"},
	{WireOptionalNull, "optional fields without a value are null instead of left out"},
	{WireOptionalEmpty, "optional string fields without a value are \"\" instead of left out or null"},
	{WireExtraFields, "entities and batches carry unknown fields (_links, xVersion, tags)"},
	{WireErrorsText, "errors are text/plain one-liners"},
	{WireErrorsHTML, "errors are HTML gateway pages"},
	{WireErrorsEmpty, "errors have an empty body"},
	{WireErrorsOtherJSON, "errors are {\"error\": {code, description, target}} as application/problem+json"},
	{WireCharsetNone, "JSON answers are Content-Type: application/json without charset"},
	{WireCharsetUpper, "JSON answers are Content-Type: application/json;charset=UTF-8"},
	{WirePropertiesByID, "contact properties are keyed by attribute id (\"3\") instead of name"},
	{WireNoStatuses, "contacts never show status/mobileStatus"},
	{WireDoubleOptIn, "new contacts start UNSUBSCRIBED (e-mail and mobile) whatever the create body says"},
	{WireStatusOther, "a new contact created without status starts with e-mail status PENDING"},
	{WireContactConflict400, "a second create of an originalId is 400 VALIDATION_ERROR instead of 409"},
	{WireContactUpsert, "a second create of an originalId merges into the contact and answers 200"},
	{WirePagingIgnored, "collection GETs ignore page and pageSize and answer everything, without X-Total-Count"},
	{WirePagingPageIgnored, "collection GETs honour pageSize but always answer the first page"},
	{WireBatchSparse, "batches show only id, status, error and the read-back fields"},
	{WireBatchStatusOther, "batch states are QUEUED, RUNNING, COMPLETED and FAILED"},
	{WireResultDirect, "GET batches/{id}/result answers 200 with the file instead of a redirect"},
	{WireResultURLJSON, "GET batches/{id}/result/url answers application/json {\"url\": ...}"},
	{WireNoListings, "GET lists/{id}/imports answers 404 and GET batches answers 405"},
}

// allWireNames is the profile set of -wire all: one alternative per
// dimension, all at once.
var allWireNames = []string{
	WireCreateIDOnly, WireUpdate204, WireIDsString, WireTimeMillis, WireOptionalNull,
	WireExtraFields, WireErrorsHTML, WireCharsetUpper, WirePropertiesByID, WireNoStatuses,
	WireDoubleOptIn, WireContactUpsert, WirePagingIgnored, WireBatchSparse,
	WireBatchStatusOther, WireResultDirect, WireNoListings,
}

// wireExclusive are groups of profiles of which at most one may be chosen:
// each group is alternatives of one dimension.
var wireExclusive = [][]string{
	{WireCreateIDOnly, WireCreateLocation},
	{WireUpdateEmpty, WireUpdate204},
	{WireIDsString, WireIDsNumber},
	{WireTimeMillis, WireTimeSeconds, WireTimeOffset},
	{WireOptionalNull, WireOptionalEmpty},
	{WireErrorsText, WireErrorsHTML, WireErrorsEmpty, WireErrorsOtherJSON},
	{WireCharsetNone, WireCharsetUpper},
	{WireDoubleOptIn, WireStatusOther},
	{WireContactConflict400, WireContactUpsert},
	{WirePagingIgnored, WirePagingPageIgnored},
}

// Wire is a set of wire profiles (Options.Wire). The zero value is the
// default behaviour. Build one with ParseWire.
type Wire struct {
	bits uint64
}

// AllWire is the set -wire all selects (see allWireNames).
var AllWire = mustParseWire(strings.Join(allWireNames, ","))

// WireProfiles returns every profile with a one-line description, in a
// stable order.
func WireProfiles() []WireProfile { return slices.Clone(wireProfiles) }

func wireIndex(name string) int {
	return slices.IndexFunc(wireProfiles, func(p WireProfile) bool { return p.Name == name })
}

// ParseWire parses "name[,name...]" (or "all", which may be combined with
// names of dimensions it does not cover). An empty string is the default.
// Unknown names and two alternatives of one dimension are errors.
func ParseWire(s string) (Wire, error) {
	var w Wire
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "":
			continue
		case WireAllName:
			for _, n := range allWireNames {
				w.bits |= 1 << wireIndex(n)
			}
			continue
		}
		i := wireIndex(name)
		if i < 0 {
			return Wire{}, fmt.Errorf("unknown wire profile %q; valid profiles: %s, or %s", name, strings.Join(wireNames(), ", "), WireAllName)
		}
		w.bits |= 1 << i
	}
	for _, group := range wireExclusive {
		var chosen []string
		for _, name := range group {
			if w.Has(name) {
				chosen = append(chosen, name)
			}
		}
		if len(chosen) > 1 {
			return Wire{}, fmt.Errorf("wire profiles %s are alternatives of one dimension; choose one", strings.Join(chosen, " and "))
		}
	}
	return w, nil
}

// MustParseWire is ParseWire for constants; it panics on an error.
func MustParseWire(s string) Wire { return mustParseWire(s) }

func mustParseWire(s string) Wire {
	w, err := ParseWire(s)
	if err != nil {
		panic(err)
	}
	return w
}

func wireNames() []string {
	names := make([]string, len(wireProfiles))
	for i, p := range wireProfiles {
		names[i] = p.Name
	}
	return names
}

// Has reports whether the profile name is in w.
func (w Wire) Has(name string) bool {
	i := wireIndex(name)
	return i >= 0 && w.bits&(1<<i) != 0
}

// IsZero reports whether w is the default behaviour.
func (w Wire) IsZero() bool { return w.bits == 0 }

// Names returns the profiles of w in the stable order of WireProfiles.
func (w Wire) Names() []string {
	var out []string
	for i, p := range wireProfiles {
		if w.bits&(1<<i) != 0 {
			out = append(out, p.Name)
		}
	}
	return out
}

// String is the profiles of w joined by commas, as ParseWire reads them;
// "" for the default.
func (w Wire) String() string { return strings.Join(w.Names(), ",") }

// hasAny reports whether w holds any of names.
func (w Wire) hasAny(names ...string) bool {
	for _, n := range names {
		if w.Has(n) {
			return true
		}
	}
	return false
}
