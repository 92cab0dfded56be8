package contactsync

import (
	"context"
	"fmt"
	"io"
	"maps"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The ordered steps of an apply of a list's contacts (rms_list_contacts).
// The order is what keeps every opt-out: the consent record is settled by
// a fresh listing before anything is decided, opt-outs are copied to the
// suppression list before anything else is written, and Terraform's own
// unsubscriptions are recorded before they are made, so that an apply cut
// short at any step leaves a record the next apply can trust. The provider
// maps its plan and state in (ApplyInput) and the outcome out; the reads
// and writes go through ListPort.

// ListPort is what an apply reads and writes through. A method that
// returns an error has already reported it to the user (the provider turns
// it into diagnostics); the apply stops there.
type ListPort interface {
	// Desired reads the contacts the input wants: a source file, or the
	// map of the configuration. An error: the input is refused (bad input
	// is refused before anything is written).
	Desired(ctx context.Context) (*Book, error)
	// FinalPlanListing takes the listing the final plan of this apply made
	// of the list for this input, if it made one (taken: it serves once).
	FinalPlanListing() (Snapshot, bool)
	// Resume waits for a batch an earlier apply stopped waiting for. A batch
	// the service failed is reported and is no error: the listing that
	// follows shows what it did not do.
	Resume(ctx context.Context, batchID string) error
	// List reads the list's contacts, for the book desired.
	List(ctx context.Context, desired *Book) (*ServiceList, error)
	// ReadBack reads the list again after its import batches.
	ReadBack(ctx context.Context, desired *Book) (*ServiceList, error)
	// ReadSuppression reads the suppression list the input names: what it
	// holds (nil without one).
	ReadSuppression(ctx context.Context) (SuppressedFunc, error)
	// RecordOptOuts writes the opt-outs decided into the suppression list:
	// the channels it does not hold yet, with each contact's e-mail and
	// mobile values (Run.CompleteOptOuts).
	RecordOptOuts(ctx context.Context, desired *Book, service *ServiceList, decided []OptOutDecision) error
	// Import runs one import batch of the rows write writes and waits for
	// it; started sees the batch id as soon as there is one. confirmed is
	// false when the batch did not report every row done. An error: the
	// wait was cut short or the batch failed.
	Import(ctx context.Context, action string, write func(io.Writer) error, started func(batchID string)) (confirmed bool, err error)
	// Write makes changes (single calls; by import rows what a URL path
	// cannot carry) and returns the ids whose write failed. An error: a
	// batch wait was cut short.
	Write(ctx context.Context, changes []Change, started func(batchID string)) (failed map[string]bool, err error)
	// SavePending keeps the ids of batches not seen finish, as soon as one
	// starts, so that a later apply resumes them.
	SavePending(ctx context.Context, batchIDs []string)
}

// ApplyInput is what an apply starts from.
type ApplyInput struct {
	ListID   string
	Creating bool
	File     bool // the input is a source file
	// Source is how a source file is read (File), and PlannedDigest the
	// SHA-256 of its contacts the plan saw ("": the plan could not read
	// it, or the input is a map).
	Source        FileOptions
	PlannedDigest string
	Rules         InputRules
	// Record and Pending are what earlier applies left: the consent record
	// and the batches not seen finish.
	Record  Record
	Pending []string
	// BatchThreshold: more changes than this go by import batches.
	BatchThreshold int64
	// Exclusive is what the apply holds exclusive to (apply_guard.go).
	Exclusive ExclusiveGuard
	// Released and Provenance are the run's (nil in tests without them).
	Released   *Released
	Provenance *Provenance
	Log        client.Logger
}

// ApplyEnd is how an apply ended.
type ApplyEnd int

const (
	// ApplyDone is an apply that wrote every change.
	ApplyDone ApplyEnd = iota
	// ApplyStopped is an apply a failed step or a guardrail stopped: the
	// rest was not written.
	ApplyStopped
	// ApplyCutShort is an apply whose wait for a batch ended early, or
	// whose batch failed: Pending holds the batches a later apply resumes.
	ApplyCutShort
)

// ApplyOutcome is what an apply leaves.
type ApplyOutcome struct {
	End ApplyEnd
	Err error
	// Record is the consent record the apply leaves, Pending the batches
	// not seen finish.
	Record  Record
	Pending []string
	// Wrote: the apply started writing to the service.
	Wrote bool
	// Planned is the first diff, against a listing of PlannedOf contacts
	// (nil when the apply stopped before it).
	Planned   *Diff
	PlannedOf int
	// Finished: every write was attempted (some may have failed); Diff is
	// what was written, Service and Desired the listing and book it was
	// made from, Settled the record as it stood before the writes.
	// Honoured are the opt-outs the apply kept that the record did not
	// hold before this apply's listing, so the plan could not name them
	// (opted out since the plan, or a plan whose refresh was skipped).
	Finished bool
	Diff     Diff
	Service  *ServiceList
	Desired  *Book
	Settled  Record
	Honoured []string
	// LeftAsTheyAre are the contacts that moved on since the plan, which
	// the apply left as they are (apply_moved.go).
	LeftAsTheyAre []string
}

// Apply runs the ordered steps of an apply of a list's contacts.
func Apply(ctx context.Context, input ApplyInput, port ListPort) ApplyOutcome {
	a := &applyRun{in: input, port: port, log: input.Log}
	a.out.Record, a.out.Pending = input.Record, input.Pending
	if a.log == nil {
		a.log = discard{}
	}
	a.run(ctx)
	a.out.Desired, a.out.Service = a.desired, a.service
	if a.out.Finished {
		fresh, _ := NewOptOuts(a.out.Diff, a.seen, a.out.Record)
		a.out.Honoured = fresh.OptedOut
	}
	return a.out
}

// applyRun is one apply as it goes.
type applyRun struct {
	in      ApplyInput
	port    ListPort
	log     client.Logger
	desired *Book
	service *ServiceList
	// held is the final plan's listing, when it serves this apply; moved
	// the contacts that moved on since the plan's refresh.
	held  *Snapshot
	moved Moved
	// seen are the opt-outs the record held before this apply's listing.
	seen map[string][2]bool
	opts Options
	out  ApplyOutcome
}

func (a *applyRun) run(ctx context.Context) {
	if !a.read(ctx) || !a.resume(ctx) || !a.list(ctx) {
		return
	}
	a.settle()
	diff, ok := a.decide(ctx)
	if !ok {
		return
	}
	a.noteBeforeWrites(diff)
	diff, ok = a.importBatches(ctx, diff)
	if !ok {
		return
	}
	failed, err := a.port.Write(ctx, diff.List(), a.started(ctx))
	if err != nil {
		a.end(ApplyCutShort, err)
		return
	}
	a.out.Pending = nil
	a.out.Finished, a.out.Diff = true, diff
	a.finish(diff, failed)
}

// resume waits for the batches an earlier apply stopped waiting for: a
// second import of the same rows must not run beside them.
func (a *applyRun) resume(ctx context.Context) bool {
	for len(a.out.Pending) > 0 {
		if err := a.port.Resume(ctx, a.out.Pending[0]); err != nil {
			a.end(ApplyCutShort, err)
			return false
		}
		a.out.Pending = a.out.Pending[1:]
	}
	return true
}

// read reads the input and refuses, before anything is written, a source
// file whose contacts changed since the plan: the apply would write
// contacts nobody reviewed (and Terraform would report the new digest as
// an inconsistent result). It then takes the final plan's listing, which
// is held for this apply only.
func (a *applyRun) read(ctx context.Context) bool {
	desired, err := a.port.Desired(ctx)
	if err != nil {
		a.end(ApplyStopped, err)
		return false
	}
	a.desired = desired
	if a.in.File && a.in.PlannedDigest != "" {
		if got := DesiredDigest(desired); got != a.in.PlannedDigest {
			a.end(ApplyStopped, &SourceChangedError{Path: a.in.Source.Path, Planned: a.in.PlannedDigest, Got: got})
			return false
		}
	}
	if snap, ok := a.port.FinalPlanListing(); ok {
		a.moved = snap.Moved
		if book, serves := a.heldBook(snap); serves {
			a.held, a.desired = &snap, book
		}
	}
	return true
}

// heldBook is the book the final plan's listing is compared with, if the
// listing serves the apply: an update that resumes no batch (batches
// change the list), of the same input. For a map it is the input itself;
// for a file, the book the listing was held against (the same contacts:
// the same digest, read the same way).
func (a *applyRun) heldBook(snap Snapshot) (*Book, bool) {
	if a.in.Creating || len(a.in.Pending) > 0 {
		return nil, false
	}
	if !a.in.File {
		return a.desired, snap.Service.Comparable(a.desired)
	}
	book := snap.Service.Book()
	if book == nil || snap.File != a.in.Source || DesiredDigest(book) != DesiredDigest(a.desired) {
		return nil, false
	}
	return book, true
}

// SourceChangedError is a source file whose contacts changed after the
// plan: the apply refuses it before it writes anything.
type SourceChangedError struct {
	Path, Planned, Got string
}

func (e *SourceChangedError) Error() string {
	return fmt.Sprintf("%s changed after the plan was made (the SHA-256 of its contacts is %s, the plan has %s); nothing was written. Plan and apply again", e.Path, e.Got, e.Planned)
}

// list takes the final plan's listing, or lists.
func (a *applyRun) list(ctx context.Context) bool {
	if a.held != nil {
		a.service = a.held.Service
		return true
	}
	service, err := a.port.List(ctx, a.desired)
	if err != nil {
		a.end(ApplyStopped, err)
		return false
	}
	a.service = service
	return true
}

// settle settles the consent record by the listing: what Terraform did,
// what recipients did, and, for a create, what this run's destroy of the
// list released.
func (a *applyRun) settle() {
	rec := &a.out.Record
	rec.Prune(a.service)
	a.seen = maps.Clone(rec.OptedOut)
	if a.in.Creating {
		// Before the opt-outs are noted: what this run's destroy
		// unsubscribed is Terraform's own, not the recipients'.
		takeReleased(a.in.Released, a.in.ListID, a.service, rec)
	}
	rec.NoteOptOuts(a.desired, a.service, a.in.File)
}

// decide compares the input with the listing and lets the guardrail and
// the suppression list have their say before anything is written: the
// core decides what is refused and which opt-outs are recorded, the port
// only reads and writes.
func (a *applyRun) decide(ctx context.Context) (Diff, bool) {
	rec := a.out.Record
	a.opts = a.in.Rules.Options(rec)
	a.opts.Restore = rec.Restore
	a.opts.KeptOptOuts = rec.KeptOptOuts()
	suppressed, err := a.port.ReadSuppression(ctx)
	if err != nil {
		a.end(ApplyStopped, err)
		return Diff{}, false
	}
	a.opts.Suppressed = suppressed
	diff := a.leaveMoved(Compare(a.desired, a.service, a.opts))
	a.out.Planned, a.out.PlannedOf = &diff, a.service.Len()
	add, change, unsub := diff.Counts()
	a.log.Info(ctx, "list contacts: changes to write", map[string]any{"list_id": a.in.ListID, "add": add, "change": change, "unsubscribe": unsub, "opted_out": len(diff.OptedOut)})
	if refusal := guardExclusive(a.in.Exclusive, a.in.ListID, a.in.File, a.desired, a.service, diff); refusal != nil {
		a.end(ApplyStopped, refusal) // nothing written: no release recorded
		return Diff{}, false
	}
	// Opt-outs are copied into the suppression list before anything else
	// is written: a failure then leaves the list as it was. Only the
	// recipients' own enter it, never Terraform's.
	if suppressed != nil {
		if decided := RecipientOptOuts(a.desired, a.service, rec.Lookup); len(decided) > 0 {
			if err := a.port.RecordOptOuts(ctx, a.desired, a.service, decided); err != nil {
				a.end(ApplyStopped, err)
				return Diff{}, false
			}
		}
	}
	return diff, true
}

// noteBeforeWrites records Terraform's own unsubscriptions once the
// guardrails let the apply go on and before they are made, so that an
// apply cut short mid-way still knows them (Prune settles them by what the
// service shows afterwards, channel by channel); the unsubscriptions the
// input asks for are noted pending the same way, so that an input changed
// back before the next apply re-subscribes them instead of taking them for
// opt-outs.
func (a *applyRun) noteBeforeWrites(diff Diff) {
	for ch := range diff.All() {
		if ch.Unsubscribe {
			s, _ := a.service.Get(ch.ID)
			a.out.Record.Release(ch.ID, s)
		} else {
			a.out.Record.MarkPending(ch.ID, ch.Status)
		}
	}
	a.out.Wrote = diff.Len() > 0
}

// started keeps a batch id as soon as the batch exists.
func (a *applyRun) started(ctx context.Context) func(string) {
	return func(id string) {
		a.out.Pending = append(a.out.Pending, id)
		a.port.SavePending(ctx, a.out.Pending)
	}
}
