package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// clock is a settable clock shared by the emulator and the authenticator.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// oauth2Client serves an emulator account of one OAuth 2.0 client, whose
// tokens live a minute on clk, and a client that authenticates as it with
// secret.
func oauth2Client(t *testing.T, clk *clock, secret string) (*Client, *emulator.Server, *OAuth2) {
	t.Helper()
	s := emulator.New(emulator.Options{
		CustomerID: testCustomerID, OAuth2Clients: map[string]string{"ci": "s3cret"}, TokenTTL: time.Minute, Now: clk.now,
	})
	var o *OAuth2
	c, _ := newTestClient(t, s, func(cfg *Config) {
		var err error
		if o, err = NewOAuth2(cfg.BaseURL+emulator.OAuth2TokenPath, "ci", secret, []string{"lists"}, nil); err != nil {
			t.Fatal(err)
		}
		o.now = clk.now
		cfg.Auth = o
	})
	return c, s, o
}

func TestOAuth2TokenSharedAndRenewedBeforeExpiry(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	c, s, o := oauth2Client(t, clk, "s3cret")
	ctx := context.Background()

	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, err := c.Projects.List(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := s.OAuth2Tokens().Issued; got != 1 {
		t.Fatalf("ten concurrent calls asked for %d tokens, want 1", got)
	}

	// A minute's token is renewed in its last tenth (6 s), not before.
	clk.add(53 * time.Second)
	if _, err := c.Projects.List(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s.OAuth2Tokens().Issued; got != 1 {
		t.Errorf("53 s into a minute's token: %d tokens, want it kept", got)
	}
	clk.add(2 * time.Second)
	if _, err := c.Projects.List(ctx); err != nil {
		t.Fatal(err)
	}
	got := s.OAuth2Tokens()
	if got.Issued != 2 || got.Presented != 2 || got.Expired != 0 {
		t.Errorf("after 55 s: %+v, want 2 issued, both presented, none refused as expired", got)
	}
	if o.Fetched() != 2 {
		t.Errorf("client fetched %d tokens, want 2", o.Fetched())
	}
}

// A token the service stops accepting before its time (a restart, a key
// rotation) is renewed once, and the refused request sent again: a create
// too, since a 401 comes before any work.
func TestOAuth2TokenRenewedOnceAfter401(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	c, s, _ := oauth2Client(t, clk, "s3cret")
	ctx := context.Background()
	if _, err := c.Projects.List(ctx); err != nil {
		t.Fatal(err)
	}
	s.RevokeOAuth2Tokens()
	if _, err := c.Projects.Create(ctx, ProjectInput{Name: "after-revocation"}); err != nil {
		t.Fatalf("create after the token was revoked: %v", err)
	}
	projects, err := c.Projects.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 1 {
		t.Errorf("%d projects, want the one create", len(projects))
	}
	st := s.Requests()
	if got := st.ByStatus[http.StatusUnauthorized]; got != 1 {
		t.Errorf("%d requests refused with 401, want 1", got)
	}
	if got := s.OAuth2Tokens().Issued; got != 2 {
		t.Errorf("%d tokens issued, want 2: one renewal for one refusal", got)
	}
}

func TestOAuth2WrongSecret(t *testing.T) {
	clk := &clock{t: time.Now()}
	c, _, _ := oauth2Client(t, clk, "wrong")
	err := c.CheckCredentials(context.Background())
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("CheckCredentials with a wrong secret: %v, want ErrUnauthorized", err)
	}
	var te *TokenError
	if !errors.As(err, &te) || te.Code != "invalid_client" || te.StatusCode != http.StatusUnauthorized {
		t.Errorf("error %v, want the endpoint's invalid_client", err)
	}
	if strings.Contains(err.Error(), "wrong\"") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %q quotes a secret", err)
	}
}

func TestParseTokenURL(t *testing.T) {
	cases := []struct {
		raw     string
		wantErr string
	}{
		{"https://auth.example.com/oauth2/token", ""},
		{"http://127.0.0.1:8080/oauth2/token", ""},
		{"http://auth.example.com/oauth2/token", "plain http"},
		{"https://user:pw@auth.example.com/token", "credentials"},
		{"auth.example.com/token", "absolute"},
	}
	for _, tc := range cases {
		t.Run(tc.raw, func(t *testing.T) {
			_, err := ParseTokenURL(tc.raw)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "pw@") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}
