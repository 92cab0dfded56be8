package emulator

import (
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// genericDomains are the public domains of the interface's domain table that
// follow the generic resource pattern, by their lower-cased name, which is the
// collection segment of their paths. Authentication and Token (paths not
// shown), Batches and Webhooks (own routes, webhooks.go) are deliberately
// absent.
var genericDomains = map[string]bool{
	"abandonedcart":   true,
	"apps":            true,
	"auto":            true,
	"campaigns":       true,
	"emailclients":    true,
	"forms":           true,
	"filters":         true,
	"integration":     true,
	"jobs":            true,
	"lists":           true,
	"messages":        true,
	"microsites":      true,
	"pe":              true,
	"placeholders":    true,
	"projects":        true,
	"properties":      true,
	"purchasehistory": true,
	"reports":         true,
	"scheduled":       true,
	"sms":             true,
	"tracking":        true,
	"triggers":        true,
}

// internalDomains are marked internal-only by the interface, with no public
// interface; keys are lower-case because they are matched case-insensitively.
// Values are the names as the interface spells them, for the error message.
var internalDomains = map[string]string{
	"features":       "Features",
	"ftpaccounts":    "FtpAccounts",
	"ping":           "Ping",
	"retention":      "Retention",
	"systemfeedback": "Systemfeedback",
	"systeminfo":     "Systeminfo",
	"systemusers":    "Systemusers",
	"systemmessages": "Systemmessages",
	"maintenance":    "Maintenance",
}

// internalDomain reports whether the collection segment names an
// internal-only domain, and its spelling in the interface.
func internalDomain(collection string) (string, bool) {
	name, ok := internalDomains[strings.ToLower(collection)]
	return name, ok
}

// mandatoryFields lists, per collection key, the fields a stored entity must
// hold as a non-empty string. The key is the collection ("projects") or, for
// nested generic collections, "collection/sub" ("projects/notes"). The
// interface names no mandatory fields; these are the ones the provider relies
// on, and later work adds entries as it learns more. Each Server copies the
// table at New; nothing writes to it afterwards.
var mandatoryFields = map[string][]string{
	"projects":          {"name"},
	state.ListsKey:      {"name"},
	state.PropertiesKey: {"name"},
}

// reservedKeys are set by the server and ignored in request bodies.
var reservedKeys = []string{"id", "dateCreated", "dateModified"}

// The Webhooks domain. The interface names it but shows neither fields,
// events nor signing; the emulator's OpenAPI document (openapi/40-webhooks.json)
// and the service conventions guide describe the design:
//
//	{ "url": "https://hooks.example.com/rms", "events": ["message.sent"],
//	  "active": true, "description": "...", "secret": "write-only" }
//
// The secret is write-only: GET never returns it, only "hasSecret".

// webhooksKey is the collection key of webhooks.
const webhooksKey = "webhooks"
