package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestNewProviderData(t *testing.T) {
	t.Parallel()
	full := providerModel{
		BaseURL:    types.StringValue("https://server.example.com"),
		CustomerID: types.Int64Value(7),
		Username:   types.StringValue("api"),
		Password:   types.StringValue("secret"),
	}
	empty := providerModel{
		BaseURL: types.StringNull(), CustomerID: types.Int64Null(),
		Username: types.StringNull(), Password: types.StringNull(),
	}
	cases := map[string]struct {
		cfg       providerModel
		env       map[string]string
		wantErrs  []string // summaries, in any order
		wantPoll  time.Duration
		wantNil   bool
		wantAttrs []string // attribute names the diagnostics must mention
		// wantListingOff: rms_contact refreshes read one contact each.
		wantListingOff bool
	}{
		"all in the block": {cfg: full, wantPoll: 30 * time.Second},
		"all from the environment": {
			cfg:      empty,
			env:      map[string]string{"RMS_BASE_URL": "https://e.example.com", "RMS_CUSTOMER_ID": "12", "RMS_USERNAME": "u", "RMS_PASSWORD": "p", "RMS_BATCH_POLL_INTERVAL": "45s"},
			wantPoll: 45 * time.Second,
		},
		"attribute wins over variable": {
			cfg:      withPoll(full, "5s"),
			env:      map[string]string{"RMS_BASE_URL": "http://remote.example.com", "RMS_BATCH_POLL_INTERVAL": "bogus"},
			wantPoll: 5 * time.Second,
		},
		"everything missing gives one diagnostic each": {
			cfg:       empty,
			wantErrs:  []string{"Missing base URL", "Missing customer id", "Missing credentials"},
			wantAttrs: []string{"RMS_BASE_URL", "RMS_CUSTOMER_ID", "RMS_USERNAME", "RMS_PASSWORD", "RMS_TOKEN"},
		},
		"malformed customer id variable": {
			cfg:       withCustomer(full, types.Int64Null()),
			env:       map[string]string{"RMS_CUSTOMER_ID": "12abc"},
			wantErrs:  []string{"Invalid customer id"},
			wantAttrs: []string{"RMS_CUSTOMER_ID", "customer_id"},
		},
		"negative customer id variable": {
			cfg:      withCustomer(full, types.Int64Null()),
			env:      map[string]string{"RMS_CUSTOMER_ID": "-3"},
			wantErrs: []string{"Invalid customer id"},
		},
		"http to remote host": {
			cfg:       withBase(full, "http://server.example.com"),
			wantErrs:  []string{"Invalid base URL"},
			wantAttrs: []string{"base_url", "RMS_BASE_URL"},
		},
		"http to loopback": {cfg: withBase(full, "http://127.0.0.1:8080"), wantPoll: 30 * time.Second},
		"poll interval too short": {
			cfg:      withPoll(full, "10ms"),
			wantErrs: []string{"Invalid batch_poll_interval"},
		},
		"bad max retries variable": {
			cfg:      full,
			env:      map[string]string{"RMS_MAX_RETRIES": "many"},
			wantErrs: []string{"Invalid max_retries"},
		},
		"contact listing switched off": {
			cfg: full, env: map[string]string{"RMS_CONTACT_LISTING": "false"},
			wantPoll: 30 * time.Second, wantListingOff: true,
		},
		"contact listing on": {cfg: full, env: map[string]string{"RMS_CONTACT_LISTING": "true"}, wantPoll: 30 * time.Second},
		"bad contact listing variable": {
			cfg:       full,
			env:       map[string]string{"RMS_CONTACT_LISTING": "sometimes"},
			wantErrs:  []string{"Invalid RMS_CONTACT_LISTING"},
			wantAttrs: []string{`"sometimes"`, "set it to false"},
		},
		"unknown value defers": {
			cfg:     withBaseValue(full, types.StringUnknown()),
			wantNil: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			data, diags := newProviderData(context.Background(), tc.cfg, "test", "1.11.4", env)
			var got []string
			var text strings.Builder
			for _, d := range diags.Errors() {
				got = append(got, d.Summary())
				text.WriteString(d.Detail() + "\n")
			}
			if len(got) != len(tc.wantErrs) {
				t.Fatalf("errors %q, want %q", got, tc.wantErrs)
			}
			for _, w := range tc.wantErrs {
				if !strings.Contains(strings.Join(got, "|"), w) {
					t.Errorf("missing error %q in %q", w, got)
				}
			}
			for _, a := range tc.wantAttrs {
				if !strings.Contains(text.String(), a) {
					t.Errorf("diagnostics do not name %s:\n%s", a, text.String())
				}
			}
			if len(tc.wantErrs) > 0 || tc.wantNil {
				if data != nil {
					t.Errorf("got provider data despite errors or unknowns")
				}
				return
			}
			if data == nil || data.client == nil {
				t.Fatal("no client configured")
			}
			if data.batchPollInterval != tc.wantPoll {
				t.Errorf("poll interval %s, want %s", data.batchPollInterval, tc.wantPoll)
			}
			if data.contacts == nil || data.contacts.Listings.Off() != tc.wantListingOff {
				t.Errorf("contact listing off = %v, want %v", data.contacts != nil && data.contacts.Listings.Off(), tc.wantListingOff)
			}
		})
	}
}

func withPoll(m providerModel, d string) providerModel {
	m.BatchPollInterval = timetypes.NewGoDurationValueFromStringMust(d)
	return m
}

func withBase(m providerModel, u string) providerModel { m.BaseURL = types.StringValue(u); return m }

func withBaseValue(m providerModel, v types.String) providerModel { m.BaseURL = v; return m }

func withCustomer(m providerModel, v types.Int64) providerModel { m.CustomerID = v; return m }
