package emulator

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"reflect"
	"sort"
)

// openAPIFragments are the OpenAPI document, kept as fragments, one per
// area of the interface
// (openapi/10-projects.json, openapi/20-lists.json, ...), so each area's
// routes and schemas live beside each other and can change independently.
// 00-base.json holds the info, security and shared components; every other
// fragment contributes "paths" and "components.schemas". They are merged
// in file-name order once, and a key defined twice is a build error caught
// by the tests; a fragment may add operations to a path of an earlier one.
//
//go:embed openapi/*.json
var openAPIFragments embed.FS

var openAPIDocument = mustMergeOpenAPI(openAPIFragments)

// OpenAPIDocument returns the OpenAPI 3.0 document served at /mail/swagger.
func OpenAPIDocument() []byte {
	return append([]byte(nil), openAPIDocument...)
}

// serveOpenAPI answers GET /mail/swagger: the document, or for a browser the
// interactive page that shows it (see wantsSwaggerPage). It needs no
// credentials: it is documentation, as on the service, and holds no account
// data.
func (s *docsAPI) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	// Both answers live at one URL: a cache must key them on Accept.
	w.Header().Add("Vary", "Accept")
	if wantsSwaggerPage(r) {
		s.serveSwaggerPage(w, r)
		return
	}
	w.Header().Set("Content-Type", jsonContentType)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(openAPIDocument); err != nil {
		s.log.Debug("writing the OpenAPI document", "error", err)
	}
}

func mustMergeOpenAPI(fsys fs.FS) []byte {
	b, err := mergeOpenAPI(fsys)
	if err != nil {
		panic(err)
	}
	return b
}

func mergeOpenAPI(fsys fs.FS) ([]byte, error) {
	names, err := fs.Glob(fsys, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var doc map[string]any
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(raw, &frag); err != nil {
			return nil, fmt.Errorf("OpenAPI fragment %s: %w", name, err)
		}
		if doc == nil {
			doc = frag
			continue
		}
		if err := mergeSection(doc, frag, name, "paths"); err != nil {
			return nil, err
		}
		fragComponents, _ := frag["components"].(map[string]any)
		docComponents, _ := doc["components"].(map[string]any)
		for section := range fragComponents {
			if err := mergeSection(docComponents, fragComponents, name, section); err != nil {
				return nil, err
			}
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

// mergeSection copies frag[key] entries into doc[key], refusing duplicates.
func mergeSection(doc, frag map[string]any, name, key string) error {
	src, _ := frag[key].(map[string]any)
	if len(src) == 0 {
		return nil
	}
	dst, _ := doc[key].(map[string]any)
	if dst == nil {
		dst = map[string]any{}
		doc[key] = dst
	}
	for k, v := range src {
		if prev, dup := dst[k]; dup {
			if key == "paths" {
				if err := mergePathItem(prev, v, name, k); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("OpenAPI fragment %s defines %s %q again", name, key, k)
		}
		dst[k] = v
	}
	return nil
}

// mergePathItem adds the operations of a later fragment to a path an
// earlier one defined (an area may add a call to another area's path, such
// as GET beside POST .../imports). An operation defined twice is refused,
// and so are path-level keys (parameters) that differ.
func mergePathItem(prev, next any, name, path string) error {
	dst, ok1 := prev.(map[string]any)
	src, ok2 := next.(map[string]any)
	if !ok1 || !ok2 {
		return fmt.Errorf("OpenAPI fragment %s defines paths %q again", name, path)
	}
	for k, v := range src {
		old, dup := dst[k]
		switch {
		case !dup:
			dst[k] = v
		case !isOperation(k) && reflect.DeepEqual(old, v):
			// the same path-level parameters, repeated so the fragment reads alone
		case isOperation(k):
			return fmt.Errorf("OpenAPI fragment %s defines paths %q operation %q again", name, path, k)
		default:
			return fmt.Errorf("OpenAPI fragment %s defines paths %q with a different %q", name, path, k)
		}
	}
	return nil
}

func isOperation(key string) bool {
	switch key {
	case "get", "put", "post", "delete", "options", "head", "patch", "trace":
		return true
	}
	return false
}
