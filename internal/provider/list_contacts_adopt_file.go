package provider

import "fmt"

// sourceFileWriters says how to write the source_file of an adopted list
// too large for a map: the rms_export_list_contacts_csv action (Terraform
// 1.14+) or the contacts_csv function over the rms_contacts data source
// (1.11+), each with the lines to write. Both write the same bytes, which
// plan no change once the import is applied; the data source and its
// output go before that apply, so that it is the last one.
func sourceFileWriters(listID string) string {
	return fmt.Sprintf("On Terraform 1.14+, the rms_export_list_contacts_csv action writes it from the service:\n\n"+
		"  action \"rms_export_list_contacts_csv\" \"list_%[1]s\" {\n    config {\n      list_id     = %[1]q\n      output_path = \"${path.module}/list-%[1]s.csv\"\n    }\n  }\n\n"+
		"  terraform apply -invoke=action.rms_export_list_contacts_csv.list_%[1]s\n\n"+
		"On Terraform 1.11+, the provider::rms::contacts_csv function renders it from the rms_contacts data source; with source_file set as above, read the data source alone and write the output to the file:\n\n"+
		"  data \"rms_contacts\" \"list_%[1]s\" {\n    list_id = %[1]q\n  }\n"+
		"  output \"list_%[1]s_csv\" {\n    value = provider::rms::contacts_csv(data.rms_contacts.list_%[1]s.contacts)\n  }\n\n"+
		"  terraform apply -target=data.rms_contacts.list_%[1]s\n"+
		"  terraform output -raw list_%[1]s_csv > list-%[1]s.csv\n\n"+
		"Then remove the data source and the output before the apply that imports the list: removed after it, the output's removal is a change that needs another apply. "+
		"The guide \"Bring an existing account under Terraform\" walks through it.", listID)
}
