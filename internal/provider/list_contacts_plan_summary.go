package provider

import (
	"fmt"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The plan of rms_list_contacts speaks to the person who approves it: one
// warning per list says what happens to how many people, by kind, with the
// first ids of each. Terraform's own diff cannot: a file input shows only
// digests, and a map's per-key diff does not say who stops receiving mail.

// changeKind is one kind of change to people: how many, and the first ids.
type changeKind struct {
	label string
	n     int
	first []string
}

func (k *changeKind) add(id string) {
	k.n++
	if len(k.first) < contactsync.MaxNamedInWarning {
		k.first = append(k.first, id)
	}
}

func (k changeKind) String() string {
	return fmt.Sprintf("%d %s: %s", k.n, k.label, firstNames(k.first, k.n))
}

// changeKindSet are the kinds of change the warning prints, in its order.
type changeKindSet struct {
	create, subscribe, unsubscribe, suppressed, exclusive, properties changeKind
}

func newChangeKindSet() changeKindSet {
	return changeKindSet{
		create:      changeKind{label: "to create (new to the list)"},
		subscribe:   changeKind{label: "to subscribe (e-mail or mobile), as the input says"},
		unsubscribe: changeKind{label: "to unsubscribe (e-mail or mobile), as the input says"},
		suppressed:  changeKind{label: "to unsubscribe on a channel the suppression list holds them on (they opted out account-wide)"},
		exclusive:   changeKind{label: "to unsubscribe from e-mail and mobile because the input does not name them (exclusive = true; the interface cannot delete a contact, so they stay in the list; the apply unsubscribes nobody this plan did not count)"},
		properties:  changeKind{label: "with properties to change"},
	}
}

// changeKinds sorts a diff's changes by what they do to people (walked by
// tallyChanges, which also counts planned_changes). A contact can be of
// several kinds (its properties change and it is subscribed).
func changeKinds(diff contactsync.Diff) []changeKind {
	kinds, _ := tallyChanges(diff)
	var out []changeKind
	for _, k := range []changeKind{kinds.create, kinds.subscribe, kinds.unsubscribe, kinds.suppressed, kinds.exclusive, kinds.properties} {
		if k.n > 0 {
			out = append(out, k)
		}
	}
	return out
}

// planSummary is the warning a plan of list listID carries: its title and
// text, "" when the plan changes nobody and keeps no opt-out. A plan that
// only keeps opt-outs is titled as what it is, not as a change.
func planSummary(listID string, diff contactsync.Diff, exclusive bool) (title, msg string) {
	var parts []string
	for _, k := range changeKinds(diff) {
		parts = append(parts, k.String())
	}
	changes := len(parts)
	if len(diff.Rejoined) > 0 {
		parts = append(parts, rejoinedNotice(diff.Rejoined))
	}
	if len(diff.OptedOut) > 0 {
		parts = append(parts, optOutNotice(diff.OptedOut, exclusive, "stay unsubscribed"))
	}
	switch {
	case len(parts) == 0:
		return "", ""
	case changes == 0:
		title = "Opt-outs kept in list " + listID
	default:
		title = "Changes to the contacts of list " + listID
	}
	return title, "Contacts " + strings.Join(parts, ";\n") + "."
}
