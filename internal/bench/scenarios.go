package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Bench holds what the scenarios share.
type Bench struct {
	TF     *Terraform
	Dir    string    // scratch directory for workspaces
	Log    io.Writer // progress lines
	Repeat int       // timed runs per figure; the median is reported
	// PlanVariants are further no-change plans of the rms_contact workspace
	// in the timing scenario, each with extra environment variables (to
	// compare a provider behaviour switched off, say).
	PlanVariants []PlanVariant
	// ListEnv are environment variables (KEY=value) of every command of
	// the largelists scenario: RMS_CPU_PROFILE, to profile the provider.
	ListEnv []string
	// ListLatency, when set, adds the largelists scenario's latency leg:
	// no-change plans of each file list with every answer of the emulator
	// that much later, with the default settings and with a cap of
	// ListCap requests per second (max_requests_per_second).
	ListLatency time.Duration
	ListCap     int

	seq int
}

// PlanVariant is a further no-change plan of the rms_contact workspace:
// extra environment variables (KEY=value), extra plan arguments, and a
// latency the emulator adds to every answer during it.
type PlanVariant struct {
	Name    string
	Env     []string
	Args    []string
	Latency time.Duration
}

// ErrPending marks a scenario that cannot run yet: the provider lacks what
// it measures.
var ErrPending = errors.New("pending")

func (b *Bench) logf(format string, args ...any) {
	if b.Log != nil {
		_, _ = fmt.Fprintf(b.Log, "bench: "+format+"\n", args...) // progress only: a lost line must not stop a measurement
	}
}

// closeEmulator stops a scenario's emulator once its figures are taken: a
// failed shutdown changes none of them, so it is logged, not returned.
func (b *Bench) closeEmulator(e *Emulator) {
	if err := e.Close(); err != nil {
		b.logf("closing the emulator: %v", err)
	}
}

func (b *Bench) workspace(name string, env ...string) (*Workspace, error) {
	b.seq++
	return b.TF.Workspace(b.Dir, fmt.Sprintf("%03d-%s", b.seq, name), env...)
}

// operation is one operation of the requests scenario, with its floor per
// resource:
// one GET per managed object per refresh and one write per create, update
// or delete. An apply of an update and a destroy refresh first.
//
// checks is the command's credentials checks, whatever N: the provider
// proves its credentials with one GET of projects (a first page of one)
// each time Terraform configures it, and Terraform configures it once for
// a plan, twice for an apply (its plan, then its apply) and three times for
// a destroy (a refresh, the destroy plan, the apply), as measured by
// TestAccCredentialsCheck_perCommand.
type operation struct {
	name                    string
	version                 int
	args                    []string
	exit                    int
	floorReads, floorWrites int64
	checks                  int64
}

var operations = []operation{
	{name: "create", version: 0, args: []string{"apply", "-auto-approve", "-input=false", "-no-color"}, floorWrites: 1, checks: 2},
	{name: "refresh (no-change plan)", version: 0, args: []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}, floorReads: 1, checks: 1},
	{name: "update (apply)", version: 1, args: []string{"apply", "-auto-approve", "-input=false", "-no-color"}, floorReads: 1, floorWrites: 1, checks: 2},
	{name: "destroy", version: 1, args: []string{"destroy", "-auto-approve", "-input=false", "-no-color"}, floorReads: 1, floorWrites: 1, checks: 3},
}

// CheckRoute is the route of the provider's credentials check in Counts.
const CheckRoute = "GET projects"

// AttributeRoute is the route of the listing of the account's contact
// attributes a plan makes to check new property keys, in Counts.
const AttributeRoute = "GET properties"

// requestKind is one resource type measured by the requests scenario.
type requestKind struct {
	name string
	note string
	list bool // manages contacts of a list made out of band
	// createReads is the reads a create of one resource may need: a contact
	// is looked for before it is created (the interface's own advice; a
	// service may answer the create of an existing one as an upsert).
	createReads int64
	// forgets: its destroy writes nothing (on_destroy = "forget", the
	// default: the interface has no DELETE of a contact).
	forgets bool
	// checksKeys: a plan that adds property keys checks them against the
	// account's attributes, one listing of them per time Terraform
	// configures the provider, whatever N (AttributeRoute).
	checksKeys bool
	config     func(e *Emulator, listID string, n, version int) string
}

var requestKinds = []requestKind{
	{name: "rms_project", note: "update changes description",
		config: func(e *Emulator, _ string, n, v int) string { return projectsConfig(e, n, v) }},
	{name: "rms_list", note: "update changes description",
		config: func(e *Emulator, _ string, n, v int) string { return listsConfig(e, n, v) }},
	{name: "rms_contact", note: "properties only; update changes a property; destroy forgets", list: true, createReads: 1, forgets: true, checksKeys: true,
		config: func(e *Emulator, l string, n, v int) string { return contactsConfig(e, l, n, v, false) }},
	{name: "rms_contact + statuses", note: "email_status and mobile_status UNSUBSCRIBED; update re-subscribes e-mail; destroy forgets", list: true, createReads: 1, forgets: true, checksKeys: true,
		config: func(e *Emulator, l string, n, v int) string { return contactsConfig(e, l, n, v, true) }},
}

// RequestRow is the requests one terraform command sent for N resources.
type RequestRow struct {
	Resource    string
	Note        string
	N           int
	Op          string
	Command     string
	Counts      Counts
	FloorReads  int64 // for all N resources, Checks included
	FloorWrites int64
	// Checks is the credentials checks the command makes whatever N (one
	// per time Terraform configures the provider), part of FloorReads.
	Checks int64
	// AttributeReads is the listings of the account's attributes the
	// command makes to check new property keys at plan, whatever N (one
	// per time Terraform configures the provider), part of FloorReads.
	AttributeReads int64
	Wall           time.Duration
	PeakRSS        int64
}

// Ratio is requests sent over the floor.
func (r RequestRow) Ratio() float64 {
	floor := r.FloorReads + r.FloorWrites
	if floor == 0 {
		return 0
	}
	return float64(r.Counts.Total()) / float64(floor)
}

// Requests creates, refreshes, updates and destroys n resources of each
// kind, each kind against an emulator of its own, and counts the requests of
// every command.
func (b *Bench) Requests(ctx context.Context, n int) ([]RequestRow, error) {
	var rows []RequestRow
	for _, k := range requestKinds {
		kindRows, err := b.requestsOf(ctx, k, n)
		if err != nil {
			return rows, fmt.Errorf("%s, N=%d: %w", k.name, n, err)
		}
		rows = append(rows, kindRows...)
	}
	return rows, nil
}

func (b *Bench) requestsOf(ctx context.Context, k requestKind, n int) ([]RequestRow, error) {
	e, err := StartEmulator(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer b.closeEmulator(e)
	listID := ""
	if k.list {
		if listID, err = e.CreateList(ctx, "bench"); err != nil {
			return nil, err
		}
	}
	ws, err := b.workspace(fmt.Sprintf("requests-%d", n))
	if err != nil {
		return nil, err
	}
	var rows []RequestRow
	for _, op := range operations {
		if err := ws.WriteConfig(k.config(e, listID, n, op.version)); err != nil {
			return nil, err
		}
		before, beforeTotal := e.Counts(), e.Server.Requests().Total
		b.logf("%s N=%d: %s", k.name, n, op.name)
		run, err := ws.MustSucceed(ctx, op.exit, op.args...)
		if err != nil {
			return nil, err
		}
		delta := e.Counts().Sub(before)
		if got := e.Server.Requests().Total - beforeTotal; got != delta.Total() {
			return nil, fmt.Errorf("%s: the emulator counted %d requests, the harness %d", op.name, got, delta.Total())
		}
		floorReads, floorWrites := op.floorReads*int64(n)+op.checks, op.floorWrites*int64(n)
		if op.name == "destroy" && k.forgets {
			floorWrites = 0
		}
		var attributeReads int64
		if op.version == 0 && op.floorWrites > 0 { // the create
			floorReads += k.createReads * int64(n)
			if k.checksKeys {
				attributeReads = op.checks
				floorReads += attributeReads
			}
		}
		rows = append(rows, RequestRow{
			Resource: k.name, Note: k.note, N: n, Op: op.name, Command: run.Command(), Counts: delta,
			FloorReads: floorReads, FloorWrites: floorWrites, Checks: op.checks, AttributeReads: attributeReads,
			Wall: run.Wall, PeakRSS: run.ProviderPeakRSS,
		})
	}
	return rows, nil
}

// TimingSubject is the timed runs of one kind of resource.
type TimingSubject struct {
	Name     string
	ApplyCmd string
	PlanCmd  string
	Apply    []time.Duration // create of N from nothing
	Plan     []time.Duration // no-change plan of N
	PeakRSS  int64           // largest provider VmHWM over these runs
	// CPU time of each plan: terraform with its provider processes, the
	// provider processes alone, and the emulator (this process).
	PlanTerraformCPU, PlanProviderCPU, PlanEmulatorCPU []time.Duration
	// PlanRequests are the requests of the last plan.
	PlanRequests Counts
}

// TimingResult compares N rms_contact with N terraform_data.
type TimingResult struct {
	N        int
	Subjects []*TimingSubject // rms_contact first, terraform_data last
}

// Subject returns the subject of that name, or nil.
func (t TimingResult) Subject(name string) *TimingSubject {
	for _, s := range t.Subjects {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Names of timing subjects.
const (
	SubjectContact = "rms_contact"
	SubjectData    = "terraform_data"
)

// Timing creates N rms_contact (one list) and N terraform_data from nothing
// and then plans each with no change, Repeat times, interleaved so that a
// machine busy with other work slows both alike; each repeat starts from
// a fresh workspace (and, for contacts, a fresh list).
func (b *Bench) Timing(ctx context.Context, n int) (TimingResult, error) {
	e, err := StartEmulator(emulator.Options{})
	if err != nil {
		return TimingResult{}, err
	}
	defer b.closeEmulator(e)
	contact := &TimingSubject{Name: SubjectContact}
	data := &TimingSubject{Name: SubjectData}
	variants := make([]*TimingSubject, len(b.PlanVariants))
	for i, v := range b.PlanVariants {
		variants[i] = &TimingSubject{Name: SubjectContact + ", " + v.Name}
	}
	applyArgs := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	planArgs := []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
	for r := 0; r < b.Repeat; r++ {
		listID, err := e.CreateList(ctx, fmt.Sprintf("timing-%d", r))
		if err != nil {
			return TimingResult{}, err
		}
		cws, err := b.workspace(fmt.Sprintf("timing-contact-%d", n))
		if err != nil {
			return TimingResult{}, err
		}
		dws, err := b.workspace(fmt.Sprintf("timing-data-%d", n))
		if err != nil {
			return TimingResult{}, err
		}
		if err := cws.WriteConfig(contactsConfig(e, listID, n, 0, false)); err != nil {
			return TimingResult{}, err
		}
		if err := dws.WriteConfig(dataConfig(n, 0)); err != nil {
			return TimingResult{}, err
		}
		type step struct {
			subject *TimingSubject
			ws      *Workspace
			variant PlanVariant
		}
		order := []step{{subject: contact, ws: cws}, {subject: data, ws: dws}}
		if r%2 == 1 { // alternate who goes first
			order[0], order[1] = order[1], order[0]
		}
		for _, s := range order {
			b.logf("timing N=%d repeat %d/%d: %s apply", n, r+1, b.Repeat, s.subject.Name)
			run, err := s.ws.MustSucceed(ctx, 0, applyArgs...)
			if err != nil {
				return TimingResult{}, err
			}
			s.subject.ApplyCmd = run.Command()
			s.subject.Apply = append(s.subject.Apply, run.Wall)
			s.subject.PeakRSS = max(s.subject.PeakRSS, run.ProviderPeakRSS)
		}
		plans := order
		for i, v := range b.PlanVariants {
			plans = append(plans, step{variants[i], cws, v})
		}
		for _, s := range plans {
			b.logf("timing N=%d repeat %d/%d: %s plan", n, r+1, b.Repeat, s.subject.Name)
			before := e.Counts()
			e.SetLatency(s.variant.Latency)
			run, err := s.ws.RunEnv(ctx, s.variant.Env, 0, append(slices.Clone(planArgs), s.variant.Args...)...)
			e.SetLatency(0)
			if err != nil {
				return TimingResult{}, err
			}
			s.subject.PlanCmd = run.Command()
			s.subject.Plan = append(s.subject.Plan, run.Wall)
			s.subject.PlanTerraformCPU = append(s.subject.PlanTerraformCPU, run.TerraformCPU)
			s.subject.PlanProviderCPU = append(s.subject.PlanProviderCPU, run.ProviderCPU)
			s.subject.PlanEmulatorCPU = append(s.subject.PlanEmulatorCPU, run.HarnessCPU)
			s.subject.PeakRSS = max(s.subject.PeakRSS, run.ProviderPeakRSS)
			s.subject.PlanRequests = e.Counts().Sub(before)
		}
	}
	return TimingResult{N: n, Subjects: append(append([]*TimingSubject{contact}, variants...), data)}, nil
}

// Median of durations; zero for none.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// HasResource reports whether the built provider has a resource type, by
// asking Terraform for its schema.
func (b *Bench) HasResource(ctx context.Context, typ string) (bool, error) {
	ws, err := b.workspace("schema")
	if err != nil {
		return false, err
	}
	if err := ws.WriteConfig(header(&Emulator{URL: "http://127.0.0.1:1", CustomerID: 1, Username: "u", Password: "p"})); err != nil {
		return false, err
	}
	cmd := exec.CommandContext(ctx, b.TF.Bin, "providers", "schema", "-json")
	cmd.Dir, cmd.Env = ws.Dir, ws.env
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("terraform providers schema: %w", err)
	}
	var s struct {
		Schemas map[string]struct {
			Resources map[string]json.RawMessage `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(out, &s); err != nil {
		return false, fmt.Errorf("terraform providers schema: %w", err)
	}
	_, ok := s.Schemas["registry.terraform.io/rms-labs/rms"].Resources[typ]
	return ok, nil
}
