package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-exec/tfexec"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// BenchmarkContactQueryCLI runs `terraform query -json` over a list of
// 100,000 contacts with the provider binary users run, as a user would, and
// reports the time of the whole query and the provider process's peak
// resident memory (provider-peak-RSS-MB, VmHWM from /proc, so Linux only).
// The emulator serves from the benchmark's own process, not the provider's.
// It needs Terraform 1.14 or newer in TF_ACC_TERRAFORM_PATH (and skips
// without one):
//
//	TF_ACC_TERRAFORM_PATH=$(bash scripts/terraform.sh path latest) go test -run '^$' -bench BenchmarkContactQueryCLI -benchtime 1x ./internal/provider/
func BenchmarkContactQueryCLI(b *testing.B) {
	const contacts = 100_000
	ctx := context.Background()
	work := b.TempDir()
	tfPath := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tfPath == "" {
		b.Skip("terraform query needs Terraform 1.14 or newer: set TF_ACC_TERRAFORM_PATH, e.g. to $(bash scripts/terraform.sh path latest)")
	}
	tf, err := tfexec.NewTerraform(work, tfPath)
	if err != nil {
		b.Fatal(err)
	}
	v, _, err := tf.Version(ctx, true)
	if err != nil {
		b.Fatal(err)
	}
	if v.LessThan(goversion.Must(goversion.NewVersion("1.14.0"))) {
		b.Skipf("terraform query needs Terraform 1.14 or newer; TF_ACC_TERRAFORM_PATH is Terraform %s", v)
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Fatalf("the provider's memory is read from /proc: %v", err)
	}

	env := acctest.NewEnv(b, emulator.Options{})
	var list struct {
		ID json.Number `json:"id"`
	}
	env.MustDo(b, "POST", "lists", map[string]any{"name": "Big"}, &list)
	listID, err := strconv.ParseInt(list.ID.String(), 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	seed := make([]emulator.Contact, contacts)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: fmt.Sprintf("customer-%06d", i), Properties: map[string]string{
			"email": fmt.Sprintf("customer%d@example.com", i), "firstname": "First", "lastname": "Last",
		}}
	}
	if err := env.Emulator.UpsertContacts(listID, seed); err != nil {
		b.Fatal(err)
	}

	cliConfig, provider := acctest.DevOverrides(b, work)
	acctest.SetTerraformExecEnv(b, tf, cliConfig)
	writeFile(b, filepath.Join(work, "main.tf"), "terraform {\n  required_providers {\n    rms = { source = \"rms-labs/rms\" }\n  }\n}\n"+env.ProviderBlock())

	for _, include := range []bool{false, true} {
		b.Run(fmt.Sprintf("include_resource=%t", include), func(b *testing.B) {
			writeFile(b, filepath.Join(work, "contacts.tfquery.hcl"), fmt.Sprintf(`
list "rms_contact" "all" {
  provider         = rms
  limit            = %d
  include_resource = %t
  config {
    list_id = "%d"
  }
}
`, contacts, include, listID))
			var peak uint64
			for range b.N {
				rss := watchPeakRSS(provider)
				msgs, err := tf.QueryJSON(ctx)
				if err != nil {
					b.Fatal(err)
				}
				total := -1
				for m := range msgs {
					if m.Err != nil {
						b.Fatal(m.Err)
					}
					if c, ok := m.Msg.(tfjson.ListCompleteMessage); ok {
						total = c.ListComplete.Total
					} else if m.Msg != nil && m.Msg.Level() == tfjson.Error {
						b.Fatal(m.Msg.Message())
					}
				}
				if total != contacts {
					b.Fatalf("query found %d contacts, want %d", total, contacts)
				}
				peak = max(peak, rss())
			}
			if peak == 0 {
				b.Fatal("the provider process was never seen")
			}
			b.ReportMetric(float64(peak)/(1<<10), "provider-peak-RSS-MB")
			b.ReportMetric(float64(contacts), "contacts/op")
		})
	}
}

// watchPeakRSS polls /proc for processes running exe and records their
// peak resident memory (VmHWM, in KiB) until the returned function is
// called, which returns the largest seen.
func watchPeakRSS(exe string) func() uint64 {
	done := make(chan struct{})
	var mu sync.Mutex
	var peak uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			entries, _ := os.ReadDir("/proc")
			for _, e := range entries {
				if _, err := strconv.Atoi(e.Name()); err != nil {
					continue
				}
				if target, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err != nil || target != exe {
					continue
				}
				if kb := vmHWM(filepath.Join("/proc", e.Name(), "status")); kb > 0 {
					mu.Lock()
					peak = max(peak, kb)
					mu.Unlock()
				}
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// vmHWM reads the peak resident set size, in KiB, from a /proc status file.
func vmHWM(status string) uint64 {
	f, err := os.Open(status)
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
