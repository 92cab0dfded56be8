package provider

import (
	"fmt"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// optOutNotice describes, for a plan or an apply warning, the contacts the
// service shows UNSUBSCRIBED where the configuration says SUBSCRIBED and
// whose unsubscription Terraform has no record of making. For a resource
// that is (or was) exclusive that is not always the recipient's doing: an
// exclusive apply killed in the middle (SIGKILL, a runner that vanished)
// returns nothing to Terraform, so the record of the unsubscriptions it
// made is lost with it. The provider cannot tell the two apart; it keeps
// them unsubscribed (the fail-safe way) and says how to bring back the
// ones Terraform unsubscribed, contact by contact.
func optOutNotice(ids []string, exclusive bool, outcome string) string {
	named := firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids))
	if !exclusive {
		return fmt.Sprintf("%d opted out outside Terraform and %s though the configuration says SUBSCRIBED (set allow_resubscribe only if they agreed): %s",
			len(ids), outcome, named)
	}
	return fmt.Sprintf("%d are UNSUBSCRIBED though the configuration says SUBSCRIBED, and %s: %s. "+
		"Each opted out outside Terraform, or was unsubscribed by an exclusive apply of this resource that was killed before it could record its work (SIGKILL, a runner that vanished); the provider cannot tell which. "+
		"To bring back only those Terraform unsubscribed, name them in allow_resubscribe_ids and apply once; set allow_resubscribe only if every one of them agreed",
		len(ids), outcome, named)
}

// exclusiveEver reports whether the resource is exclusive in the plan or
// was in the prior state (nil for a create).
func exclusiveEver(plan listContactsModel, prior *listContactsModel) bool {
	return plan.Exclusive.ValueBool() || (prior != nil && prior.Exclusive.ValueBool())
}
