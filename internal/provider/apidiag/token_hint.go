package apidiag

import (
	"errors"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// tokenHint says what to do about a refusal of the OAuth 2.0 token
// endpoint, naming the oauth2 attribute that can fix it.
func tokenHint(e *client.TokenError) string {
	switch {
	case errors.Is(e, client.ErrUnauthorized):
		return "Check oauth2.client_id and oauth2.client_secret (or RMS_OAUTH2_CLIENT_ID and RMS_OAUTH2_CLIENT_SECRET): the token endpoint refused the client."
	case errors.Is(e, client.ErrForbidden):
		return "Check oauth2.scopes: the token endpoint refused to grant them to this client."
	case errors.Is(e, client.ErrServerFailed):
		return "The token endpoint failed; retry later."
	}
	return "Check oauth2.token_url (or RMS_OAUTH2_TOKEN_URL): the endpoint did not issue a token for the client-credentials grant."
}
