package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// fleetCollections are what the account-baseline module writes, with the
// field that names an object in each.
var fleetCollections = []struct{ path, nameField string }{
	{"properties", "name"},
	{"lists", "name"},
	{"projects", "name"},
	{"webhooks", "url"},
	{"triggers", "name"},
}

// fleetAccount is one account of the fleet test: its key (which every name
// the module makes for it carries) and its Env.
type fleetAccount struct {
	key string
	env *acctest.Env
}

// The examples' account-baseline module applied to three accounts of one
// service, the way the guide "Provisioning many accounts" shows for
// Terraform: an aliased provider block per account and a module call per
// account naming its provider. Every object lands in its own account and in
// no other, each account's requests carried only its own credentials, the
// plan after apply is empty, and destroy leaves each account as it was
// (including an object each had before, which the module does not manage).
//
// The provider runs as a binary installed from a filesystem mirror, and
// the CLI is driven with terraform-exec, not terraform-plugin-testing, for
// two reasons: plugin-testing serves every provider block of a step from
// one in-process server, so the three blocks would share the last
// configuration and the test could not tell a provider that keeps accounts
// apart from one that does not (Terraform starts a process per block, as
// for users); and its state shim refuses configurations with modules
// ("Modules are not supported"), even for the destroy it runs at the end.
// The checks it would make are made here: the plan after apply is empty,
// and destroy is checked against each account's state before.
func TestAccFleet_baselineModulePerAccount(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.MustDetectCLI(t)
	t.Parallel()
	cliConfig := acctest.FilesystemMirror(t, t.TempDir())
	module, err := filepath.Abs(filepath.Join("..", "..", "examples", "modules", "account-baseline"))
	if err != nil {
		t.Fatal(err)
	}

	envs := acctest.NewAccountEnvs(t,
		emulator.Options{CustomerID: 3001, Username: "acme-api", Password: "acme-password"},
		emulator.Options{CustomerID: 3002, Username: "globex-api", Password: "globex-password"},
		emulator.Options{CustomerID: 3003, Username: "initech-api", Password: "initech-password"})
	fleet := []fleetAccount{{"acme", envs[0]}, {"globex", envs[1]}, {"initech", envs[2]}}

	// Each account holds a list of its own before Terraform: the module
	// must leave it alone, and it must not appear in another account.
	for _, a := range fleet {
		a.env.MustDo(t, "POST", "lists", map[string]any{"name": a.key + ": pre-existing"}, nil)
	}
	before := map[string]map[string][]string{}
	for _, a := range fleet {
		before[a.key] = fleetSnapshot(t, a.env)
	}

	var cfg strings.Builder
	cfg.WriteString(`terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}
`)
	for _, a := range fleet {
		fmt.Fprintf(&cfg, `
provider "rms" {
  alias       = %[1]q
  base_url    = %[2]q
  customer_id = %[3]d
  username    = %[4]q
  password    = %[5]q
}

module %[1]q {
  source    = %[6]q
  providers = { rms = rms.%[1]s }

  name_prefix        = "%[1]s: "
  contact_attributes = ["plan", "%[1]s_segment"]
  lists = {
    "Newsletter" = { sender_name = "%[1]s news", sender_email = "news@%[1]s.example" }
    "Customers"  = { description = "everyone with an order at %[1]s" }
  }
  project_name   = "Onboarding"
  webhook_url    = "https://hooks.%[1]s.example/rms"
  webhook_events = ["contact.unsubscribed", "message.bounced"]
  webhook_secret = "%[1]s-signing-secret"
  trigger = {
    name    = "Welcome"
    subject = "Welcome to %[1]s"
    content = "Hello {{firstname}}, your {{plan}} plan is ready."
  }
}

output "%[1]s_list_ids" {
  value = module.%[1]s.list_ids
}
`, a.key, a.env.URL, a.env.CustomerID, a.env.Username, a.env.Password, filepath.ToSlash(module))
	}

	configDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(configDir, "main.tf"), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	// want is what an account holds after the apply: what it had, and its
	// own module's objects, named after its key.
	want := func(a fleetAccount) map[string][]string {
		w := map[string][]string{}
		for c, names := range before[a.key] {
			w[c] = slices.Clone(names)
		}
		w["properties"] = append(w["properties"], "plan", a.key+"_segment")
		w["lists"] = append(w["lists"], a.key+": Newsletter", a.key+": Customers")
		w["projects"] = append(w["projects"], a.key+": Onboarding")
		w["webhooks"] = append(w["webhooks"], "https://hooks."+a.key+".example/rms")
		w["triggers"] = append(w["triggers"], a.key+": Welcome")
		for c := range w {
			slices.Sort(w[c])
		}
		return w
	}

	// eachInItsOwnAccount reads every account over REST with its own
	// credentials: exactly what it had plus its own module's objects, none
	// carrying another account's key.
	eachInItsOwnAccount := func() error {
		for _, a := range fleet {
			got := fleetSnapshot(t, a.env)
			if err := sameCollections(a.key, got, want(a)); err != nil {
				return err
			}
			for _, other := range fleet {
				if other.key == a.key {
					continue
				}
				for c, names := range got {
					for _, n := range names {
						if strings.Contains(n, other.key) {
							return fmt.Errorf("account %s (%d) holds %s %q of account %s", a.key, a.env.CustomerID, c, n, other.key)
						}
					}
				}
			}
		}
		return nil
	}

	// ownCredentialsOnly: the service front routes a request to the
	// account whose credentials it carries; a request with credentials of
	// no account is refused 401 by the first, and one naming another
	// account's customer id 403 by its own. So an account that answered
	// requests, none refused so, was reached only with its own
	// credentials under its own id.
	ownCredentialsOnly := func() error {
		for _, a := range fleet {
			st := a.env.Emulator.Requests()
			if st.ByMethod["POST"] == 0 {
				return fmt.Errorf("account %s answered no POST: its module's objects went elsewhere (requests %v)", a.key, st.ByMethod)
			}
			if n := st.ByStatus[401] + st.ByStatus[403]; n > 0 {
				return fmt.Errorf("account %s refused %d requests with 401/403: credentials or customer id of another account", a.key, n)
			}
		}
		return nil
	}

	ctx := context.Background()
	tf, err := tfexec.NewTerraform(configDir, acctest.MustDetectCLI(t).Path)
	if err != nil {
		t.Fatal(err)
	}
	acctest.SetTerraformExecEnv(t, tf, cliConfig)

	if err := tf.Init(ctx); err != nil {
		t.Fatalf("init: %v", err)
	}
	// Whatever fails below, nothing is left behind in the emulator's
	// accounts by a half-run test; the destroy proper is checked later.
	destroyed := false
	t.Cleanup(func() {
		if !destroyed {
			_ = tf.Destroy(ctx)
		}
	})
	if err := tf.Apply(ctx); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if changes, err := tf.Plan(ctx); err != nil || changes {
		t.Errorf("the plan after apply is not empty (changes %t, error %v)", changes, err)
	}
	outputs, err := tf.Output(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range fleet {
		var ids map[string]string
		o, ok := outputs[a.key+"_list_ids"]
		if !ok || json.Unmarshal(o.Value, &ids) != nil || len(ids) != 2 {
			t.Errorf("output %s_list_ids = %s, want two list ids", a.key, o.Value)
		}
	}
	if err := eachInItsOwnAccount(); err != nil {
		t.Error(err)
	}
	if err := ownCredentialsOnly(); err != nil {
		t.Error(err)
	}

	if err := tf.Destroy(ctx); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	destroyed = true
	for _, a := range fleet {
		if err := sameCollections(a.key, fleetSnapshot(t, a.env), before[a.key]); err != nil {
			t.Errorf("after destroy: %v", err)
		}
	}
}

// fleetSnapshot reads the names of the objects in each of the module's
// collections of env's account, sorted.
func fleetSnapshot(t *testing.T, env *acctest.Env) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, c := range fleetCollections {
		var objs []map[string]any
		env.MustDo(t, "GET", c.path, nil, &objs)
		names := []string{}
		for _, o := range objs {
			names = append(names, fmt.Sprint(o[c.nameField]))
		}
		slices.Sort(names)
		out[c.path] = names
	}
	return out
}

func sameCollections(key string, got, want map[string][]string) error {
	for _, c := range fleetCollections {
		if !slices.Equal(got[c.path], want[c.path]) {
			return fmt.Errorf("account %s holds %s %q, want %q", key, c.path, got[c.path], want[c.path])
		}
	}
	return nil
}
