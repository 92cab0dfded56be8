package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

const sub, unsub = client.StatusSubscribed, client.StatusUnsubscribed

// str is a status value for a model: "" is null.
func str(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// TestHonourOptOuts: what Read saves for the e-mail channel (mobile is
// steady at SUBSCRIBED), and what it learns as applied.
func TestHonourOptOuts(t *testing.T) {
	t.Parallel()
	recordedS := appliedStatus{Email: sub, Mobile: sub}
	tests := []struct {
		name            string
		prior, shown    string // the e-mail status in state, and as the service shows it
		applied         appliedStatus
		recorded, allow bool
		wantState       string
		wantLearned     *appliedStatus
	}{
		{name: "steady", prior: sub, shown: sub, applied: recordedS, recorded: true, wantState: sub},
		{name: "opted out after Terraform subscribed: desired kept", prior: sub, shown: unsub, applied: recordedS, recorded: true, wantState: sub},
		{name: "opted out, re-subscription allowed: shown, so planned back", prior: sub, shown: unsub, applied: recordedS, recorded: true, allow: true, wantState: unsub},
		{name: "subscribed elsewhere against a desired UNSUBSCRIBED: shown", prior: unsub, shown: sub, applied: appliedStatus{Email: unsub, Mobile: sub}, recorded: true, wantState: sub},
		{name: "a state of the service's own: shown", prior: sub, shown: "PENDING", applied: recordedS, recorded: true, wantState: "PENDING"},
		{name: "left to the service: follows it", prior: sub, shown: unsub, applied: appliedStatus{Mobile: sub}, recorded: true, wantState: unsub},
		{name: "imported: an opt-out is honoured", prior: sub, shown: unsub, applied: appliedStatus{Unknown: true}, recorded: true, wantState: sub},
		{name: "imported, steady: nothing learned", prior: unsub, shown: unsub, applied: appliedStatus{Unknown: true}, recorded: true, wantState: unsub},
		{name: "state before private state: an opt-out is honoured", prior: sub, shown: unsub, wantState: sub},
		{name: "state before private state, steady: applied learned", prior: unsub, shown: unsub, wantState: unsub, wantLearned: &appliedStatus{Email: unsub, Mobile: sub}},
		{name: "state before private state, statuses not shown: applied learned", prior: sub, shown: "", wantState: sub, wantLearned: &appliedStatus{Email: sub, Mobile: sub}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			prior := contactModel{EmailStatus: str(tt.prior), MobileStatus: str(sub), AllowResubscribe: types.BoolValue(tt.allow)}
			mobileShown := sub
			if tt.shown == "" {
				mobileShown = ""
			}
			read := contactModel{
				EmailStatus: statusOrPrior(tt.shown, prior.EmailStatus), MobileStatus: statusOrPrior(mobileShown, prior.MobileStatus),
				ServiceEmailStatus: shownStatus(tt.shown), ServiceMobileStatus: shownStatus(mobileShown),
			}
			learned, _ := honourOptOuts(&read, prior, tt.applied, tt.recorded, consentedChannels{})
			if got := knownString(read.EmailStatus); got != tt.wantState {
				t.Errorf("email_status = %q, want %q", got, tt.wantState)
			}
			if got := knownString(read.ServiceEmailStatus); got != tt.shown {
				t.Errorf("service_email_status = %q, want %q", got, tt.shown)
			}
			if (learned == nil) != (tt.wantLearned == nil) || (learned != nil && *learned != *tt.wantLearned) {
				t.Errorf("learned %+v, want %+v", learned, tt.wantLearned)
			}
		})
	}
}

// TestContactInputSend: what Update sends, per channel, from the model
// (contactInput) through PlanContact, without a suppression list.
func TestContactInputSend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		email, mobile   string // configured
		applied         appliedStatus
		recorded, allow bool
		service         client.SubscriptionStatus
		want            client.SubscriptionStatus
	}{
		{name: "opt-out honoured, the other channel's change sent", email: sub, mobile: unsub, applied: appliedStatus{Email: sub, Mobile: sub}, recorded: true,
			service: client.SubscriptionStatus{Status: unsub, MobileStatus: sub}, want: client.SubscriptionStatus{MobileStatus: unsub}},
		{name: "opt-out undone when allowed", email: sub, applied: appliedStatus{Email: sub}, recorded: true, allow: true,
			service: client.SubscriptionStatus{Status: unsub, MobileStatus: sub}, want: client.SubscriptionStatus{Status: sub}},
		{name: "the configuration re-subscribes", email: sub, applied: appliedStatus{Email: unsub}, recorded: true,
			service: client.SubscriptionStatus{Status: unsub}, want: client.SubscriptionStatus{Status: sub}},
		{name: "imported: opt-out honoured", email: sub, applied: appliedStatus{Unknown: true}, recorded: true,
			service: client.SubscriptionStatus{Status: unsub}, want: client.SubscriptionStatus{}},
		{name: "statuses not shown: only a changed status is sent", email: unsub, mobile: sub, applied: appliedStatus{Email: sub, Mobile: sub}, recorded: true,
			want: client.SubscriptionStatus{Status: unsub}},
		{name: "unconfigured: never sent", applied: appliedStatus{Email: sub}, recorded: true,
			service: client.SubscriptionStatus{Status: unsub}, want: client.SubscriptionStatus{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			config := contactModel{EmailStatus: str(tt.email), MobileStatus: str(tt.mobile)}
			if got := contactsync.PlanContact(contactInput(config, tt.allow, tt.applied, tt.recorded, tt.service)).Status(); got != tt.want {
				t.Errorf("sends %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestOptOutWarnings: one warning per honoured opt-out, on the attribute,
// naming the contact, the channel and both ways out.
func TestOptOutWarnings(t *testing.T) {
	t.Parallel()
	state := contactModel{ListID: types.StringValue("42"), OriginalID: types.StringValue("customer-7"),
		ServiceEmailStatus: types.StringValue(unsub), ServiceMobileStatus: types.StringValue(unsub)}
	config := contactModel{EmailStatus: types.StringValue(sub), MobileStatus: types.StringValue(sub)}
	recorded := appliedStatus{Email: sub, Mobile: unsub}

	// warnings is what the plan warns, PlanContact deciding.
	warnings := func(applied appliedStatus, recorded, allow bool) diag.Diagnostics {
		return optOutWarnings(config, state, contactsync.PlanContact(contactInput(config, allow, applied, recorded, shownOf(state))))
	}
	diags := warnings(recorded, true, false)
	if len(diags) != 1 || diags.WarningsCount() != 1 {
		t.Fatalf("got %v, want one warning (mobile was UNSUBSCRIBED by Terraform: its re-subscription is the configuration's)", diags)
	}
	w := diags[0]
	if p, ok := w.(interface{ Path() path.Path }); !ok || !p.Path().Equal(path.Root("email_status")) {
		t.Errorf("the warning is not on email_status: %v", w)
	}
	for _, part := range []string{`Contact "customer-7" of list 42`, "e-mail", `email_status = "SUBSCRIBED"`, `set email_status = "UNSUBSCRIBED"`, "allow_resubscribe = true", "sends nothing"} {
		if !strings.Contains(w.Detail(), part) {
			t.Errorf("the warning does not say %q:\n%s", part, w.Detail())
		}
	}
	if got := warnings(recorded, true, true); len(got) != 0 {
		t.Errorf("allow_resubscribe still warns: %v", got)
	}
	if got := warnings(appliedStatus{}, false, false); got.WarningsCount() != 2 {
		t.Errorf("state without private state: %d warnings, want 2 (both opt-outs honoured)", got.WarningsCount())
	}
}

// TestContactModifyPlanWarns drives the resource's ModifyPlan as the
// framework calls it. terraform-plugin-testing does not show a plan's
// warnings, so this is where the wiring (config, state and plan read,
// private state absent) is held.
func TestContactModifyPlanWarns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := &contactResource{}
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	value := func(m contactModel) tftypes.Value {
		v, err := m.terraformValue(ctx, contactObjectType)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	base := contactModel{
		ID: types.StringValue("42/c"), ListID: types.StringValue("42"), OriginalID: types.StringValue("c"),
		Properties: types.MapNull(types.StringType), EmailStatus: types.StringValue(sub), MobileStatus: types.StringValue(sub),
		DateCreated: rfc3339(client.TimestampOf("2026-11-22T10:00:00Z")), DateModified: rfc3339(client.TimestampOf("2026-11-22T10:00:00Z")),
		AllowResubscribe: types.BoolValue(false), ServiceEmailStatus: types.StringValue(unsub), ServiceMobileStatus: types.StringValue(sub),
	}
	config := base
	config.ID, config.DateCreated, config.DateModified = types.StringNull(), base.DateCreated, base.DateModified
	config.AllowResubscribe, config.ServiceEmailStatus, config.ServiceMobileStatus = types.BoolNull(), types.StringNull(), types.StringNull()
	allowed := base
	allowed.AllowResubscribe = types.BoolValue(true)
	tests := []struct {
		name         string
		state, plan  tftypes.Value
		wantWarnings int
	}{
		{name: "opt-out honoured", state: value(base), plan: value(base), wantWarnings: 1},
		{name: "re-subscription allowed", state: value(base), plan: value(allowed), wantWarnings: 0},
		{name: "create", state: tftypes.NewValue(contactObjectType, nil), plan: value(base), wantWarnings: 0},
		{name: "destroy", state: value(base), plan: tftypes.NewValue(contactObjectType, nil), wantWarnings: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := resource.ModifyPlanRequest{
				Config: tfsdk.Config{Raw: value(config), Schema: sch.Schema},
				State:  tfsdk.State{Raw: tt.state, Schema: sch.Schema},
				Plan:   tfsdk.Plan{Raw: tt.plan, Schema: sch.Schema},
			}
			resp := resource.ModifyPlanResponse{Plan: req.Plan}
			r.ModifyPlan(ctx, req, &resp)
			if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != tt.wantWarnings {
				t.Fatalf("diagnostics %v, want %d warnings", resp.Diagnostics, tt.wantWarnings)
			}
			if tt.wantWarnings > 0 && !strings.Contains(resp.Diagnostics[0].Detail(), `Contact "c" of list 42 opted out of e-mail`) {
				t.Errorf("warning: %s", resp.Diagnostics[0].Detail())
			}
		})
	}
}
