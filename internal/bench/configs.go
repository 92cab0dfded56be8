package bench

import (
	"fmt"
	"strings"
)

// The configurations measured. Each has N instances of one resource (with
// count, the same for every subject, so Terraform's own work is alike) and
// a version: 0 to create, 1 for an update of every instance in place.

func header(e *Emulator) string {
	if e == nil {
		return ""
	}
	return providerHeader(e, "")
}

// providerHeader is the terraform block and the provider block that reaches
// e, with extra (whole lines of further provider arguments) added.
func providerHeader(e *Emulator, extra string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    rms = { source = "rms-labs/rms" }
  }
}

provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
  password    = %q
%s}
`, e.URL, e.CustomerID, e.Username, e.Password, extra)
}

func projectsConfig(e *Emulator, n, version int) string {
	return header(e) + fmt.Sprintf(`
resource "rms_project" "p" {
  count       = %d
  name        = "bench-project-${count.index}"
  description = "version %d"
}
`, n, version)
}

func listsConfig(e *Emulator, n, version int) string {
	return header(e) + fmt.Sprintf(`
resource "rms_list" "l" {
  count       = %d
  name        = "bench-list-${count.index}"
  description = "version %d"
  # Measures the list's own calls: a protected list's destroy first lists
  # its contacts, once at plan and once at apply.
  deletion_protection = false
}
`, n, version)
}

// contactsConfig manages n contacts of one list. Without statuses, version
// 1 changes a property; with statuses, version 0 unsubscribes both (so a
// create must set a status the service does not start with) and version 1
// re-subscribes e-mail, a status-only update.
func contactsConfig(e *Emulator, listID string, n, version int, statuses bool) string {
	var b strings.Builder
	b.WriteString(header(e))
	fmt.Fprintf(&b, `
resource "rms_contact" "c" {
  count       = %d
  list_id     = %q
  original_id = "contact-${count.index}"
  properties = {
    email     = "contact-${count.index}@example.com"
    firstname = "%s"
  }
`, n, listID, map[bool]string{false: "version " + fmt.Sprint(version), true: "Ada"}[statuses])
	if statuses {
		email := map[int]string{0: "UNSUBSCRIBED", 1: "SUBSCRIBED"}[version]
		fmt.Fprintf(&b, "  email_status  = %q\n  mobile_status = \"UNSUBSCRIBED\"\n", email)
	}
	b.WriteString("}\n")
	return b.String()
}

// dataConfig is n terraform_data resources with an input the size of a
// contact's: Terraform's own cost for n resources, with no provider process.
func dataConfig(n, version int) string {
	return fmt.Sprintf(`
resource "terraform_data" "d" {
  count = %d
  input = {
    email     = "contact-${count.index}@example.com"
    firstname = "version %d"
  }
}
`, n, version)
}

// fileListConfig is an rms_list_contacts of the CSV file at path (the
// columns of WriteCSV; identity column originalId).
func fileListConfig(listID, path string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "f" {
  list_id     = %q
  source_file = %q
}
`, listID, path)
}

// mapListConfig is an rms_list_contacts whose map names n contacts with
// the values contactsConfig gives n rms_contact (version 0). It is written
// out key by key, as a generated configuration would be: Terraform's range
// stops at 1,024 elements.
func mapListConfig(listID string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nresource \"rms_list_contacts\" \"m\" {\n  list_id = %q\n  contacts = {\n", listID)
	writeContactsMap(&b, n)
	b.WriteString("  }\n}\n")
	return b.String()
}

// dataMapConfig is one terraform_data whose input is the contacts map of
// mapListConfig, written the same way.
func dataMapConfig(n int) string {
	var b strings.Builder
	b.WriteString("\nresource \"terraform_data\" \"m\" {\n  input = {\n")
	writeContactsMap(&b, n)
	b.WriteString("  }\n}\n")
	return b.String()
}

// writeContactsMap writes the entries of a map of n contacts (mapContact).
func writeContactsMap(b *strings.Builder, n int) {
	for i := 0; i < n; i++ {
		c := mapContact(i)
		fmt.Fprintf(b, "    %q = { properties = { email = %q, firstname = %q } }\n", c.OriginalID, c.Properties["email"], c.Properties["firstname"])
	}
}
