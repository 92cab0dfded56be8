package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// FloorProvider is the floor provider (internal/bench/floorprovider) built
// next to the real one: the rms provider with every real schema, whose
// rms_contact does no I/O. A workspace given Env runs it instead of the
// real provider, under the same name, so the harness samples it alike.
type FloorProvider struct {
	Env []string // TF_CLI_CONFIG_FILE of a dev_overrides pointing at it
}

// floorPackage is the main of the floor provider, in the module.
const floorPackage = "./internal/bench/floorprovider/cmd"

// SetupFloor builds the floor provider from the module at root into
// dir/floor-bin and writes dir/floor-terraformrc, whose dev_overrides
// point the real provider's address at it.
func SetupFloor(ctx context.Context, root, dir string) (*FloorProvider, error) {
	bin := filepath.Join(dir, "floor-bin")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(bin, ProviderBinaryName), floorPackage)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the floor provider: %w\n%s", err, out)
	}
	rc := filepath.Join(dir, "floor-terraformrc")
	cfg := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n",
		"registry.terraform.io/rms-labs/rms", bin)
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	// A later TF_CLI_CONFIG_FILE wins over the Terraform's own (os/exec
	// keeps the last of duplicate keys).
	return &FloorProvider{Env: []string{"TF_CLI_CONFIG_FILE=" + rc}}, nil
}

// FloorSide is the timed no-change plans of one side of the floor
// scenario.
type FloorSide struct {
	Name    string
	Wall    []time.Duration
	CPU     []time.Duration // terraform with its provider processes (wait4)
	ProvCPU []time.Duration // the provider processes alone (/proc)
	EmuCPU  []time.Duration // the emulator answering them (this process)
	PeakRSS int64           // largest provider VmHWM over the plans
	// Requests are those of the last plan.
	Requests Counts
}

// FloorPair is one pair of plans, one of each side, run back to back.
type FloorPair struct {
	FloorFirst bool
	Load       string // load average before the pair
	// Ratios of rms_contact over the floor.
	Wall, CPU float64
}

// FloorResult compares N rms_contact with N floor contacts of the same
// schema and configuration.
type FloorResult struct {
	N              int
	Config         string // the configuration, provider block left out
	ApplyCmd       string
	PlanCmd        string
	Contact, Floor FloorSide
	Pairs          []FloorPair
	LoadEnd        string
}

// Names of the floor scenario's sides.
const (
	SideContact = "rms_contact"
	SideFloor   = "floor (no-I/O rms_contact)"
)

// Floor creates N rms_contact (properties and both statuses, one list) with
// the real provider against the emulator and as many with the floor
// provider, then plans each with no change pairs times, the two of a pair
// back to back and who goes first alternating, after one untimed plan of
// each. env is added to every plan (RMS_CPU_PROFILE, to profile both; a
// profile's own cost is then in the figures).
func (b *Bench) Floor(ctx context.Context, fp *FloorProvider, n, pairs int, contactEnv, floorEnv []string) (FloorResult, error) {
	e, err := StartEmulator(emulator.Options{})
	if err != nil {
		return FloorResult{}, err
	}
	defer b.closeEmulator(e)
	listID, err := e.CreateList(ctx, "floor")
	if err != nil {
		return FloorResult{}, err
	}
	// One configuration for both; the floor validates the provider block
	// against the same schema but never uses it.
	config := contactsConfig(e, listID, n, 0, true)
	res := FloorResult{N: n, Config: contactsConfig(nil, listID, n, 0, true),
		Contact: FloorSide{Name: SideContact}, Floor: FloorSide{Name: SideFloor}}
	cws, err := b.workspace(fmt.Sprintf("floor-contact-%d", n))
	if err != nil {
		return res, err
	}
	fws, err := b.workspace(fmt.Sprintf("floor-floor-%d", n), fp.Env...)
	if err != nil {
		return res, err
	}
	type side struct {
		s   *FloorSide
		ws  *Workspace
		env []string
	}
	sides := []side{{&res.Contact, cws, contactEnv}, {&res.Floor, fws, floorEnv}}
	applyArgs := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	planArgs := []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
	for _, sd := range sides {
		if err := sd.ws.WriteConfig(config); err != nil {
			return res, err
		}
		b.logf("floor N=%d: %s apply", n, sd.s.Name)
		run, err := sd.ws.MustSucceed(ctx, 0, applyArgs...)
		if err != nil {
			return res, err
		}
		res.ApplyCmd = run.Command()
		// Untimed: the first plan after an apply pays for files the
		// later ones find cached.
		b.logf("floor N=%d: %s warm-up plan", n, sd.s.Name)
		if _, err := sd.ws.MustSucceed(ctx, 0, planArgs...); err != nil {
			return res, err
		}
	}
	for p := 0; p < pairs; p++ {
		pair := FloorPair{FloorFirst: p%2 == 1, Load: LoadAvg()}
		order := slices.Clone(sides)
		if pair.FloorFirst {
			order[0], order[1] = order[1], order[0]
		}
		for _, sd := range order {
			b.logf("floor N=%d pair %d/%d: %s plan", n, p+1, pairs, sd.s.Name)
			before := e.Counts()
			run, err := sd.ws.RunEnv(ctx, sd.env, 0, planArgs...)
			if err != nil {
				return res, err
			}
			res.PlanCmd = run.Command()
			sd.s.Wall = append(sd.s.Wall, run.Wall)
			sd.s.CPU = append(sd.s.CPU, run.TerraformCPU)
			sd.s.ProvCPU = append(sd.s.ProvCPU, run.ProviderCPU)
			sd.s.EmuCPU = append(sd.s.EmuCPU, run.HarnessCPU)
			sd.s.PeakRSS = max(sd.s.PeakRSS, run.ProviderPeakRSS)
			sd.s.Requests = e.Counts().Sub(before)
		}
		if got := res.Floor.Requests.Total(); got != 0 {
			return res, fmt.Errorf("the floor provider sent %d requests (%s): it must do no I/O", got, res.Floor.Requests)
		}
		pair.Wall = ratioOf(res.Contact.Wall[p], res.Floor.Wall[p])
		pair.CPU = ratioOf(res.Contact.CPU[p], res.Floor.CPU[p])
		res.Pairs = append(res.Pairs, pair)
	}
	res.LoadEnd = LoadAvg()
	return res, nil
}

func ratioOf(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// MedianFloat is the median of xs; zero for none.
func MedianFloat(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// WallRatios are the pairs' wall-time ratios of rms_contact over the
// floor.
func (r FloorResult) WallRatios() []float64 {
	return r.ratios(func(p FloorPair) float64 { return p.Wall })
}

// CPURatios are the pairs' CPU-time ratios of rms_contact over the floor.
func (r FloorResult) CPURatios() []float64 {
	return r.ratios(func(p FloorPair) float64 { return p.CPU })
}

func (r FloorResult) ratios(f func(FloorPair) float64) []float64 {
	out := make([]float64, len(r.Pairs))
	for i, p := range r.Pairs {
		out[i] = f(p)
	}
	return out
}
