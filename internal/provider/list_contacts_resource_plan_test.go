package provider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// wantParts fails t for each part msg does not contain.
func wantParts(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("the message does not say %q:\n%s", p, msg)
		}
	}
}

// TestPlanSummary: the text of the plan warning, from a real diff, for each
// thing a plan's own diff cannot show.
func TestPlanSummary(t *testing.T) {
	t.Parallel()
	lastSubscribed := func(string) (string, string) { return sub, sub }
	// 12 new contacts n-00..n-11 and 2 changed c-1, c-2.
	var desired []contactsync.Desired
	service := map[string]contactsync.ServiceContact{}
	for i := range 2 {
		id := fmt.Sprintf("c-%d", i+1)
		desired = append(desired, contactsync.Desired{ID: id, Props: map[string]string{"email": id + "@new"}})
		service[id] = contactsync.ServiceContact{Props: map[string]string{"email": id + "@old"}, Email: sub, Mobile: sub}
	}
	for i := range 12 {
		desired = append(desired, contactsync.Desired{ID: fmt.Sprintf("n-%02d", i), Props: map[string]string{"email": "n@x"}})
	}
	optedOut := []contactsync.Desired{{ID: "o-1", Props: map[string]string{}, Email: sub}, {ID: "o-2", Props: map[string]string{}, Email: sub}}
	optedOutService := map[string]contactsync.ServiceContact{"o-1": {Email: unsub, Mobile: sub}, "o-2": {Email: unsub, Mobile: sub}}
	unnamed := map[string]contactsync.ServiceContact{
		"x-1": {Email: sub, Mobile: sub}, "x-2": {Email: unsub, Mobile: sub}, "x-3": {Email: sub, Mobile: unsub},
		"x-gone": {Email: unsub, Mobile: unsub}, // already unsubscribed on both: nothing to do
	}

	// A status change per kind: r-1 re-subscribed (the input had
	// unsubscribed it), u-1 unsubscribed by the input.
	statusDesired := []contactsync.Desired{{ID: "r-1", Props: map[string]string{}, Email: sub}, {ID: "u-1", Props: map[string]string{}, Email: unsub}}
	statusService := map[string]contactsync.ServiceContact{"r-1": {Email: unsub, Mobile: sub}, "u-1": {Email: sub, Mobile: sub}}
	lastUnsubscribed := func(string) (string, string) { return unsub, "" }

	cases := []struct {
		name    string
		desired []contactsync.Desired
		service map[string]contactsync.ServiceContact
		opts    contactsync.Options
		title   string   // "" when no warning
		want    []string // parts, in this order
		not     []string
	}{
		{
			name: "counts and first ids of creates and property changes", desired: desired, service: service, title: "Changes to the contacts of list 42",
			want: []string{
				`12 to create (new to the list): "n-00", "n-01", "n-02", "n-03", "n-04", "n-05", "n-06", "n-07", "n-08", "n-09" and 2 more`,
				`2 with properties to change: "c-1", "c-2"`,
			},
			not: []string{"n-10", "unsubscribe", "opted out"},
		},
		{
			name: "subscriptions and unsubscriptions the input asks for, named as such", desired: statusDesired, service: statusService, opts: contactsync.Options{Applied: lastUnsubscribed},
			title: "Changes to the contacts of list 42",
			want:  []string{`1 to subscribe (e-mail or mobile), as the input says: "r-1"`, `1 to unsubscribe (e-mail or mobile), as the input says: "u-1"`},
			not:   []string{"properties", "exclusive"},
		},
		{
			name: "exclusive: count and first ids of the unsubscriptions", service: unnamed, opts: contactsync.Options{Exclusive: true}, title: "Changes to the contacts of list 42",
			want: []string{`3 to unsubscribe from e-mail and mobile because the input does not name them (exclusive = true; the interface cannot delete a contact, so they stay in the list; the apply unsubscribes nobody this plan did not count): "x-1", "x-2", "x-3".`},
			not:  []string{"x-gone", "as the input says"},
		},
		{
			name: "opt-outs honoured, and nothing else: titled as what it is", desired: optedOut, service: optedOutService, opts: contactsync.Options{Applied: lastSubscribed}, title: "Opt-outs kept in list 42",
			want: []string{`2 opted out outside Terraform and stay unsubscribed though the configuration says SUBSCRIBED (set allow_resubscribe only if they agreed): "o-1", "o-2".`},
			not:  []string{"to subscribe", "to create"},
		},
		{
			// A killed exclusive apply loses its record: the provider
			// cannot tell its unsubscriptions from opt-outs, and says so.
			name: "opt-outs of an exclusive resource", desired: optedOut, service: optedOutService, opts: contactsync.Options{Applied: lastSubscribed, Exclusive: true}, title: "Opt-outs kept in list 42",
			want: []string{`2 are UNSUBSCRIBED though the configuration says SUBSCRIBED, and stay unsubscribed: "o-1", "o-2".`, "the provider cannot tell which", "allow_resubscribe_ids"},
			not:  []string{"opted out outside Terraform and"},
		},
		{
			name: "allow_resubscribe_ids: the contacts named are re-subscribed", desired: optedOut, service: optedOutService, opts: contactsync.Options{Applied: lastSubscribed, Resubscribe: map[string]bool{"o-2": true}},
			title: "Changes to the contacts of list 42",
			want:  []string{`1 to subscribe (e-mail or mobile), as the input says: "o-2"`, `1 opted out outside Terraform`, `"o-1"`},
		},
		{
			name: "allow_resubscribe: no opt-out named", desired: optedOut, service: optedOutService, opts: contactsync.Options{Applied: lastSubscribed, AllowResubscribe: true},
			title: "Changes to the contacts of list 42",
			want:  []string{`2 to subscribe (e-mail or mobile), as the input says: "o-1", "o-2"`},
			not:   []string{"opted out"},
		},
		{
			name: "nothing to change, nothing kept: no warning", desired: optedOut, service: map[string]contactsync.ServiceContact{"o-1": {Email: sub}, "o-2": {Email: sub}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			title, got := planSummary("42", contactsync.Compare(contactsync.BookOf(c.desired), contactsync.ServiceListOf(c.service), c.opts), c.opts.Exclusive)
			if title != c.title {
				t.Errorf("title %q, want %q", title, c.title)
			}
			if len(c.want) == 0 {
				if got != "" {
					t.Fatalf("planSummary = %q, want none", got)
				}
				return
			}
			if !strings.HasPrefix(got, "Contacts ") || !strings.HasSuffix(got, ".") {
				t.Errorf("not a sentence: %q", got)
			}
			wantParts(t, got, c.want...)
			last := -1
			for _, w := range c.want {
				if i := strings.Index(got, w); i < last {
					t.Errorf("%q comes out of order in %q", w, got)
				} else {
					last = i
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("the message says %q:\n%s", n, got)
				}
			}
		})
	}
}

// listContactsModifyPlan drives the resource's ModifyPlan as the framework
// calls it: state (nil: create) and plan (nil: destroy), with the listing
// a refresh of this run would have handed over (nil: none).
func listContactsModifyPlan(t *testing.T, state, plan *listContactsModel, listed map[string]contactsync.ServiceContact) resource.ModifyPlanResponse {
	t.Helper()
	resp := listContactsModifyPlanDiags(t, state, plan, listed)
	if resp.Diagnostics.HasError() {
		t.Fatalf("ModifyPlan: %v", resp.Diagnostics)
	}
	return resp
}

// listContactsModifyPlanDiags is listContactsModifyPlan that lets errors
// through.
func listContactsModifyPlanDiags(t *testing.T, state, plan *listContactsModel, listed map[string]contactsync.ServiceContact) resource.ModifyPlanResponse {
	t.Helper()
	ctx := context.Background()
	r := &listContactsResource{data: &providerData{client: offlineClient(t), contacts: &contactsync.Run{Attributes: knownAttributes(), Snapshots: &contactsync.Snapshots{}, Provenance: contactsync.NewProvenance()}}}
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	value := func(m *listContactsModel) tftypes.Value {
		raw := tftypes.NewValue(sch.Schema.Type().TerraformType(ctx), nil)
		if m == nil {
			return raw
		}
		st := tfsdk.State{Schema: sch.Schema, Raw: raw}
		if d := st.Set(ctx, m); d.HasError() {
			t.Fatal(d)
		}
		return st.Raw
	}
	if listed != nil && state != nil {
		r.data.contacts.Snapshots.Put("42", replacementKey(*state), contactsync.Snapshot{Service: contactsync.ServiceListOf(listed)})
	}
	config := plan
	if config == nil {
		config = state
	}
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Raw: value(config), Schema: sch.Schema},
		State:  tfsdk.State{Raw: value(state), Schema: sch.Schema},
		Plan:   tfsdk.Plan{Raw: value(plan), Schema: sch.Schema},
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(ctx, req, &resp)
	return resp
}

// knownAttributes is an attribute cache that needs no service, holding
// the emulator's standard attributes: a file's columns must name them
// (at plan), and none is named originalId (the identity column).
func knownAttributes() *contactsync.Attributes {
	return contactsync.LoadedAttributes(map[string]string{"1": "email", "2": "mobile", "3": "firstname", "4": "lastname"})
}

// fileModel is an rms_list_contacts of list 42 reading file.
func fileModel(file string) listContactsModel {
	return listContactsModel{
		ID: types.StringValue("42"), ListID: types.StringValue("42"), Contacts: types.MapNull(listContactEntryType),
		SourceFile: types.StringValue(file), Delimiter: types.StringValue(","), Encoding: types.StringValue("UTF8"),
		IdentityColumn: types.StringNull(), Exclusive: types.BoolValue(false), AllowResubscribe: types.BoolValue(false), AllowResubscribeIDs: types.SetNull(types.StringType), KeepIDs: types.SetNull(types.StringType),
		BatchThreshold: types.Int64Value(defaultBatchThreshold), ContactCount: types.Int64Value(1),
		DesiredSHA256: types.StringValue("before"), ServiceSHA256: types.StringValue("before"), UnmanagedSubscribed: types.Int64Value(0),
		PlannedChanges: types.ObjectNull(plannedChangesType.AttrTypes),
		Timeouts:       timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType})},
	}
}

// TestListContactsModifyPlanWarnings: a file input's plan names what it
// adds, changes and unsubscribes from the refresh's listing; without a
// listing (-refresh=false) it says that it works from the state.
func TestListContactsModifyPlanWarnings(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(file, []byte("originalId,email,email_status\nnew-1,n1@x,\nnew-2,n2@x,\nold,old@new,\nout,out@x,SUBSCRIBED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	service := map[string]contactsync.ServiceContact{
		"old":      {Props: map[string]string{"email": "old@old"}, Email: sub, Mobile: sub},
		"out":      {Props: map[string]string{"email": "out@x"}, Email: unsub, Mobile: sub},
		"stranger": {Props: map[string]string{"email": "s@x"}, Email: sub, Mobile: sub},
	}
	state := fileModel(file)

	t.Run("listed", func(t *testing.T) {
		t.Parallel()
		plan := fileModel(file)
		plan.Exclusive = types.BoolValue(true)
		resp := listContactsModifyPlan(t, &state, &plan, service)
		// The second warning is the guardrail's (unsubscribe_guardrail.go).
		if len(resp.Diagnostics) != 2 || resp.Diagnostics.WarningsCount() != 2 {
			t.Fatalf("diagnostics %v, want two warnings", resp.Diagnostics)
		}
		// The share is of each channel's subscribers: "out" is unsubscribed from e-mail.
		wantParts(t, resp.Diagnostics[1].Detail(), "exclusive = true unsubscribes 1 of the 2 contacts subscribed to e-mail (50.0 %) and 1 of the 3 contacts subscribed to mobile (33.3 %); list 42 holds 3 contacts")
		w := resp.Diagnostics[0]
		if w.Summary() != "Changes to the contacts of list 42 (source_file "+strconv.Quote(file)+")" {
			t.Errorf("summary %q", w.Summary())
		}
		wantParts(t, w.Detail(), `2 to create (new to the list): "new-1", "new-2"`, `1 with properties to change: "old"`, `1 to unsubscribe from e-mail and mobile because the input does not name them (exclusive = true;`, `"stranger"`, `1 are UNSUBSCRIBED though the configuration says SUBSCRIBED`, `"out"`)
		var got listContactsModel
		resp.Plan.Get(context.Background(), &got)
		if got.DesiredSHA256.ValueString() == "before" || got.DesiredSHA256.IsUnknown() || !got.ServiceSHA256.IsUnknown() || got.UnmanagedSubscribed.ValueInt64() != 0 {
			t.Errorf("planned desired_sha256 %s, service_sha256 %s, unmanaged_subscribed %s", got.DesiredSHA256, got.ServiceSHA256, got.UnmanagedSubscribed)
		}
	})
	t.Run("refresh=false", func(t *testing.T) {
		t.Parallel()
		plan := fileModel(file)
		resp := listContactsModifyPlan(t, &state, &plan, nil)
		if len(resp.Diagnostics) != 1 || resp.Diagnostics.WarningsCount() != 1 {
			t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
		}
		w := resp.Diagnostics[0]
		if w.Summary() != "Contacts to change not counted" {
			t.Errorf("summary %q", w.Summary())
		}
		wantParts(t, w.Detail(), "-refresh=false", "works from the state", "the apply reads the list and writes what differs")
	})
	t.Run("nothing to do", func(t *testing.T) {
		t.Parallel()
		// The state says the service is as the file wants: no listing, no
		// change, so nothing to warn about.
		plan := fileModel(file)
		probe := listContactsModifyPlan(t, &state, &plan, service)
		var planned listContactsModel
		probe.Plan.Get(context.Background(), &planned)
		steady := fileModel(file)
		steady.DesiredSHA256, steady.ServiceSHA256 = planned.DesiredSHA256, planned.DesiredSHA256
		plan = steady
		if resp := listContactsModifyPlan(t, &steady, &plan, nil); len(resp.Diagnostics) != 0 {
			t.Errorf("diagnostics %v, want none", resp.Diagnostics)
		}
	})
	t.Run("destroy forgets by default", func(t *testing.T) {
		t.Parallel()
		// A state without on_destroy (null) forgets, as "forget" does.
		for _, v := range []types.String{types.StringNull(), types.StringValue(onDestroyForget)} {
			st := fileModel(file)
			st.OnDestroy = v
			resp := listContactsModifyPlan(t, &st, nil, service)
			if resp.Diagnostics.WarningsCount() != 1 || resp.Diagnostics[0].Summary() != "Destroy forgets contacts" {
				t.Fatalf("on_destroy %s: diagnostics %v", v, resp.Diagnostics)
			}
			wantParts(t, resp.Diagnostics[0].Detail(), "forgets its 1 contacts: nothing is written to the service", `set on_destroy = "unsubscribe" and apply before destroying`)
		}
	})
	t.Run("destroy unsubscribes the channels the input sets", func(t *testing.T) {
		t.Parallel()
		// Only "out" has a status in the file (e-mail, unsubscribed
		// already); "old" is subscribed but the file sets no status for it.
		st := fileModel(file)
		st.OnDestroy = types.StringValue(onDestroyUnsubscribe)
		resp := listContactsModifyPlan(t, &st, nil, service)
		if resp.Diagnostics.WarningsCount() != 1 || resp.Diagnostics[0].Summary() != "Destroy unsubscribes contacts" {
			t.Fatalf("diagnostics %v", resp.Diagnostics)
		}
		wantParts(t, resp.Diagnostics[0].Detail(), "unsubscribes 0 of its 1 managed contacts", "0 of the 2 contacts subscribed to e-mail (0.0 %) and 0 of the 3 contacts subscribed to mobile (0.0 %)")
	})
	// exclusive without a count the apply can hold to, or with values known
	// only at apply: the plan says it could not count, and that it
	// unsubscribes nobody it could not count (no refusal).
	uncounted := func(t *testing.T, resp resource.ModifyPlanResponse, parts ...string) {
		t.Helper()
		for _, d := range resp.Diagnostics {
			if d.Summary() == "Unsubscriptions not counted" {
				wantParts(t, d.Detail(), append([]string{"exclusive = true", "this plan cannot count them"}, parts...)...)
				return
			}
		}
		t.Fatalf("diagnostics %v, want the warning that nothing was counted", resp.Diagnostics)
	}
	t.Run("exclusive refresh=false", func(t *testing.T) {
		t.Parallel()
		// Without the refresh's count in private state the apply has
		// nothing to hold to: the plan promises zero (and lists nothing).
		plan := fileModel(file)
		plan.Exclusive = types.BoolValue(true)
		uncounted(t, listContactsModifyPlan(t, &state, &plan, nil), "the refresh was skipped", "This plan unsubscribes nobody it could not count", "if it would unsubscribe anyone, it stops before it writes anything")
	})
	t.Run("exclusive list unknown, limit set", func(t *testing.T) {
		t.Parallel()
		plan := fileModel(file)
		plan.Exclusive = types.BoolValue(true)
		plan.MaxUnsubscribe = types.Int64Value(5)
		plan.ListID = types.StringUnknown()
		uncounted(t, listContactsModifyPlan(t, &state, &plan, nil), "known only during the apply", "set explicitly", "unsubscribes them within max_unsubscribe = 5 (set on this resource)")
	})
	t.Run("exclusive list unknown, no limit set", func(t *testing.T) {
		t.Parallel()
		// Not refused any more: the plan promises zero.
		plan := fileModel(file)
		plan.Exclusive = types.BoolValue(true)
		plan.ListID = types.StringUnknown()
		resp := listContactsModifyPlan(t, &state, &plan, nil)
		uncounted(t, resp, "known only during the apply", "This plan unsubscribes nobody it could not count", "if it would unsubscribe anyone, it stops before it writes anything", "set max_unsubscribe or max_unsubscribe_percent explicitly")
	})
	t.Run("list unknown: the file's digest and count are planned", func(t *testing.T) {
		t.Parallel()
		plan := fileModel(file)
		plan.ListID = types.StringUnknown()
		resp := listContactsModifyPlan(t, &state, &plan, nil)
		var got listContactsModel
		resp.Plan.Get(context.Background(), &got)
		if got.DesiredSHA256.IsUnknown() || got.DesiredSHA256.IsNull() || got.ContactCount.ValueInt64() != 4 || !got.ServiceSHA256.IsUnknown() {
			t.Errorf("planned desired_sha256 %s, contact_count %s, service_sha256 %s", got.DesiredSHA256, got.ContactCount, got.ServiceSHA256)
		}
	})
}

// fakePrivate is a private state for unit tests.
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p fakePrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if len(value) == 0 {
		delete(p, key)
	} else {
		p[key] = value
	}
	return nil
}

// TestFileChangedSinceRefresh: the plan made inside `apply PLANFILE`
// refuses a file whose contacts differ from those the plan's refresh read;
// a key a plan without changes left in the state is not trusted.
func TestFileChangedSinceRefresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plan := fileModel("c.csv")
	check := func(t *testing.T, refreshed string, state listContactsModel, now string) diag.Diagnostics {
		t.Helper()
		p := fakePrivate{}
		f := refreshedFileOf(plan, refreshed)
		if d := recordRefreshedFile(ctx, p, &f); d.HasError() {
			t.Fatal(d)
		}
		var diags diag.Diagnostics
		fileChangedSinceRefresh(ctx, p, plan, &state, now, &diags)
		if d := dropRefreshedFile(ctx, p); d.HasError() || len(p) != 0 {
			t.Fatalf("the key was not dropped: %v %v", p, d)
		}
		return diags
	}
	changedAtPlan := fileModel("c.csv") // the state's desired_sha256 is "before"
	t.Run("rewritten after a plan that changed the file", func(t *testing.T) {
		t.Parallel()
		d := check(t, "reviewed", changedAtPlan, "rewritten")
		if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != "Source file changed since the plan" {
			t.Fatalf("diagnostics %v", d)
		}
		wantParts(t, d.Errors()[0].Detail(), "c.csv changed since the plan was made", "rewritten", "the plan read reviewed", "Nothing was written to list 42", "plan again")
	})
	t.Run("unchanged since the plan", func(t *testing.T) {
		t.Parallel()
		if d := check(t, "reviewed", changedAtPlan, "reviewed"); d.HasError() {
			t.Fatal(d)
		}
	})
	t.Run("rewritten after a plan that found drift only", func(t *testing.T) {
		t.Parallel()
		drift := fileModel("c.csv")
		drift.ServiceSHA256 = types.StringValue("drifted")
		if d := check(t, "before", drift, "rewritten"); d.ErrorsCount() != 1 {
			t.Fatalf("diagnostics %v", d)
		}
	})
	t.Run("a key a plan without changes left in the state", func(t *testing.T) {
		t.Parallel()
		if d := check(t, "before", fileModel("c.csv"), "changed on purpose"); d.HasError() {
			t.Fatal(d)
		}
	})
	t.Run("read another way", func(t *testing.T) {
		t.Parallel()
		p := fakePrivate{}
		other := fileModel("c.csv")
		other.Delimiter = types.StringValue(";")
		f := refreshedFileOf(other, "reviewed")
		recordRefreshedFile(ctx, p, &f)
		var diags diag.Diagnostics
		fileChangedSinceRefresh(ctx, p, plan, &changedAtPlan, "rewritten", &diags)
		if diags.HasError() {
			t.Fatal(diags)
		}
	})
}

// answerNotFound is a transport under which every call is answered 404.
type answerNotFound struct{}

func (answerNotFound) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"message":"not found"}`)), Request: req}, nil
}

// offlineClient is a client that reaches no service: a plan that lists
// finds no list.
func offlineClient(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", CustomerID: 1, Auth: client.BasicAuth{Username: "u", Password: "p"}, MaxRetries: -1, Transport: answerNotFound{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The final plan Terraform makes inside an apply has no listing at hand
// (the plan's refresh ran in another provider process), but the refresh's
// digest in the prior private state says the list was read in this run:
// no "not counted" warning there, as a plan whose refresh was skipped
// gets.
func TestRefreshedInRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plan := fileModel("c.csv")
	p := fakePrivate{}
	f := refreshedFileOf(plan, "reviewed")
	if d := recordRefreshedFile(ctx, p, &f); d.HasError() {
		t.Fatal(d)
	}
	if !refreshedInRun(ctx, p, plan, "reviewed") {
		t.Error("a file read by this run's refresh, unchanged since, is not recognised")
	}
	if refreshedInRun(ctx, p, plan, "rewritten") {
		t.Error("a file changed since the refresh is taken for one it read")
	}
	other := plan
	other.Delimiter = types.StringValue(";")
	if refreshedInRun(ctx, p, other, "reviewed") {
		t.Error("a file read another way is taken for one the refresh read")
	}
	if refreshedInRun(ctx, fakePrivate{}, plan, "reviewed") {
		t.Error("no key: taken for a refresh of this run")
	}
}
