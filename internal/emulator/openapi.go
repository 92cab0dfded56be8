package emulator

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
)

// The OpenAPI document is kept as fragments, one per area of the interface
// (openapi/10-projects.json, openapi/20-lists.json, ...), so each area's
// routes and schemas live beside each other and can change independently.
// 00-base.json holds the info, security and shared components; every other
// fragment contributes "paths" and "components.schemas". They are merged
// in file-name order once, and a key defined twice is a build error caught
// by the tests.
//
//go:embed openapi/*.json
var openAPIFragments embed.FS

var openAPIDocument = mustMergeOpenAPI(openAPIFragments)

// OpenAPIDocument returns the OpenAPI 3.0 document served at /mail/swagger.
func OpenAPIDocument() []byte {
	return append([]byte(nil), openAPIDocument...)
}

// serveOpenAPI answers GET /mail/swagger. It needs no credentials: it is
// documentation, as on the service, and holds no account data.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
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
		if _, dup := dst[k]; dup {
			return fmt.Errorf("OpenAPI fragment %s defines %s %q again", name, key, k)
		}
		dst[k] = v
	}
	return nil
}
