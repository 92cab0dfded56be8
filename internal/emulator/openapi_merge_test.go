package emulator

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

func TestMergeOpenAPI(t *testing.T) {
	base := `{"openapi":"3.0.3","paths":{"/a":{}},"components":{"schemas":{"Error":{}}}}`
	cases := map[string]struct {
		fragments map[string]string
		wantErr   string
		wantPaths []string
	}{
		"fragments merge in name order": {
			fragments: map[string]string{
				"openapi/00-base.json": base,
				"openapi/10-x.json":    `{"paths":{"/x":{}},"components":{"schemas":{"X":{}}}}`,
				"openapi/20-y.json":    `{"paths":{"/y":{}}}`,
			},
			wantPaths: []string{"/a", "/x", "/y"},
		},
		"an operation defined twice is refused": {
			fragments: map[string]string{
				"openapi/00-base.json": `{"openapi":"3.0.3","paths":{"/a":{"get":{}}}}`,
				"openapi/10-x.json":    `{"paths":{"/a":{"get":{}}}}`,
			},
			wantErr: `openapi/10-x.json defines paths "/a" operation "get" again`,
		},
		"operations of one path merge across fragments": {
			fragments: map[string]string{
				"openapi/00-base.json": `{"openapi":"3.0.3","paths":{"/a":{"parameters":[{"name":"p"}],"post":{}}}}`,
				"openapi/10-x.json":    `{"paths":{"/a":{"parameters":[{"name":"p"}],"get":{}}}}`,
			},
			wantPaths: []string{"/a"},
		},
		"differing path parameters are refused": {
			fragments: map[string]string{
				"openapi/00-base.json": `{"openapi":"3.0.3","paths":{"/a":{"parameters":[{"name":"p"}],"post":{}}}}`,
				"openapi/10-x.json":    `{"paths":{"/a":{"parameters":[{"name":"q"}],"get":{}}}}`,
			},
			wantErr: `defines paths "/a" with a different "parameters"`,
		},
		"a schema defined twice is refused": {
			fragments: map[string]string{
				"openapi/00-base.json": base,
				"openapi/10-x.json":    `{"components":{"schemas":{"Error":{}}}}`,
			},
			wantErr: `defines schemas "Error" again`,
		},
		"malformed fragment": {
			fragments: map[string]string{"openapi/00-base.json": base, "openapi/10-x.json": `{`},
			wantErr:   "OpenAPI fragment openapi/10-x.json",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, c := range tc.fragments {
				fsys[n] = &fstest.MapFile{Data: []byte(c)}
			}
			got, err := mergeOpenAPI(fsys)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Paths map[string]any `json:"paths"`
			}
			if err := json.Unmarshal(got, &doc); err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.wantPaths {
				if _, ok := doc.Paths[p]; !ok {
					t.Errorf("path %s missing from merged document", p)
				}
			}
			if len(doc.Paths) != len(tc.wantPaths) {
				t.Errorf("merged %d paths, want %d", len(doc.Paths), len(tc.wantPaths))
			}
		})
	}
}
