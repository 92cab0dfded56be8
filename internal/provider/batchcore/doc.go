// Package batchcore is what every batch of the provider shares: the part of
// a batch resource's state that records its batch (Model), the schema
// fragment and timeouts that show it, and the wait on the provider's poll
// schedule with one way of explaining a wait cut short. The resources and
// actions that start a batch (rms_list_import, rms_statistics_export,
// rms_list_contacts and the batch actions) and the operations of
// internal/provider/operation build on it; it knows none of them, and
// imports nothing of internal/provider but apidiag.
package batchcore
