package provider

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Only an explicit false lifts deletion protection: null (a state from
// before the argument, an import) and unknown count as protected.
func TestDeletionProtected(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		v    types.Bool
		want bool
	}{
		{"null", types.BoolNull(), true},
		{"unknown", types.BoolUnknown(), true},
		{"true", types.BoolValue(true), true},
		{"false", types.BoolValue(false), false},
	} {
		if got := deletionProtected(tc.v); got != tc.want {
			t.Errorf("%s: deletionProtected = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// answerContacts answers every request with status and body, counting
// them.
type answerContacts struct {
	status int
	body   string
	calls  *int
}

func (a answerContacts) RoundTrip(req *http.Request) (*http.Response, error) {
	*a.calls++
	return &http.Response{StatusCode: a.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(a.body)), Request: req}, nil
}

// checkListDeletion decides by what the list holds, and says so: an error
// naming the list, its contacts and its opt-outs when it holds contacts; a
// warning at plan and an error at apply when it cannot count them; nothing
// for an empty list, a list that is gone, an unprotected list (which is not
// even listed), or a plan whose provider configuration is unknown (a
// warning: the delete checks).
func TestCheckListDeletion(t *testing.T) {
	t.Parallel()
	const held = `[{"originalId":"a","status":"UNSUBSCRIBED","mobileStatus":"UNSUBSCRIBED"},{"originalId":"b","status":"UNSUBSCRIBED"},{"originalId":"c","status":"SUBSCRIBED"}]`
	for _, tc := range []struct {
		name       string
		status     int
		body       string
		protection types.Bool
		noClient   bool
		atApply    bool
		wantGo     bool
		wantCalls  int // -1: any
		wantError  []string
		wantWarn   []string
	}{
		{name: "holds contacts, plan", status: 200, body: held, protection: types.BoolValue(true), wantCalls: -1,
			wantError: []string{"List holds contacts: deletion protection is on", `rms_list "News" (id 42) holds 3 contacts, 2 of them unsubscribed on e-mail and 1 on mobile`, "This plan deletes nothing", "deletion_protection = false", "delete the old list first"}},
		{name: "holds contacts, apply, null in state", status: 200, body: held, protection: types.BoolNull(), atApply: true, wantCalls: -1,
			wantError: []string{"List holds contacts", "The delete was refused before anything was deleted"}},
		{name: "empty", status: 200, body: `[]`, protection: types.BoolValue(true), wantGo: true, wantCalls: -1},
		{name: "gone", status: 404, body: `{"message":"not found"}`, protection: types.BoolValue(true), atApply: true, wantGo: true, wantCalls: -1},
		{name: "unprotected", status: 200, body: held, protection: types.BoolValue(false), atApply: true, wantGo: true, wantCalls: 0},
		{name: "unreadable at plan", status: 500, body: `{"message":"boom"}`, protection: types.BoolValue(true), wantGo: true, wantCalls: -1,
			wantWarn: []string{"Deletion protection not checked", "could not count its contacts", "The delete counts them again"}},
		{name: "unreadable at apply", status: 500, body: `{"message":"boom"}`, protection: types.BoolValue(true), atApply: true, wantCalls: -1,
			wantError: []string{"Unable to check deletion protection", "counting them failed; nothing was deleted", "set deletion_protection = false and apply that first"}},
		{name: "configuration unknown at plan", noClient: true, protection: types.BoolValue(true), wantGo: true, wantCalls: 0,
			wantWarn: []string{"Deletion protection not checked", "known only during the apply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			d := &providerData{}
			if !tc.noClient {
				c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", CustomerID: 1, Auth: client.BasicAuth{Username: "u", Password: "p"}, MaxRetries: -1,
					Transport: answerContacts{status: tc.status, body: tc.body, calls: &calls}})
				if err != nil {
					t.Fatal(err)
				}
				d.client = c
			}
			state := listResourceModel{listModel: listModel{ID: types.StringValue("42"), Name: types.StringValue("News")}, DeletionProtection: tc.protection}
			var diags diag.Diagnostics
			if got := checkListDeletion(context.Background(), d, state, tc.atApply, &diags); got != tc.wantGo {
				t.Errorf("checkListDeletion = %v, want %v (%v)", got, tc.wantGo, diags)
			}
			if tc.wantCalls >= 0 && calls != tc.wantCalls {
				t.Errorf("%d requests, want %d", calls, tc.wantCalls)
			}
			if diags.ErrorsCount() != min(len(tc.wantError), 1) || diags.WarningsCount() != min(len(tc.wantWarn), 1) {
				t.Fatalf("diagnostics %v; want %d error(s) and %d warning(s)", diags, min(len(tc.wantError), 1), min(len(tc.wantWarn), 1))
			}
			for _, dg := range diags {
				want := tc.wantWarn
				if dg.Severity() == diag.SeverityError {
					want = tc.wantError
				}
				wantParts(t, dg.Summary()+": "+dg.Detail(), want...)
			}
		})
	}
}

// The refusal says where the opt-outs go once protection is lifted: into
// the suppression list configured, or nowhere, which it says too.
func TestListDeletionRefusalNamesSuppressionList(t *testing.T) {
	t.Parallel()
	h := listHeld{ID: "42", Name: "News", Contacts: 3, UnsubscribedEmail: 2, UnsubscribedMobile: 1}
	for _, tc := range []struct {
		name, suppression, want string
	}{
		{"none", "", "No suppression list is configured (suppression_list_id)"},
		{"configured", "7", "copies the 2 e-mail and 1 mobile opt-outs into suppression list 7"},
	} {
		h.SuppressionListID = tc.suppression
		if _, detail := listDeletionRefusal(h, false); !strings.Contains(detail, tc.want) {
			t.Errorf("%s: refusal %q does not say %q", tc.name, detail, tc.want)
		}
	}
}
