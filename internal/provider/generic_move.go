package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

// Moving an rms_resource into the typed resource of its collection
// (`moved { from = rms_resource.x  to = rms_project.x }`, Terraform 1.8+,
// OpenTofu 1.10+): the object and its id stay, only the state changes
// shape. Terraform refreshes the moved state with the typed resource's Read
// before it plans, so what the move cannot know (a value the service never
// showed) is filled in from the service, and the plan shows any difference
// with the configuration.

// typedMove describes the typed resource an rms_resource moves into.
type typedMove struct {
	typeName   string // "rms_project"
	collection string // the rms_resource collection it takes: "projects"
	// keys are the entity's fields the typed resource has attributes for.
	keys []string
	// toState sets the target's state and identity from the moved entity.
	toState func(ctx context.Context, src movedEntity, resp *resource.MoveStateResponse)
}

// typedCollections names the typed resource of each collection that has
// one, for the diagnostic of a move to the wrong one.
var typedCollections = map[string]string{
	"projects": "rms_project",
	"lists":    "rms_list",
	"webhooks": "rms_webhook",
}

// movedEntity is what an rms_resource's state holds about its entity.
type movedEntity struct {
	id string
	// body holds the keys the configuration wrote.
	body map[string]any
	// entity is body with output laid over it: the entity as the service
	// held it at the last refresh, and the configured value of a key the
	// service does not show.
	entity client.Entity
}

// bodyString is a key of the configured body as a state value: null when
// the body does not set it (or sets it to something other than a string).
func (m movedEntity) bodyString(key string) types.String {
	s, ok := m.body[key].(string)
	if !ok {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// decode reads the entity into a typed form of the client.
func (m movedEntity) decode(out any, typeName string, diags *diag.Diagnostics) bool {
	if err := client.DecodeEntity(m.entity, out); err != nil {
		diags.AddError("Unable to move rms_resource to "+typeName,
			fmt.Sprintf("The entity in the rms_resource state does not have the shape of %s: %s. Correct the key in rms_resource.body and apply before moving, or remove the moved block and import the entity into %s instead.", typeName, err, typeName))
		return false
	}
	return true
}

// moveFromGeneric is the StateMover that takes an rms_resource of t's
// collection.
//
// The source is read through rms_resource's own schema (SourceSchema)
// rather than as raw JSON: body and output are dynamic, so the state JSON
// holds each of them as a value with its type beside it, and the framework
// already decodes that encoding into the model rms_resource itself uses.
func moveFromGeneric(t typedMove) resource.StateMover {
	source := genericResourceSchema()
	return resource.StateMover{
		SourceSchema: &source,
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			if req.SourceTypeName != "rms_resource" || !isThisProvider(req.SourceProviderAddress) {
				return // not ours: the framework reports that nothing moves it
			}
			src, ok := readMovedEntity(ctx, t, source.Version, req, &resp.Diagnostics)
			if !ok {
				return
			}
			t.toState(ctx, src, resp)
		},
	}
}

// isThisProvider tells whether a source provider address is this
// provider's. Only its type is compared: Terraform sends the full address
// (registry.terraform.io/rms-labs/rms, or a mirror's host, or hashicorp/rms
// under terraform-plugin-testing), OpenTofu before 1.11.12 the bare type
// name, "rms".
func isThisProvider(addr string) bool {
	segs := strings.Split(addr, "/")
	return len(segs) <= 3 && segs[len(segs)-1] == "rms"
}

// readMovedEntity reads the source rms_resource and checks that t may take
// it; every refusal is an error diagnostic that says what to do.
func readMovedEntity(ctx context.Context, t typedMove, version int64, req resource.MoveStateRequest, diags *diag.Diagnostics) (movedEntity, bool) {
	if req.SourceState == nil || req.SourceSchemaVersion != version {
		diags.AddError("Unable to move rms_resource to "+t.typeName,
			fmt.Sprintf("The rms_resource state (schema version %d) was written by a version of the provider whose rms_resource differs from this one's (schema version %d). Apply once with the rms_resource configuration and this provider version, then add the moved block again.", req.SourceSchemaVersion, version))
		return movedEntity{}, false
	}
	var m genericResourceModel
	diags.Append(req.SourceState.Get(ctx, &m)...)
	if diags.HasError() {
		return movedEntity{}, false
	}
	if c := m.Collection.ValueString(); c != t.collection {
		diags.AddError("Cannot move rms_resource of collection "+quote(c)+" to "+t.typeName, wrongCollection(c, t))
		return movedEntity{}, false
	}
	if m.ID.ValueString() == "" {
		diags.AddError("Unable to move rms_resource to "+t.typeName,
			"The rms_resource state holds no id, so there is no entity to move. Remove the moved block and let "+t.typeName+" create the "+strings.TrimSuffix(t.collection, "s")+".")
		return movedEntity{}, false
	}
	body, err := dynamic.ObjectToJSON(m.Body)
	if err != nil {
		diags.AddError("Unable to move rms_resource to "+t.typeName, "rms_resource.body in state is not an object: "+err.Error())
		return movedEntity{}, false
	}
	output, err := dynamic.ObjectToJSON(m.Output)
	if err != nil {
		diags.AddError("Unable to move rms_resource to "+t.typeName, "rms_resource.output in state is not an object: "+err.Error())
		return movedEntity{}, false
	}
	src := movedEntity{id: m.ID.ValueString(), body: body, entity: client.Entity{}}
	maps.Copy(src.entity, body)
	maps.Copy(src.entity, output)
	src.entity["id"] = src.id
	var secretKeys []string
	if req.SourcePrivate != nil {
		keys, d := sensitiveKeys(ctx, req.SourcePrivate)
		diags.Append(d...)
		secretKeys = keys
	}
	warnUnmanagedKeys(t, body, secretKeys, diags)
	return src, !diags.HasError()
}

// wrongCollection explains a move from an rms_resource of another
// collection.
func wrongCollection(c string, t typedMove) string {
	msg := fmt.Sprintf("%s manages entities of the collection %q, and this rms_resource manages one of %q: the two are different objects of the service. ", t.typeName, t.collection, c)
	if other, ok := typedCollections[c]; ok {
		return msg + fmt.Sprintf("Move it to %s instead (moved { to = %s.<name> }).", other, other)
	}
	return msg + fmt.Sprintf("%q has no typed resource: keep it as rms_resource and remove the moved block.", c)
}

// warnUnmanagedKeys warns about the keys of the rms_resource that the typed
// resource has no attribute for. The move cannot carry them and no plan
// can show them, so the warning is the only place that names them.
func warnUnmanagedKeys(t typedMove, body map[string]any, secretKeys []string, diags *diag.Diagnostics) {
	var plain, secret []string
	for k := range body {
		if !slices.Contains(t.keys, k) {
			plain = append(plain, k)
		}
	}
	for _, k := range secretKeys {
		if !slices.Contains(t.keys, k) {
			secret = append(secret, k)
		}
	}
	if len(plain)+len(secret) == 0 {
		return
	}
	var named []string
	if len(plain) > 0 {
		slices.Sort(plain)
		named = append(named, "rms_resource.body sets "+quoteAll(plain))
	}
	if len(secret) > 0 {
		slices.Sort(secret)
		named = append(named, "rms_resource.sensitive_body set "+quoteAll(secret))
	}
	diags.AddWarning("Keys not moved to "+t.typeName,
		fmt.Sprintf("%s, which %s has no attribute for. The move leaves them on the service as they are, but %s does not manage them: a change to them is not shown in plans, and its updates do not send them. "+
			"To keep managing them, keep the entity as rms_resource: remove the moved block and restore the rms_resource configuration before applying.", strings.Join(named, "; "), t.typeName, t.typeName))
}

func quoteAll(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = quote(k)
	}
	return strings.Join(q, ", ")
}
