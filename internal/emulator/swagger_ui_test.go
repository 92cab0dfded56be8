package emulator

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The page and every file it references come from the emulator itself:
// nothing is fetched from a CDN, and each reference resolves to a file.
func TestSwaggerPageIsSelfContained(t *testing.T) {
	s := New(Options{})
	rec := do(t, s, http.MethodGet, "/mail/swagger", nil, withoutAuth(), withHeader("Accept", "text/html"))
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	if m := regexp.MustCompile(`(?i)(src|href)="(https?:)?//[^"]*"`).FindString(page); m != "" {
		t.Errorf("the page loads %s from elsewhere", m)
	}
	if !strings.Contains(page, `/mail/swagger?format=json`) {
		t.Error("the page does not load the document from /mail/swagger?format=json")
	}
	refs := regexp.MustCompile(`(?:src|href)="(/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 3 {
		t.Fatalf("the page references %d files, want its script, style sheet and icons", len(refs))
	}
	for _, ref := range refs {
		if !strings.HasPrefix(ref[1], swaggerUIBase) {
			t.Errorf("reference %s is outside %s", ref[1], swaggerUIBase)
			continue
		}
		asset := do(t, s, http.MethodGet, ref[1], nil, withoutAuth(), withHeader("Accept", "*/*"))
		wantStatus(t, asset, http.StatusOK)
		if asset.Body.Len() == 0 {
			t.Errorf("%s is empty", ref[1])
		}
	}
}

func TestSwaggerUIAssets(t *testing.T) {
	s := New(Options{})
	js := do(t, s, http.MethodGet, swaggerUIBase+"swagger-ui-bundle.js", nil, withoutAuth(), withHeader("Accept", "*/*"))
	wantStatus(t, js, http.StatusOK)
	if ct := js.Header().Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("Content-Type = %q, want a script", ct)
	}
	if !strings.Contains(js.Body.String(), "SwaggerUIBundle") {
		t.Error("the bundle is not Swagger UI's, or is still compressed for a client that did not ask for gzip")
	}
	gz := do(t, s, http.MethodGet, swaggerUIBase+"swagger-ui.css", nil, withoutAuth(), withHeader("Accept-Encoding", "gzip"))
	wantStatus(t, gz, http.StatusOK)
	if ce := gz.Header().Get("Content-Encoding"); ce != "gzip" {
		t.Errorf("Content-Encoding = %q for a client that accepts gzip", ce)
	}
	for _, name := range []string{"nosuch.js", "swagger-ui.css.gz", "embed.go"} {
		rec := do(t, s, http.MethodGet, swaggerUIBase+name, nil, withoutAuth())
		wantError(t, rec, ErrorBody{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no such file of the interactive page: " + name})
	}
}

// The page groups operations by their tag, one group per domain of the
// interface: every operation has exactly one tag, declared at the top of
// the document, and every declared tag is used.
func TestOpenAPIOperationsAreTagged(t *testing.T) {
	doc := loadServedDocument(t, New(Options{}))
	declared := map[string]bool{}
	for _, tag := range doc.Tags {
		declared[tag.Name] = false
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if len(op.Tags) != 1 {
				t.Errorf("%s %s has tags %q, want one", method, path, op.Tags)
				continue
			}
			if _, ok := declared[op.Tags[0]]; !ok {
				t.Errorf("%s %s has undeclared tag %q", method, path, op.Tags[0])
			}
			declared[op.Tags[0]] = true
		}
	}
	for name, used := range declared {
		if !used {
			t.Errorf("tag %q is declared but no operation has it", name)
		}
	}
	for _, want := range []string{"Projects", "Lists"} {
		if _, ok := declared[want]; !ok {
			t.Errorf("no %s tag", want)
		}
	}
}
