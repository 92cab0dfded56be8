package contactsync

import (
	"bytes"
	"encoding/csv"
	"io"
	"iter"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// ImportPlan splits changes for the batches: how many rows the ADD
// import has (WriteAddImport writes them from the changes themselves, so
// that a first apply of a million contacts holds no second copy), and the
// ids of the UNSUBSCRIBE import.
func ImportPlan(changes iter.Seq[Change]) (addRows int, unsubscribe []string) {
	for ch := range changes {
		if _, ok := addRow(ch); ok {
			addRows++
		}
		switch {
		case ch.Unsubscribe:
			// The import unsubscribes e-mail: a contact whose e-mail is
			// unsubscribed already needs only its mobile call.
			if ch.Status == (client.SubscriptionStatus{}) || ch.Status.Status == client.StatusUnsubscribed {
				unsubscribe = append(unsubscribe, ch.ID)
			}
		case ch.Create:
		case ch.Status.Status == client.StatusUnsubscribed:
			unsubscribe = append(unsubscribe, ch.ID)
		}
	}
	return addRows, unsubscribe
}

// addRow is the row a change makes in the ADD import, if any: a create
// (unless it must start unsubscribed: a single call), or an update's
// values (its statuses go otherwise).
func addRow(ch Change) (Change, bool) {
	switch {
	case ch.Unsubscribe:
		return Change{}, false
	case ch.Create:
		return ch, ch.Status.Status != client.StatusUnsubscribed && ch.Status.MobileStatus != client.StatusUnsubscribed
	default:
		return Change{ID: ch.ID, Set: ch.Set}, len(ch.Set) > 0
	}
}

// CreatedBy are the contacts the ADD import of changes creates.
func CreatedBy(changes iter.Seq[Change]) map[string]bool {
	created := map[string]bool{}
	for ch := range changes {
		if row, ok := addRow(ch); ok && row.Create {
			created[ch.ID] = true
		}
	}
	return created
}

// WriteAddImport writes the file of the ADD import of changes (addRow): an
// originalId column and one column per attribute set, an empty cell where a
// contact's value is not to change (an ADD import merges only non-empty
// cells).
func WriteAddImport(w io.Writer, changes iter.Seq[Change]) error {
	colSet := map[string]bool{}
	for c := range changes {
		if c, ok := addRow(c); ok {
			c.eachValue(func(k, _ string) { colSet[k] = true })
		}
	}
	cols := SortedKeys(colSet)
	at := make(map[string]int, len(cols))
	for i, k := range cols {
		at[k] = i + 1
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"originalId"}, cols...)); err != nil {
		return err
	}
	rec := make([]string, len(cols)+1)
	for c := range changes {
		c, ok := addRow(c)
		if !ok {
			continue
		}
		clear(rec)
		rec[0] = c.ID
		c.eachValue(func(k, v string) { rec[at[k]] = v })
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteUnsubscribeImport writes the file of an UNSUBSCRIBE import.
func WriteUnsubscribeImport(w io.Writer, ids []string) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write([]string{"originalId"}); err != nil {
		return err
	}
	for _, id := range ids {
		if err := cw.Write([]string{id}); err != nil {
			return err
		}
		if b.Len() > 64<<10 {
			cw.Flush()
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// AfterImports are the changes left for single calls once the imports of
// ImportPlan(changes) have done everything they were asked to: what a
// listing read back after them would show still to do, without that
// listing (a million-contact list costs a thousand pages). needRead is true
// where no such reckoning is sound: a contact the ADD import created with a
// status the input sets starts in whatever state the service gives a new
// contact, which only a listing shows. A batch that did not report every
// row done needs the listing too; the caller knows that.
func AfterImports(changes iter.Seq[Change]) (left []Change, needRead bool) {
	for ch := range changes {
		switch {
		case ch.Unsubscribe:
			// The UNSUBSCRIBE import did e-mail where ImportPlan gave it
			// the contact; mobile goes by a single call.
			if ch.Status == (client.SubscriptionStatus{}) {
				ch.Status = client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusUnsubscribed}
			}
			if ch.Status.MobileStatus != "" {
				left = append(left, Change{ID: ch.ID, Unsubscribe: true, Status: client.SubscriptionStatus{MobileStatus: ch.Status.MobileStatus}})
			}
		case ch.Create:
			if ch.Status.Status == client.StatusUnsubscribed || ch.Status.MobileStatus == client.StatusUnsubscribed {
				left = append(left, ch) // created by a single call, unsubscribed from the start
				continue
			}
			if ch.Status != (client.SubscriptionStatus{}) {
				needRead = true
			}
		default:
			rest := Change{ID: ch.ID, Remove: ch.Remove, Status: ch.Status}
			if rest.Status.Status == client.StatusUnsubscribed {
				rest.Status.Status = "" // the UNSUBSCRIBE import did it
			}
			if !rest.Empty() {
				left = append(left, rest)
			}
		}
	}
	return left, needRead
}
