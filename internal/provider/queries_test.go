package provider_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// skipBelowQuery: list resources and `terraform query` exist from
// Terraform 1.14.
var skipBelowQuery = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// account is what preloadAccount put into an emulator, by the ids the
// service gave.
type account struct {
	projects, lists, webhooks, campaigns, filters []string
	// bigList holds bigListSize contacts c-0000 ... ; every tenth is
	// unsubscribed from e-mail, every fourth from mobile.
	bigList string
	// smallList holds three contacts a, b (unsubscribed) and "x/y z".
	smallList string
}

const bigListSize = 2000

// preloadAccount fills an emulator as an account that existed before
// Terraform: three projects, three lists (one of bigListSize contacts, one
// of three, one empty), two webhooks, two campaigns and a filter. REST
// calls make the small things, the emulator's Go API the many contacts.
func preloadAccount(t *testing.T, env *acctest.Env) account {
	t.Helper()
	post := func(path string, body map[string]any) string {
		var out struct {
			ID json.Number `json:"id"`
		}
		env.MustDo(t, "POST", path, body, &out)
		return out.ID.String()
	}
	var a account
	for i, name := range []string{"Spring", "Summer", "Autumn"} {
		body := map[string]any{"name": name}
		if i == 0 {
			body["description"] = "seasonal sends"
		}
		a.projects = append(a.projects, post("projects", body))
	}
	a.bigList = post("lists", map[string]any{"name": "Newsletter", "senderEmail": "news@example.com", "senderName": "News"})
	a.smallList = post("lists", map[string]any{"name": "Customers", "description": "paying"})
	a.lists = []string{a.bigList, a.smallList, post("lists", map[string]any{"name": "Empty"})}
	a.webhooks = []string{
		post("webhooks", map[string]any{"url": "https://hooks.example.com/crm", "events": []string{"contact.created", "contact.updated"}, "secret": "s3cret"}),
		post("webhooks", map[string]any{"url": "https://hooks.example.com/ops", "events": []string{"import.finished"}, "active": false, "description": "paused"}),
	}
	a.campaigns = []string{
		post("campaigns", map[string]any{"name": "Spring sale", "budget": 12.5, "tags": []string{"a", "b"}, "rule": map[string]any{"field": "status", "values": []int{1, 2}}, "live": true}),
		post("campaigns", map[string]any{"name": "Winter", "weird key": "x"}),
	}
	a.filters = []string{post("filters", map[string]any{"expr": "age > 18"})}

	big := make([]emulator.Contact, bigListSize)
	for i := range big {
		c := emulator.Contact{
			OriginalID: fmt.Sprintf("c-%04d", i),
			Properties: map[string]string{"email": fmt.Sprintf("c%d@example.com", i), "firstname": fmt.Sprintf("F%d", i)},
		}
		if i%10 == 0 {
			c.Status = "UNSUBSCRIBED"
		}
		if i%4 == 0 {
			c.MobileStatus = "UNSUBSCRIBED"
		}
		big[i] = c
	}
	if err := env.Emulator.UpsertContacts(mustParseID(t, a.bigList), big); err != nil {
		t.Fatal(err)
	}
	if err := env.Emulator.UpsertContacts(mustParseID(t, a.smallList), []emulator.Contact{
		{OriginalID: "a", Properties: map[string]string{"email": "a@example.com", "lastname": "Lovelace"}},
		{OriginalID: "b", Properties: map[string]string{"mobile": "+4915112345678"}, Status: "UNSUBSCRIBED"},
		{OriginalID: "x/y z"},
	}); err != nil {
		t.Fatal(err)
	}
	return a
}

// queryCase runs one query against an emulator: a first step with only the
// provider block (Terraform needs a configuration beside the query file),
// then the query.
func queryCase(env *acctest.Env, query string, checks ...querycheck.QueryResultCheck) resource.TestCase {
	return resource.TestCase{
		TerraformVersionChecks:   skipBelowQuery,
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config()},
			{Query: true, Config: query, QueryResultChecks: checks},
		},
	}
}

func ids(values []string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": knownvalue.StringExact(values[0])}
}

// TestAccListResources_query: each list resource finds what the account
// holds, with identities, display names and, with include_resource, the
// whole resource as an import reads it.
func TestAccListResources_query(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	a := preloadAccount(t, env)
	query := fmt.Sprintf(`
list "rms_project" "all" {
  provider         = rms
  include_resource = true
}

list "rms_list" "all" {
  provider = rms
}

list "rms_webhook" "all" {
  provider         = rms
  include_resource = true
}

list "rms_resource" "campaigns" {
  provider         = rms
  include_resource = true
  config {
    collection = "campaigns"
  }
}

list "rms_resource" "filters" {
  provider = rms
  config {
    collection = "filters"
  }
}

list "rms_contact" "customers" {
  provider         = rms
  include_resource = true
  config {
    list_id = %q
  }
}
`, a.smallList)
	byID := func(id string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
	}
	contact := func(originalID string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
			"list_id": knownvalue.StringExact(a.smallList), "original_id": knownvalue.StringExact(originalID),
		})
	}
	resource.ParallelTest(t, queryCase(env, query,
		// projects
		querycheck.ExpectLength("rms_project.all", 3),
		querycheck.ExpectIdentity("rms_project.all", ids(a.projects[:1])),
		querycheck.ExpectIdentity("rms_project.all", ids(a.projects[2:])),
		querycheck.ExpectResourceDisplayName("rms_project.all", byID(a.projects[1]), knownvalue.StringExact("Summer")),
		querycheck.ExpectResourceKnownValues("rms_project.all", byID(a.projects[0]), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Spring")},
			{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("seasonal sends")},
			{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(a.projects[0])},
		}),
		// lists, without resources
		querycheck.ExpectLength("rms_list.all", 3),
		querycheck.ExpectResourceDisplayName("rms_list.all", byID(a.lists[2]), knownvalue.StringExact("Empty")),
		querycheck.ExpectIdentity("rms_list.all", ids(a.lists[1:])),
		// webhooks: no secret ever, has_secret tells
		querycheck.ExpectLength("rms_webhook.all", 2),
		querycheck.ExpectResourceDisplayName("rms_webhook.all", byID(a.webhooks[0]), knownvalue.StringExact("https://hooks.example.com/crm (contact.created, contact.updated)")),
		querycheck.ExpectResourceKnownValues("rms_webhook.all", byID(a.webhooks[0]), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("has_secret"), KnownValue: knownvalue.Bool(true)},
			{Path: tfjsonpath.New("secret"), KnownValue: knownvalue.Null()},
			{Path: tfjsonpath.New("active"), KnownValue: knownvalue.Bool(true)},
		}),
		querycheck.ExpectResourceKnownValues("rms_webhook.all", byID(a.webhooks[1]), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("active"), KnownValue: knownvalue.Bool(false)},
			{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("paused")},
			{Path: tfjsonpath.New("events"), KnownValue: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("import.finished")})},
		}),
		// generic entities: body is the entity without the server's keys
		querycheck.ExpectLength("rms_resource.campaigns", 2),
		querycheck.ExpectIdentity("rms_resource.campaigns", map[string]knownvalue.Check{
			"collection": knownvalue.StringExact("campaigns"), "id": knownvalue.StringExact(a.campaigns[1]),
		}),
		querycheck.ExpectResourceKnownValues("rms_resource.campaigns", queryfilter.ByDisplayName(knownvalue.StringExact("Spring sale")), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("body"), KnownValue: knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name":   knownvalue.StringExact("Spring sale"),
				"budget": knownvalue.Float64Exact(12.5),
				"live":   knownvalue.Bool(true),
				"tags":   knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("a"), knownvalue.StringExact("b")}),
				"rule": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"field":  knownvalue.StringExact("status"),
					"values": knownvalue.ListExact([]knownvalue.Check{knownvalue.Int64Exact(1), knownvalue.Int64Exact(2)}),
				}),
			})},
			{Path: tfjsonpath.New("output").AtMapKey("id"), KnownValue: knownvalue.Int64Exact(mustParseID(t, a.campaigns[0]))},
		}),
		querycheck.ExpectLength("rms_resource.filters", 1),
		querycheck.ExpectResourceDisplayName("rms_resource.filters", queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
			"collection": knownvalue.StringExact("filters"), "id": knownvalue.StringExact(a.filters[0]),
		}), knownvalue.StringExact("filters/"+a.filters[0])),
		// contacts, every property managed
		querycheck.ExpectLength("rms_contact.customers", 3),
		querycheck.ExpectResourceDisplayName("rms_contact.customers", contact("a"), knownvalue.StringExact("a <a@example.com>")),
		querycheck.ExpectResourceDisplayName("rms_contact.customers", contact("x/y z"), knownvalue.StringExact("x/y z")),
		querycheck.ExpectResourceKnownValues("rms_contact.customers", contact("b"), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(a.smallList + "/b")},
			{Path: tfjsonpath.New("properties"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"mobile": knownvalue.StringExact("+4915112345678")})},
			{Path: tfjsonpath.New("email_status"), KnownValue: knownvalue.StringExact("UNSUBSCRIBED")},
			{Path: tfjsonpath.New("mobile_status"), KnownValue: knownvalue.StringExact("SUBSCRIBED")},
		}),
		querycheck.ExpectResourceKnownValues("rms_contact.customers", contact("x/y z"), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("properties"), KnownValue: knownvalue.Null()},
		}),
	))
}

// TestAccContactQuery_pagingAndFilters: the contacts of a list
// bigger than a page all arrive, the status filters select by state, and
// limit stops the listing.
func TestAccContactQuery_pagingAndFilters(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	a := preloadAccount(t, env)
	query := fmt.Sprintf(`
list "rms_contact" "all" {
  provider = rms
  limit    = 10000
  config {
    list_id = %[1]q
  }
}

list "rms_contact" "email_opt_outs" {
  provider = rms
  limit    = 10000
  config {
    list_id      = %[1]q
    email_status = "UNSUBSCRIBED"
  }
}

list "rms_contact" "reachable_both" {
  provider = rms
  limit    = 10000
  config {
    list_id       = %[1]q
    email_status  = "SUBSCRIBED"
    mobile_status = "SUBSCRIBED"
  }
}

list "rms_contact" "first" {
  provider = rms
  limit    = 25
  config {
    list_id = %[1]q
  }
}

list "rms_contact" "none_wanted" {
  provider = rms
  limit    = 0
  config {
    list_id = %[1]q
  }
}

list "rms_contact" "empty" {
  provider = rms
  config {
    list_id = %[2]q
  }
}
`, a.bigList, a.lists[2])
	contact := func(originalID string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{"list_id": knownvalue.StringExact(a.bigList), "original_id": knownvalue.StringExact(originalID)}
	}
	// Of 2,000: 200 unsubscribed from e-mail (i%10 == 0), 500 from mobile
	// (i%4 == 0), 100 from both (i%20 == 0): 2000-200-500+100 reachable.
	resource.ParallelTest(t, queryCase(env, query,
		querycheck.ExpectLength("rms_contact.all", bigListSize),
		querycheck.ExpectIdentity("rms_contact.all", contact("c-1999")),
		querycheck.ExpectResourceDisplayName("rms_contact.all",
			queryfilter.ByResourceIdentity(contact("c-1234")), knownvalue.StringExact("c-1234 <c1234@example.com>")),
		querycheck.ExpectLength("rms_contact.email_opt_outs", 200),
		querycheck.ExpectIdentity("rms_contact.email_opt_outs", contact("c-1990")),
		querycheck.ExpectNoIdentity("rms_contact.email_opt_outs", contact("c-1991")),
		querycheck.ExpectLength("rms_contact.reachable_both", 1400),
		querycheck.ExpectNoIdentity("rms_contact.reachable_both", contact("c-0004")),
		querycheck.ExpectLength("rms_contact.first", 25),
		querycheck.ExpectIdentity("rms_contact.first", contact("c-0024")),
		querycheck.ExpectNoIdentity("rms_contact.first", contact("c-0025")),
		querycheck.ExpectLength("rms_contact.none_wanted", 0),
		querycheck.ExpectLength("rms_contact.empty", 0),
	))
}

// TestAccListResources_badConfig: every mistake in a list block a user can
// make names its cause. Each case has its own TestCase.
func TestAccListResources_badConfig(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	cases := map[string]struct {
		query string
		want  *regexp.Regexp
	}{
		"contact list id not a number": {
			query: `list "rms_contact" "x" {
  provider = rms
  config {
    list_id = "newsletter"
  }
}`,
			want: acctest.ExpectErrorParts("list_id must be the numeric id of a list"),
		},
		"contact list unknown": {
			query: `list "rms_contact" "x" {
  provider = rms
  config {
    list_id = "999999"
  }
}`,
			want: acctest.ExpectErrorParts("Unable to list the contacts of list 999999", `No list has id "999999"`, "check list_id"),
		},
		"contact status misspelt": {
			query: `list "rms_contact" "x" {
  provider = rms
  config {
    list_id      = "1"
    email_status = "subscribed"
  }
}`,
			want: acctest.ExpectErrorParts("email_status value must be one of"),
		},
		"contact without list id": {
			query: `list "rms_contact" "x" {
  provider = rms
}`,
			want: acctest.ExpectErrorParts("Missing config block", `A block of type "config" is required here`),
		},
		"webhook event unknown": {
			query: `list "rms_webhook" "x" {
  provider = rms
  config {
    event = "contact.exploded"
  }
}`,
			want: acctest.ExpectErrorParts("event value must be one of"),
		},
		"resource internal collection": {
			query: `list "rms_resource" "x" {
  provider = rms
  config {
    collection = "systemusers"
  }
}`,
			want: acctest.ExpectErrorParts("Invalid collection", "Systemusers is an internal-only domain"),
		},
		"resource collection unknown to the service": {
			query: `list "rms_resource" "x" {
  provider = rms
  config {
    collection = "campaigns/999999/notes"
  }
}`,
			want: acctest.ExpectErrorParts("Unable to list campaigns/999999/notes", "404"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := queryCase(env, tc.query)
			c.Steps[1].ExpectError = tc.want
			resource.ParallelTest(t, c)
		})
	}
}
