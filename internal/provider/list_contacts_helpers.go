package provider

// The concerns of rms_list_contacts beside its CRUD, each a small type
// over the provider's data, so that the resource type holds the
// framework's methods and the order of its own steps only.

// listReader reads what a plan, an apply and a refresh compare: the input
// (a map or a file) and the listings of the list.
type listReader struct{ data *providerData }

func listReaderOf(data *providerData) listReader { return listReader{data: data} }

// listGuard holds back unsubscriptions above the limits, and exclusive on
// a list it cannot count (list_contacts_resource_guardrail.go).
type listGuard struct{ data *providerData }

func listGuardOf(data *providerData) listGuard { return listGuard{data: data} }

// listSuppression reads the suppression list and copies opt-outs into it
// (list_contacts_suppression.go).
type listSuppression struct{ data *providerData }

func listSuppressionOf(data *providerData) listSuppression { return listSuppression{data: data} }

// listTakeover carries consent across the two halves of a replacement
// (list_contacts_takeover.go).
type listTakeover struct{ data *providerData }

func listTakeoverOf(data *providerData) listTakeover { return listTakeover{data: data} }
