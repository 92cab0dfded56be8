package emulator

import "time"

// The interface says a finished export's result is held in an object
// storage service and reached through a URL. The emulator stands in for that
// service at /objectstore/{token}: like a pre-signed URL, the path carries an
// unguessable token (32 hex digits from crypto/rand), needs no credentials,
// and stops working after Options.ResultURLTTL (410 GONE; an unknown token is
// 404). Every request for the URL mints a new token; minting and serving
// are the export routes' (exports_routes.go), the tokens are the state's
// (state.ResultLinks).

const objectStorePrefix = "/objectstore/"

// keepExpired is how long an expired token is remembered, so that it is
// answered 410 rather than 404 for a while, before it is forgotten.
const keepExpired = time.Hour
