package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// goPackageDirs lists the directories of the module that hold Go files,
// less the separate modules of tools/ and test data.
func goPackageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "tools" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !slices.Contains(dirs, filepath.Dir(path)) {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// parsedDir is the files of one directory (the package and its tests),
// with their comments.
type parsedDir struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func parseDir(t *testing.T, dir string) parsedDir {
	t.Helper()
	p := parsedDir{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		f, err := parser.ParseFile(p.fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatalf("parsing %s: %v", path, err)
		}
		p.files[path] = f
	}
	return p
}

// knownWords is every name a comment of the directory may use: each
// identifier written in its files (declared or used: fields, methods,
// parameters, names of other packages it calls), and each word of its
// string literals and struct tags (the interface's JSON fields, such as
// failedRows, are names of the service, not of Go).
func (p parsedDir) knownWords() map[string]bool {
	known := map[string]bool{}
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				known[n.Name] = true
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, err := strconv.Unquote(n.Value)
					if err != nil {
						s = n.Value
					}
					for _, w := range identifierWord.FindAllString(s, -1) {
						known[w] = true
					}
				}
			}
			return true
		})
	}
	return known
}

var (
	identifierWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	// codeName is a word only Go code would write: camelCase with a
	// capital after a small letter, or MixedCase with a capital after
	// small letters, as opposed to prose (Terraform, UNSUBSCRIBED,
	// rms_contact).
	codeName = regexp.MustCompile(`^(?:[a-z]+[A-Z]|[A-Z][a-z0-9]+[A-Z])[A-Za-z0-9]*$`)
	// commentToken is a run of what may make a Go name, with what is
	// glued to it (a qualifier, a path, a suffix), so that a qualified
	// name (client.ErrNotFound), a path or a URL is seen whole.
	commentToken = regexp.MustCompile(`[A-Za-z0-9_./:\-#@*{}<>=$]+`)
)

// outsideNames are words of comments that look like Go names and name
// nothing of this module: units, products, names of the service's
// interface, and names inside Go, Terraform and the framework that a
// comment cites to say why (the framework's mapElemObject, the protocol's
// ConfigureProvider call).
var outsideNames = map[string]bool{
	"KiB": true, "MiB": true, "GiB": true, "kB": true, "gRPC": true, "OpenTofu": true, "OpenAPI": true,
	"camelCase": true, "MixedCase": true,
	"SubscriptionStatusDto": true, "originalId": true, "originalIds": true,
	"TestMain": true, "ServeMux": true,
	"ConfigureProvider": true, "ImportState": true, "ModifyPlan": true, "MoveResourceState": true,
	"PreConfig": true, "ConfigVariables": true, "TestStep": true, "ExpectError": true,
	"NullifyCollectionBlocks": true, "mapElemObject": true, "registerContext": true, "isValidFieldName": true,
}

// staleCommentNames lists, as "file:line: name", the Go-looking names of
// the directory's comments that name nothing the directory has, nothing
// of the rest of the module (module: its identifiers) and nothing outside.
func (p parsedDir) staleCommentNames(module map[string]bool) []string {
	known := p.knownWords()
	var stale []string
	for _, f := range p.files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				for _, tok := range commentToken.FindAllString(c.Text, -1) {
					tok = strings.TrimRight(strings.TrimSuffix(tok, "'s"), ".:-")
					if strings.ContainsAny(tok, "./:-#@*{}<>=$") {
						continue // qualified by another package, a path, a URL, code
					}
					if !codeName.MatchString(tok) || known[tok] || module[tok] || outsideNames[tok] || module["Benchmark"+tok] {
						continue
					}
					stale = append(stale, p.fset.Position(c.Pos()).String()+": "+tok)
				}
			}
		}
	}
	slices.Sort(stale)
	return stale
}

// TestCommentsNameWhatExists holds comments to the code: a comment that
// names a Go identifier must name one its package (or the package's
// tests) still has, or one of the rest of the module or of outsideNames,
// so that a renamed or deleted function does not leave comments pointing
// at nothing.
func TestCommentsNameWhatExists(t *testing.T) {
	dirs := map[string]parsedDir{}
	module := map[string]bool{}
	for _, dir := range goPackageDirs(t) {
		dirs[dir] = parseDir(t, dir)
		for _, f := range dirs[dir].files {
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					module[id.Name] = true
				}
				return true
			})
		}
	}
	for _, p := range dirs {
		for _, s := range p.staleCommentNames(module) {
			where, name, _ := strings.Cut(s, ": ")
			t.Errorf("%s: a comment names %s, which neither its package nor the module has", where, name)
		}
	}
}
