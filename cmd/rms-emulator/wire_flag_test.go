package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestRunWireAll(t *testing.T) {
	baseURL, stdout, stop := startRun(t, "-wire", "all")
	// all holds errors-html: an unknown id is answered by a gateway page.
	status, body := call(t, http.MethodGet, baseURL+"/rest/1000/projects/9", "")
	if status != http.StatusNotFound || !strings.HasPrefix(body, "<html>") {
		t.Errorf("GET unknown project under -wire all: %d %q, want 404 with an HTML page", status, body)
	}
	// all holds create-id-only and ids-string.
	status, body = call(t, http.MethodPost, baseURL+"/rest/1000/projects", `{"name":"p"}`)
	if status != http.StatusCreated || strings.TrimSpace(body) != `{"id":"5"}` {
		t.Errorf("create under -wire all: %d %q, want 201 {\"id\":\"5\"}", status, body)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "wire profiles: "+emulator.AllWire.String()) {
		t.Errorf("banner does not name the wire profiles:\n%s", stdout.String())
	}
}

func TestRunHelpListsWireProfiles(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-h"}, io.Discard, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run -h: %v, want flag.ErrHelp", err)
	}
	out := stderr.String()
	if !strings.Contains(out, "-wire profiles") {
		t.Errorf("-h does not show the -wire flag:\n%s", out)
	}
	for _, p := range emulator.WireProfiles() {
		if !strings.Contains(out, p.Name) || !strings.Contains(out, p.Description) {
			t.Errorf("-h does not list profile %s (%s)", p.Name, p.Description)
		}
	}
	if !strings.Contains(out, "all ") {
		t.Errorf("-h does not explain all:\n%s", out)
	}
}

func TestRunRefusesBadWire(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"bogus", `unknown wire profile "bogus"`},
		{"time-millis,time-seconds", "alternatives of one dimension"},
		{"all,errors-text", "errors-text and errors-html"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := run(ctx, []string{"-addr", "127.0.0.1:0", "-wire", tt.arg}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("-wire %s: err = %v, want one containing %q", tt.arg, err, tt.want)
		}
	}
}
