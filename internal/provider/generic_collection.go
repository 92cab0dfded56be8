package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// publicCollections are the public domains of the interface that follow the
// generic resource pattern, by the lower-cased name that is their path
// segment below /{customerid}/.
var publicCollections = []string{
	"abandonedcart", "apps", "auto", "campaigns", "emailclients", "filters",
	"forms", "integration", "jobs", "lists", "messages", "microsites", "pe",
	"placeholders", "projects", "properties", "purchasehistory", "reports",
	"scheduled", "sms", "tracking", "triggers", "webhooks",
}

// internalCollections are the interface's internal-only domains: they have
// no public interface, so nothing may be managed through them.
var internalCollections = map[string]string{
	"features": "Features", "ftpaccounts": "FtpAccounts", "ping": "Ping",
	"retention": "Retention", "systemfeedback": "Systemfeedback",
	"systeminfo": "Systeminfo", "systemusers": "Systemusers",
	"systemmessages": "Systemmessages", "maintenance": "Maintenance",
}

// notGenericCollections are public domains without the generic pattern, and
// what to use instead.
var notGenericCollections = map[string]string{
	"batches":        "Batches are started by imports and statistics exports and read with the rms_batch data source; they are not created or updated directly.",
	"authentication": "The Authentication domain has no entities to manage; the provider authenticates with its username and password.",
	"token":          "The Token domain has no entities to manage; the provider authenticates with its username and password.",
}

// checkCollection explains what is wrong with a collection path, or returns
// "". A path is a public domain, optionally followed by pairs of parent id
// and nested collection name: "campaigns", "lists/12/notes".
func checkCollection(c string) string {
	if c == "" {
		return "collection must not be empty; give a domain of the service such as \"campaigns\"."
	}
	if strings.HasPrefix(c, "/") || strings.HasSuffix(c, "/") {
		return fmt.Sprintf("collection %q must not start or end with \"/\"; write it as the path after /{customerid}/, e.g. \"campaigns\" or \"lists/12/notes\".", c)
	}
	segs := strings.Split(c, "/")
	first := segs[0]
	if name, ok := internalCollections[strings.ToLower(first)]; ok {
		return fmt.Sprintf("%s is an internal-only domain of the service, without a public interface; it cannot be managed. Use a public domain such as \"campaigns\".", name)
	}
	if why, ok := notGenericCollections[strings.ToLower(first)]; ok {
		return fmt.Sprintf("collection %q does not follow the generic resource pattern. %s", first, why)
	}
	if !slices.Contains(publicCollections, first) {
		if slices.Contains(publicCollections, strings.ToLower(first)) {
			return fmt.Sprintf("collection %q must be written in lower case: %q.", first, strings.ToLower(first))
		}
		return fmt.Sprintf("collection %q is not a public domain of the service. Public domains: %s.", first, strings.Join(publicCollections, ", "))
	}
	if len(segs)%2 == 0 {
		return fmt.Sprintf("collection %q ends with a parent id; a nested collection is written as parent/{id}/name, e.g. \"lists/12/notes\".", c)
	}
	for _, s := range segs[1:] {
		if s == "" || strings.ContainsAny(s, " ?#%\\") {
			return fmt.Sprintf("collection %q has an empty or malformed segment %q.", c, s)
		}
	}
	return ""
}

// collectionValidator checks collection paths at plan time.
type collectionValidator = knownStringValidator[collectionCheck]

var _ validator.String = collectionValidator{}

type collectionCheck struct{}

func (collectionCheck) Description(context.Context) string {
	return "must be a public domain of the service, optionally nested as parent/{id}/name"
}

func (collectionCheck) check(value string) (summary, detail string) {
	if msg := checkCollection(value); msg != "" {
		return "Invalid collection", msg
	}
	return "", ""
}

// reservedBodyKeys are set by the server.
var reservedBodyKeys = []string{"id", "dateCreated", "dateModified"}

// bodyValidator requires an object (an HCL { } or a map) without the keys
// the server sets; it serves body and sensitive_body, and names the one it
// checks.
type bodyValidator struct{}

var _ validator.Dynamic = bodyValidator{}

func (bodyValidator) Description(context.Context) string {
	return "must be an object, without id, dateCreated or dateModified"
}

func (v bodyValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (bodyValidator) ValidateDynamic(_ context.Context, req validator.DynamicRequest, resp *validator.DynamicResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.IsUnderlyingValueNull() || req.ConfigValue.IsUnderlyingValueUnknown() {
		return
	}
	name := req.Path.String()
	keys, isObject := topLevelKeys(req.ConfigValue)
	if !isObject {
		if _, isString := req.ConfigValue.UnderlyingValue().(basetypes.StringValue); isString {
			resp.Diagnostics.AddAttributeError(req.Path, name+" must be an object, not a string",
				name+" takes the entity as an HCL object, so that plans show a change per key. Pass the object itself, e.g. "+name+" = { name = \"Spring sale\" }, instead of jsonencode({ ... }); a JSON string you already have can be turned into an object with jsondecode(...).")
			return
		}
		// The type only: a value of sensitive_body must never reach a message.
		resp.Diagnostics.AddAttributeError(req.Path, name+" must be an object",
			fmt.Sprintf("%s takes the entity as an HCL object, e.g. %s = { name = \"Spring sale\" }; got a value of type %s.", name, name, req.ConfigValue.UnderlyingValue().Type(context.Background())))
		return
	}
	for _, k := range keys {
		if slices.Contains(reservedBodyKeys, k) {
			resp.Diagnostics.AddAttributeError(req.Path, "Key set by the server",
				fmt.Sprintf("%s must not contain %q: the service sets id, dateCreated and dateModified itself. Remove the key; read it from output instead.", name, k))
		}
	}
}

// topLevelKeys are the keys of an object or map held in a dynamic value,
// sorted; they are known even where some values are not. ok is false when
// the value holds no object or map, or is not known.
func topLevelKeys(v types.Dynamic) (keys []string, ok bool) {
	if v.IsNull() || v.IsUnknown() || v.IsUnderlyingValueNull() || v.IsUnderlyingValueUnknown() {
		return nil, false
	}
	switch u := v.UnderlyingValue().(type) {
	case basetypes.ObjectValue:
		for k := range u.Attributes() {
			keys = append(keys, k)
		}
	case basetypes.MapValue:
		if u.IsNull() || u.IsUnknown() {
			return nil, false
		}
		for k := range u.Elements() {
			keys = append(keys, k)
		}
	default:
		return nil, false
	}
	slices.Sort(keys)
	return keys, true
}

// addEntityError reports a client error of a generic entity; a 410 names
// the collection and gives the service's reason.
func addEntityError(diags *diag.Diagnostics, summary, collection string, err error) {
	if apiErr, ok := client.AsAPIError(err); ok && errors.Is(err, client.ErrGone) {
		diags.AddError("Collection retired by the service",
			fmt.Sprintf("The service has retired %q and answers 410 Gone: %s\n\nIt cannot be managed through this path any more. If the entity should be forgotten, remove it from the configuration and from state (terraform state rm).", collection, apiErr.Reason()))
		return
	}
	addAPIError(diags, summary, err, nil)
}
