package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The largelists scenario: rms_list_contacts on lists of 1,000 to 100,000
// contacts, from a CSV file and from a map, and a map against as many
// rms_contact in the same run. Lists are preloaded through the emulator's
// Go API (what the configuration says is already there), so the first
// apply only adopts them and what is timed is what a user pays every day:
// a no-change plan, and an apply that changes 1 % of a file's rows.

// ListRun is the timed runs of one configuration of the scenario.
type ListRun struct {
	Subject string // "file", "map", "rms_contact"
	N       int    // contacts (file rows, map keys, resources)
	Bytes   int64  // the source file
	// Adopt is the first apply: of a preloaded list for rms_list_contacts
	// (nothing to write), of N creates for rms_contact.
	Adopt         time.Duration
	AdoptRequests Counts
	// Plan is each no-change plan; PlanCPU the provider's CPU in each.
	Plan, PlanCPU []time.Duration
	// PlanTotalCPU is the CPU of terraform and the provider in each
	// no-change plan (wait4).
	PlanTotalCPU []time.Duration
	PlanRequests Counts // of the last plan
	// Change is each apply of a file whose rows changed by 1 % (versions
	// alternate, so every apply changes as many contacts).
	Change         []time.Duration
	ChangeRequests Counts // of the last such apply
	// Largest provider VmHWM over the no-change plans, and over every
	// command (the first apply and the changes included).
	PlanRSS, PeakRSS int64
	PlanCmd          string
	ApplyCmd         string
	// The latency leg (Bench.ListLatency): no-change plans with every
	// answer that much later, with the default settings (LatencyPlan) and
	// with max_requests_per_second = Cap (CappedPlan), and the most
	// requests the emulator answered in any one second of the capped plan.
	Latency        time.Duration
	LatencyPlan    []time.Duration
	LatencyRSS     int64
	Cap            int
	CappedPlan     time.Duration
	CappedPeakRate int
}

// LargeListsResult is the whole scenario: the file sizes, the map sizes,
// and the map against rms_contact at one size, planned interleaved.
type LargeListsResult struct {
	Files   []*ListRun
	Maps    []*ListRun // includes Compare[0]
	Data    []*ListRun // terraform_data holding the map of Maps[i] (Compare's size excepted)
	Compare []*ListRun // the map and rms_contact, at the same N
}

var (
	listApplyArgs = []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	listPlanArgs  = []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
)

// LargeLists runs the scenario: for each of fileRows a file-input list
// (adopt, Repeat no-change plans, Repeat applies of a 1 % change); a map
// of compareN contacts and compareN rms_contact planned interleaved; then
// a map of each of mapSizes (compareN is not run twice).
func (b *Bench) LargeLists(ctx context.Context, fileRows, mapSizes []int, compareN int) (LargeListsResult, error) {
	var res LargeListsResult
	if ok, err := b.HasResource(ctx, "rms_list_contacts"); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: the provider has no rms_list_contacts", ErrPending)
		}
		return res, err
	}
	for _, n := range fileRows {
		run, err := b.fileList(ctx, n)
		if err != nil {
			return res, fmt.Errorf("file of %d rows: %w", n, err)
		}
		res.Files = append(res.Files, run)
	}
	if compareN > 0 {
		cmp, err := b.mapAgainstContacts(ctx, compareN)
		if err != nil {
			return res, fmt.Errorf("map against rms_contact, N=%d: %w", compareN, err)
		}
		res.Compare = cmp
	}
	for _, n := range mapSizes {
		if n == compareN && len(res.Compare) > 0 {
			res.Maps = append(res.Maps, res.Compare[0])
			continue
		}
		e, ws, run, err := b.mapList(ctx, n)
		if err != nil {
			return res, fmt.Errorf("map of %d contacts: %w", n, err)
		}
		var data *ListRun
		var dws *Workspace
		if dws, data, err = b.dataMap(ctx, e, n); err == nil {
			for r := 0; r < b.Repeat && err == nil; r++ {
				// Interleaved, each round in the other order, so that
				// a machine busy with other work slows both alike.
				first, second := func() error { return b.timedPlan(ctx, e, ws, run, r) }, func() error { return b.timedPlan(ctx, e, dws, data, r) }
				if r%2 == 1 {
					first, second = second, first
				}
				if err = first(); err == nil {
					err = second()
				}
			}
		}
		_ = e.Close() // the figures are taken; a failed shutdown changes none
		if err != nil {
			return res, fmt.Errorf("map of %d contacts: %w", n, err)
		}
		res.Maps = append(res.Maps, run)
		res.Data = append(res.Data, data)
	}
	slices.SortFunc(res.Maps, func(a, b *ListRun) int { return a.N - b.N })
	slices.SortFunc(res.Data, func(a, b *ListRun) int { return a.N - b.N })
	return res, nil
}

// dataMap is one terraform_data whose input is the map of mapListConfig:
// Terraform core's own cost of holding that value, with no provider.
func (b *Bench) dataMap(ctx context.Context, e *Emulator, n int) (*Workspace, *ListRun, error) {
	ws, err := b.workspace(fmt.Sprintf("largelists-data-%d", n), b.ListEnv...)
	if err != nil {
		return nil, nil, err
	}
	if err := ws.WriteConfig(dataMapConfig(n)); err != nil {
		return nil, nil, err
	}
	run := &ListRun{Subject: SubjectData, N: n}
	return ws, run, b.adopt(ctx, e, ws, run)
}

// fileList measures a file input of n rows against a preloaded list.
func (b *Bench) fileList(ctx context.Context, n int) (*ListRun, error) {
	e, err := StartEmulator(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer b.closeEmulator(e)
	listID, err := b.preload(ctx, e, n, func(i int) emulator.Contact { return CSVContact(i, 0) })
	if err != nil {
		return nil, err
	}
	ws, err := b.workspace(fmt.Sprintf("largelists-file-%d", n), b.ListEnv...)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(ws.Dir, "contacts.csv")
	run := &ListRun{Subject: "file", N: n}
	if run.Bytes, err = WriteCSVFileVersion(path, n, 0); err != nil {
		return nil, err
	}
	if err := ws.WriteConfig(fileProvider(e) + fileListConfig(listID, path)); err != nil {
		return nil, err
	}
	if err := b.adopt(ctx, e, ws, run); err != nil {
		return nil, err
	}
	for r := 0; r < b.Repeat; r++ {
		if err := b.timedPlan(ctx, e, ws, run, r); err != nil {
			return nil, err
		}
	}
	for r := 0; r < b.Repeat; r++ {
		// Versions 1, 0, 1, ...: each apply changes the same 1 % of rows.
		if _, err := WriteCSVFileVersion(path, n, 1-r%2); err != nil {
			return nil, err
		}
		b.logf("largelists file N=%d: apply of a 1%% change %d/%d", n, r+1, b.Repeat)
		before := e.Counts()
		got, err := ws.MustSucceed(ctx, 0, listApplyArgs...)
		if err != nil {
			return nil, err
		}
		run.Change = append(run.Change, got.Wall)
		run.ChangeRequests = e.Counts().Sub(before)
		run.PeakRSS = max(run.PeakRSS, got.ProviderPeakRSS)
	}
	if b.ListLatency > 0 {
		if err := b.latencyLeg(ctx, e, ws, run, fileProvider(e)+fileListConfig(listID, path)); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// latencyLeg plans the file list again with every answer of the emulator
// b.ListLatency later: Repeat times with the default settings, then once
// with max_requests_per_second = b.ListCap, whose peak rate is measured at
// the emulator (the most answers in any one second).
func (b *Bench) latencyLeg(ctx context.Context, e *Emulator, ws *Workspace, run *ListRun, config string) error {
	e.SetLatency(b.ListLatency)
	defer e.SetLatency(0)
	run.Latency = b.ListLatency
	for r := 0; r < b.Repeat; r++ {
		b.logf("largelists file N=%d: no-change plan with %s latency %d/%d", run.N, b.ListLatency, r+1, b.Repeat)
		got, err := ws.MustSucceed(ctx, 0, listPlanArgs...)
		if err != nil {
			return err
		}
		run.LatencyPlan = append(run.LatencyPlan, got.Wall)
		run.LatencyRSS = max(run.LatencyRSS, got.ProviderPeakRSS)
	}
	if b.ListCap <= 0 {
		return nil
	}
	capped := strings.Replace(config, "  batch_poll_interval", fmt.Sprintf("  max_requests_per_second = %d\n  batch_poll_interval", b.ListCap), 1)
	if err := ws.WriteConfig(capped); err != nil {
		return err
	}
	defer func() { _ = ws.WriteConfig(config) }() // the leg is the last of the list's runs
	b.logf("largelists file N=%d: no-change plan with %s latency and max_requests_per_second = %d", run.N, b.ListLatency, b.ListCap)
	start := time.Now()
	got, err := ws.MustSucceed(ctx, 0, listPlanArgs...)
	if err != nil {
		return err
	}
	run.Cap, run.CappedPlan = b.ListCap, got.Wall
	run.CappedPeakRate = PeakRate(e.Events(start), time.Second)
	return nil
}

// PeakRate is the most requests that arrived at the emulator in any window
// of length w: what a rate limit of the service would count.
func PeakRate(events []Event, w time.Duration) int {
	at := make([]time.Time, len(events))
	for i, ev := range events {
		at[i] = ev.Arrived
	}
	slices.SortFunc(at, time.Time.Compare)
	peak, first := 0, 0
	for i, t := range at {
		for t.Sub(at[first]) >= w {
			first++
		}
		peak = max(peak, i-first+1)
	}
	return peak
}

// mapAgainstContacts measures a map of n contacts and n rms_contact of
// another list in one emulator, their no-change plans interleaved so that
// a machine busy with other work slows both alike.
func (b *Bench) mapAgainstContacts(ctx context.Context, n int) ([]*ListRun, error) {
	e, mws, m, err := b.mapList(ctx, n)
	if err != nil {
		return nil, err
	}
	defer b.closeEmulator(e)
	listID, err := e.CreateList(ctx, "largelists-contacts")
	if err != nil {
		return nil, err
	}
	cws, err := b.workspace(fmt.Sprintf("largelists-contact-%d", n), b.ListEnv...)
	if err != nil {
		return nil, err
	}
	if err := cws.WriteConfig(contactsConfig(e, listID, n, 0, false)); err != nil {
		return nil, err
	}
	c := &ListRun{Subject: SubjectContact, N: n}
	if err := b.adopt(ctx, e, cws, c); err != nil {
		return nil, err
	}
	for r := 0; r < b.Repeat; r++ {
		order := []struct {
			ws  *Workspace
			run *ListRun
		}{{mws, m}, {cws, c}}
		if r%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, s := range order {
			if err := b.timedPlan(ctx, e, s.ws, s.run, r); err != nil {
				return nil, err
			}
		}
	}
	return []*ListRun{m, c}, nil
}

// mapList starts an emulator with a list of n contacts preloaded and a
// workspace whose map names them, and adopts it. The caller closes e.
func (b *Bench) mapList(ctx context.Context, n int) (*Emulator, *Workspace, *ListRun, error) {
	e, err := StartEmulator(emulator.Options{})
	if err != nil {
		return nil, nil, nil, err
	}
	listID, err := b.preload(ctx, e, n, mapContact)
	if err == nil {
		var ws *Workspace
		if ws, err = b.workspace(fmt.Sprintf("largelists-map-%d", n), b.ListEnv...); err == nil {
			if err = ws.WriteConfig(fileProvider(e) + mapListConfig(listID, n)); err == nil {
				run := &ListRun{Subject: "map", N: n}
				if err = b.adopt(ctx, e, ws, run); err == nil {
					return e, ws, run, nil
				}
			}
		}
	}
	_ = e.Close() // the error above is the one to report
	return nil, nil, nil, err
}

// preload makes a list holding contact(0..n-1), out of band.
func (b *Bench) preload(ctx context.Context, e *Emulator, n int, contact func(int) emulator.Contact) (string, error) {
	listID, err := e.CreateList(ctx, "largelists")
	if err != nil {
		return "", err
	}
	id, err := strconv.ParseInt(listID, 10, 64)
	if err != nil {
		return "", fmt.Errorf("list id %q: %w", listID, err)
	}
	b.logf("largelists: preloading %d contacts", n)
	contacts := make([]emulator.Contact, n)
	for i := range contacts {
		contacts[i] = contact(i)
	}
	return listID, e.Server.UpsertContacts(id, contacts)
}

// adopt runs the first apply of a workspace.
func (b *Bench) adopt(ctx context.Context, e *Emulator, ws *Workspace, run *ListRun) error {
	b.logf("largelists %s N=%d: first apply", run.Subject, run.N)
	before := e.Counts()
	got, err := ws.MustSucceed(ctx, 0, listApplyArgs...)
	if err != nil {
		return err
	}
	run.Adopt, run.AdoptRequests, run.ApplyCmd = got.Wall, e.Counts().Sub(before), got.Command()
	run.PeakRSS = max(run.PeakRSS, got.ProviderPeakRSS)
	return nil
}

// timedPlan runs one no-change plan, which must find nothing to do.
func (b *Bench) timedPlan(ctx context.Context, e *Emulator, ws *Workspace, run *ListRun, r int) error {
	b.logf("largelists %s N=%d: no-change plan %d/%d", run.Subject, run.N, r+1, b.Repeat)
	before := e.Counts()
	got, err := ws.MustSucceed(ctx, 0, listPlanArgs...)
	if err != nil {
		return err
	}
	run.Plan = append(run.Plan, got.Wall)
	run.PlanCPU = append(run.PlanCPU, got.ProviderCPU)
	run.PlanTotalCPU = append(run.PlanTotalCPU, got.TerraformCPU)
	run.PlanRequests, run.PlanCmd = e.Counts().Sub(before), got.Command()
	run.PlanRSS = max(run.PlanRSS, got.ProviderPeakRSS)
	run.PeakRSS = max(run.PeakRSS, got.ProviderPeakRSS)
	return nil
}

// mapContact is contact i of a map configuration, as contactsConfig has
// it (version 0), so the map and rms_contact hold the same values.
func mapContact(i int) emulator.Contact {
	n := strconv.Itoa(i)
	return emulator.Contact{OriginalID: "contact-" + n, Properties: map[string]string{
		"email": "contact-" + n + "@example.com", "firstname": "version 0",
	}}
}
