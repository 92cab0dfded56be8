package emulator

// How GET .../lists/{listId}/imports shows an import.

import (
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// importView is an import as GET .../lists/{listId}/imports shows it: ids
// as strings (as step 1 answers them), the request fields as the service
// holds them (delimiter as its decimal code; identityColumn null when the
// request left it out), and batchId null until the file was uploaded.
type importView struct {
	ID             string  `json:"id"`
	ListID         string  `json:"listId"`
	Delimiter      string  `json:"delimiter"`
	Encoding       string  `json:"encoding"`
	Type           string  `json:"type"`
	IdentityColumn *string `json:"identityColumn"`
	DateCreated    string  `json:"dateCreated"`
	BatchID        *string `json:"batchId"`
}

func viewOfImport(imp state.Import) importView {
	v := importView{
		ID: strconv.FormatInt(imp.ID, 10), ListID: strconv.FormatInt(imp.ListID, 10),
		Delimiter: strconv.Itoa(int(imp.Delimiter)), Encoding: imp.Encoding, Type: imp.Type,
		DateCreated: imp.Created,
	}
	if imp.IdentityGiven != "" {
		id := imp.IdentityGiven
		v.IdentityColumn = &id
	}
	if imp.BatchID != 0 {
		b := strconv.FormatInt(imp.BatchID, 10)
		v.BatchID = &b
	}
	return v
}
