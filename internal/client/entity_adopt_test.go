package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A service that keeps a secret key without ever showing it: the read-back
// after an interrupted create must not look for the secret in the listing,
// or it misses the entity it made and creates another.
func TestCreateEntityOnceIgnoresUnechoedKeys(t *testing.T) {
	for _, tc := range []struct {
		name     string
		unechoed []string
		adopted  bool
	}{
		{"secret key left out of the match", []string{"password"}, true},
		{"every key matched (the secret too)", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := emulatorClientWith(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}}}, dropKeyOnPOST("password"))
			ctx := context.Background()
			_, err := c.Entities.CreateOnce(ctx, "campaigns", Entity{"name": "Secretive", "password": "s3cret"}, tc.unechoed...)
			all, lerr := c.Entities.List(ctx, "campaigns")
			if lerr != nil {
				t.Fatal(lerr)
			}
			if s.Faults().ActThenDrop == 0 {
				t.Fatal("no create was acted on then dropped: the read-back never ran")
			}
			if tc.adopted {
				if err != nil || len(all) != 1 {
					t.Errorf("Entities.CreateOnce: %v with %d entities, want the one made adopted", err, len(all))
				}
				return
			}
			// The control: matching on the secret cannot find the entity, so
			// the create is repeated (or given up): never exactly one adopted.
			if err == nil && len(all) == 1 {
				t.Errorf("matching on an unechoed key adopted the entity; the test no longer shows why unechoed exists")
			}
		})
	}
}

// dropKeyOnPOST stands for a service that keeps key where no GET shows it:
// the emulator never sees it.
func dropKeyOnPOST(key string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				var body map[string]any
				raw, _ := io.ReadAll(r.Body)
				if json.Unmarshal(raw, &body) == nil {
					delete(body, key)
					raw, _ = json.Marshal(body)
				}
				r.Body = io.NopCloser(bytes.NewReader(raw))
				r.ContentLength = int64(len(raw))
			}
			next.ServeHTTP(w, r)
		})
	}
}
