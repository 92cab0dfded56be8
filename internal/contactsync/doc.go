// Package contactsync is the contact sync core: what rms_contact and
// rms_list_contacts decide and read, without Terraform. It owns the consent
// rule (an opt-out made outside Terraform is never undone silently), the
// comparison of the desired contacts with a listing of the list and its
// digests, the consent record kept in private state and the ordered steps
// of an apply of a list's contacts that keep it true (Apply), the CSV source file
// reader (encodings, delimiters, header checks) and the files of the import
// batches, the attribute name/id cache, the listings of a list's contacts,
// and one Run per provider run that holds what those share.
//
// It depends on internal/client and the standard library (and
// golang.org/x/text for encodings) only. The provider depends on it and
// adapts it onto Terraform: schema, state mapping, private state and
// diagnostics stay there. Never import terraform-plugin-*, internal/provider,
// internal/acctest, internal/emulator, internal/bench or internal/protocol
// here (depguard rule contactsync-has-no-terraform); its tests may serve the
// emulator.
package contactsync
