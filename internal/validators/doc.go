// Package validators holds the generic attribute validators of the provider:
// each checks one attribute's own value, at plan time, against a rule that
// does not depend on which resource the attribute belongs to (one of a set
// of values, a positive duration, a delimiter the service takes). Validators
// that read other attributes, or that word a rule of one resource, stay
// beside that resource in internal/provider.
//
// It is a leaf: of this module it imports internal/client only, for the
// interface's own rules (client.DelimiterCode), never internal/provider or
// anything else above it.
package validators
