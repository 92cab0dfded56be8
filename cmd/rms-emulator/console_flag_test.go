package main

import (
	"net/http"
	"strings"
	"testing"
)

// -console-password opens the console of every account, one reached only
// by a bearer token included, to any user name with that password; the
// banner says so.
func TestRunConsolePassword(t *testing.T) {
	baseURL, stdout, _ := startRun(t, "-addr", "127.0.0.1:0", "-account", "2000:token:team-b-token", "-console-password", "look")
	get := func(path, user, pass string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, baseURL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if user != "" || pass != "" {
			req.SetBasicAuth(user, pass)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		path, user, pass string
		want             int
	}{
		{"/console/2000", "anyone", "look", http.StatusOK},
		{"/console/1000", "someone-else", "look", http.StatusOK},
		{"/console/1000", "rms", "rms-password", http.StatusOK},
		{"/console/2000", "rms", "rms-password", http.StatusUnauthorized},
		{"/console/2000", "", "", http.StatusUnauthorized},
	} {
		if got := get(tc.path, tc.user, tc.pass); got != tc.want {
			t.Errorf("GET %s as %q/%q: %d, want %d", tc.path, tc.user, tc.pass, got, tc.want)
		}
	}
	if !strings.Contains(stdout.String(), "console: "+baseURL+"/console (sign in with an account's user name and password, or any user name and -console-password)") {
		t.Errorf("the banner does not point at the console: %s", stdout.String())
	}
}
