package provider

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The guardrail on mass unsubscription. An unsubscription is close to
// irreversible (nobody may subscribe a recipient again without their
// consent), and a REPLACE import removes contacts for good, so every plan
// that unsubscribes or drops contacts says how many and what share that is
// (of each channel's subscribers; of the whole list for a removal), and a
// plan above the limits fails before anything is written. The rule and its diagnostics live here; rms_list_contacts,
// rms_list_import and rms_run_list_import only count and call in.

const (
	attrMaxUnsubscribe        = "max_unsubscribe"
	attrMaxUnsubscribePercent = "max_unsubscribe_percent"

	// defaultMaxUnsubscribe and defaultMaxUnsubscribePercent protect a
	// user who set nothing without getting in the
	// way of small lists or small changes: a plan is held back only when
	// it touches more than 100 contacts AND more than 10 % of the list.
	defaultMaxUnsubscribe        = 100
	defaultMaxUnsubscribePercent = 10.0
)

// unsubscribeLimitArgs are the per-resource (or per-action) limits. They
// have no schema default: null means "not set here", so that the provider
// block's value, then the default, applies, and so that a destroy can tell
// whether the user set a limit at all.
type unsubscribeLimitArgs struct {
	MaxUnsubscribe        types.Int64   `tfsdk:"max_unsubscribe"`
	MaxUnsubscribePercent types.Float64 `tfsdk:"max_unsubscribe_percent"`
}

// limitsKnown reports whether both limits are known (an unknown one is
// known at apply, which checks again).
func (a unsubscribeLimitArgs) limitsKnown() bool {
	return !a.MaxUnsubscribe.IsUnknown() && !a.MaxUnsubscribePercent.IsUnknown()
}

// providerUnsubscribeLimits are the provider block's limits; nil is not set.
type providerUnsubscribeLimits struct {
	count   *int64
	percent *float64
}

func providerLimitsOf(cfg providerModel) providerUnsubscribeLimits {
	var l providerUnsubscribeLimits
	if !cfg.MaxUnsubscribe.IsNull() && !cfg.MaxUnsubscribe.IsUnknown() {
		v := cfg.MaxUnsubscribe.ValueInt64()
		l.count = &v
	}
	if !cfg.MaxUnsubscribePercent.IsNull() && !cfg.MaxUnsubscribePercent.IsUnknown() {
		v := cfg.MaxUnsubscribePercent.ValueFloat64()
		l.percent = &v
	}
	return l
}

// limitSource says where a limit in force comes from.
type limitSource int

const (
	fromDefault limitSource = iota
	fromProvider
	fromResource
)

// unsubscribeLimits are the limits in force for one plan.
type unsubscribeLimits struct {
	count         int64
	countFrom     limitSource
	percent       float64
	percentFrom   limitSource
	resourceScope string // "this resource", "this action": where fromResource was set
}

// resolveUnsubscribeLimits takes each limit from the resource, else from
// the provider block, else the default.
func resolveUnsubscribeLimits(res unsubscribeLimitArgs, prov providerUnsubscribeLimits, scope string) unsubscribeLimits {
	l := unsubscribeLimits{count: defaultMaxUnsubscribe, percent: defaultMaxUnsubscribePercent, resourceScope: scope}
	switch {
	case !res.MaxUnsubscribe.IsNull() && !res.MaxUnsubscribe.IsUnknown():
		l.count, l.countFrom = res.MaxUnsubscribe.ValueInt64(), fromResource
	case prov.count != nil:
		l.count, l.countFrom = *prov.count, fromProvider
	}
	switch {
	case !res.MaxUnsubscribePercent.IsNull() && !res.MaxUnsubscribePercent.IsUnknown():
		l.percent, l.percentFrom = res.MaxUnsubscribePercent.ValueFloat64(), fromResource
	case prov.percent != nil:
		l.percent, l.percentFrom = *prov.percent, fromProvider
	}
	return l
}

func (l unsubscribeLimits) sourceOf(s limitSource) string {
	switch s {
	case fromResource:
		return "set on " + l.resourceScope
	case fromProvider:
		return "set in the provider block"
	}
	return "the default"
}

// describe renders the limits in force, e.g. "max_unsubscribe = 100 (the
// default) and max_unsubscribe_percent = 10 (set in the provider block)".
func (l unsubscribeLimits) describe() string {
	return fmt.Sprintf("%s = %d (%s) and %s = %s (%s)", attrMaxUnsubscribe, l.count, l.sourceOf(l.countFrom),
		attrMaxUnsubscribePercent, formatPercent(l.percent), l.sourceOf(l.percentFrom))
}

// The counts and the rule are the core's (contactsync/unsubscribe_limits.go);
// the provider resolves the limits in force and says what a count means.
type (
	unsubscribeCount = contactsync.UnsubscribeCount
	channelShare     = contactsync.ChannelShare
)

// rule is the limits in force, as the core's rule reads them.
func (l unsubscribeLimits) rule() contactsync.Limits {
	return contactsync.Limits{Count: l.count, Percent: l.percent}
}

// exceeds is the core's rule on the limits in force.
func (l unsubscribeLimits) exceeds(c unsubscribeCount) bool { return l.rule().Exceeds(c) }

// verbOf says what a count does to its contacts.
func verbOf(c unsubscribeCount) string {
	if c.Removes {
		return "removes from the list for good"
	}
	return "unsubscribes"
}

// figuresOf names, per channel, the count and what its share is of, e.g.
// "150 of the 150 contacts subscribed to e-mail (100.0 %)".
func figuresOf(c unsubscribeCount) string {
	parts := make([]string, 0, len(c.Channels))
	for _, ch := range c.Channels {
		switch {
		case c.Removes:
			parts = append(parts, fmt.Sprintf("%d of the %d contacts of list %s (%s %%)", ch.Count, ch.Of, c.ListID, formatShare(ch.Share())))
		case c.NoStatuses:
			parts = append(parts, fmt.Sprintf("%d of the %d contacts on %s (%s %%)", ch.Count, ch.Of, ch.Channel, formatShare(ch.Share())))
		default:
			parts = append(parts, fmt.Sprintf("%d of the %d contacts subscribed to %s (%s %%)", ch.Count, ch.Of, ch.Channel, formatShare(ch.Share())))
		}
	}
	return strings.Join(parts, " and ")
}

// summaryOf is a count in one sentence, with the list's size.
func summaryOf(c unsubscribeCount) string {
	if c.Removes {
		return fmt.Sprintf("%s %s %s", c.What, verbOf(c), figuresOf(c))
	}
	s := fmt.Sprintf("%s %s %s; list %s holds %d contacts", c.What, verbOf(c), figuresOf(c), c.ListID, c.ListSize)
	if c.NoStatuses {
		s += " (the service shows no subscription statuses, so every contact counts as subscribed and each share is of all the list's contacts)"
	}
	return s
}

// shortOf is the count for a diagnostic's summary line, e.g. "e-mail 150
// (100.0 %), mobile 20 (13.3 %)".
func shortOf(c unsubscribeCount) string {
	parts := make([]string, 0, len(c.Channels))
	for _, ch := range c.Channels {
		if ch.Channel == "" {
			parts = append(parts, fmt.Sprintf("%d (%s %%)", ch.Count, formatShare(ch.Share())))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s %%)", ch.Channel, ch.Count, formatShare(ch.Share())))
	}
	return strings.Join(parts, ", ")
}

// guardTarget is where a held-back plan's error points and what it tells
// the user to change.
type guardTarget struct {
	// Attr is the attribute path of max_unsubscribe in a configuration;
	// nil for a destroy, which has none.
	Attr path.Path
	// Destroy: the per-resource limit comes from the state, so raising it
	// takes an apply before the destroy.
	Destroy bool
}

// checkUnsubscribeLimit warns with the count and share of every plan that
// unsubscribes or removes contacts, and fails a plan above the limits.
// It reports whether the plan may go on.
func checkUnsubscribeLimit(diags *diag.Diagnostics, c unsubscribeCount, l unsubscribeLimits, t guardTarget) bool {
	if c.Total() == 0 {
		return true
	}
	if !l.exceeds(c) {
		diags.AddWarning(fmt.Sprintf("Contacts of list %s to %s: %s", c.ListID, map[bool]string{true: "remove", false: "unsubscribe"}[c.Removes], shortOf(c)),
			fmt.Sprintf("This plan: %s. It is within the limits in force (%s; a plan is held back only above both). Counts can change between plan and apply: the apply checks again before it writes.",
				summaryOf(c), l.describe()))
		return true
	}
	count, share := c.Worst()
	allow := fmt.Sprintf("`%s = %d` or `%s = %s`", attrMaxUnsubscribe, count, attrMaxUnsubscribePercent, formatPercent(math.Ceil(share*10)/10))
	var where string
	switch {
	case t.Destroy:
		where = fmt.Sprintf("A destroy has no configuration: set %s in the provider block, or on this resource and apply once before destroying (a destroy reads the resource's limits from the state). "+
			"To keep a list from ever being emptied by a destroy, use `lifecycle { prevent_destroy = true }`.", allow)
	default:
		where = fmt.Sprintf("If this is intended, set %s on %s (or in the provider block, for every resource) and plan again.", allow, l.resourceScope)
	}
	detail := fmt.Sprintf("Mass unsubscription held back: %s, above the limits in force: %s. A plan is held back when, on e-mail or on mobile, it unsubscribes more than max_unsubscribe contacts and more than max_unsubscribe_percent of the contacts subscribed there (a REPLACE import: of all the list's contacts). Nothing was written.\n\n%s",
		summaryOf(c), l.describe(), where)
	summary := "Too many contacts to " + map[bool]string{true: "remove", false: "unsubscribe"}[c.Removes]
	if len(t.Attr.Steps()) == 0 {
		diags.AddError(summary, detail)
	} else {
		diags.AddAttributeError(t.Attr, summary, detail)
	}
	return false
}

// warnUncounted says a plan cannot count what it will unsubscribe, and that
// the apply checks before it writes.
func warnUncounted(diags *diag.Diagnostics, what, why string) {
	diags.AddWarning("Unsubscriptions not counted",
		fmt.Sprintf("%s may unsubscribe or remove contacts, but this plan cannot count them: %s. The apply counts them and checks %s and %s before it writes anything.",
			what, why, attrMaxUnsubscribe, attrMaxUnsubscribePercent))
}

// formatShare renders a share with one decimal, as in "45.0".
func formatShare(p float64) string { return strconv.FormatFloat(p, 'f', 1, 64) }

// formatPercent renders a limit the way a user would write it: "10", "12.5".
func formatPercent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
