// Package dynamic converts between terraform-plugin-framework values (what a
// dynamic attribute such as rms_resource.body holds) and JSON values as
// encoding/json decodes them with UseNumber, exactly: numbers keep their
// precision, lists, sets and maps keep their type where a prior value hints
// at it. It also projects a JSON value onto the shape of a prior one and
// merges a planned object over a read one, for bodies of managed entities.
//
// It is a leaf: it imports nothing of this module. The provider calls it;
// it knows no resource, no client and no HTTP.
package dynamic
