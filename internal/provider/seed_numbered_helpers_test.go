package provider_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// seedNumbered fills list with n contacts, contact i with the id and the
// e-mail address the formats give for i, and whatever vary sets (vary may
// be nil): the large lists the adoption tests take under management.
func seedNumbered(t *testing.T, env *acctest.Env, list string, n int, idFormat, emailFormat string, vary func(i int, c *emulator.Contact)) {
	t.Helper()
	listID, err := strconv.ParseInt(list, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	contacts := make([]emulator.Contact, n)
	for i := range contacts {
		contacts[i] = emulator.Contact{OriginalID: fmt.Sprintf(idFormat, i), Properties: map[string]string{"email": fmt.Sprintf(emailFormat, i)}}
		if vary != nil {
			vary(i, &contacts[i])
		}
	}
	if err := env.Emulator.UpsertContacts(listID, contacts); err != nil {
		t.Fatal(err)
	}
}
