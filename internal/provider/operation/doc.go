// Package operation holds what a resource and an action both run: the list
// import (rms_list_import, rms_run_list_import, and rms_list_contacts'
// imports), the statistics export (rms_statistics_export,
// rms_run_statistics_export) and the transactional message send
// (rms_transactional_message, rms_send_transactional_message). Each is the
// calls to the service and the diagnostics of their failures, on the
// argument names the resource and the action share; a batch operation also
// declares its batch for internal/provider/batchcore.
//
// The arguments themselves (descriptions, validators, the model the
// resource and the action embed) stay in internal/provider (*_args.go), next
// to the guardrails and plan checks that read them. This package imports
// nothing of internal/provider but apidiag and batchcore: the resources and
// actions depend on it, never the other way.
package operation
