package provider_test

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// maxDescriptionWords is the longest a description may run: the Registry
// shows each as one block, so the rule stays in it and the details go to
// a guide it links.
const maxDescriptionWords = 120

// maxPageSentences is the longest the description of a whole resource,
// data source, action, ... may run: it becomes its page's front matter.
const maxPageSentences = 3

var (
	sentenceEnd   = regexp.MustCompile(`[.!?]["')]?(\s|$)`)
	abbreviations = strings.NewReplacer("e.g.", "eg", "i.e.", "ie", "etc.)", "etc)", "...", "…")
)

// sentences counts the sentences of a description: ends of sentences
// followed by a space or the end, leaving out abbreviations and the dots
// of versions, file names and code.
func sentences(text string) int {
	return len(sentenceEnd.FindAllString(abbreviations.Replace(strings.TrimSpace(text)), -1))
}

// TestSchemaDescriptionLength holds every description the provider serves
// (provider block, resources, data sources, ephemeral resources, list
// resources, actions and functions, nested attributes and blocks included,
// Description and MarkdownDescription alike) to maxDescriptionWords,
// naming each offender.
func TestSchemaDescriptionLength(t *testing.T) {
	t.Parallel()
	found := 0
	for _, d := range servedDescriptions(t) {
		found++
		if n := len(strings.Fields(d.text)); n > maxDescriptionWords {
			t.Errorf("%s: %d words (at most %d): keep the rule, move the details into a guide and link it (\"See the ... guide.\")", d.where, n, maxDescriptionWords)
		}
		if n := sentences(d.text); d.page && n > maxPageSentences {
			t.Errorf("%s: %d sentences (at most %d, it is the page's front matter): say what it manages, move the rest into the page's template or a guide", d.where, n, maxPageSentences)
		}
	}
	// A walk that found nothing would pass whatever the schemas say.
	if found < 100 {
		t.Fatalf("found only %d descriptions: the walk of the schemas is broken", found)
	}
}

func TestCollectDescriptions(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", maxDescriptionWords+1)
	type attr struct {
		Description         string
		MarkdownDescription string
	}
	type object struct{ Attributes map[string]any }
	type nested struct {
		Description  string
		NestedObject object
	}
	tests := []struct {
		name string
		in   any
		want []string
	}{
		{"top", attr{Description: long}, []string{"x.Description"}},
		{"markdown", attr{MarkdownDescription: long}, []string{"x.MarkdownDescription"}},
		{"nested", nested{NestedObject: object{Attributes: map[string]any{"inner": attr{Description: long}}}}, []string{"x.inner.Description"}},
		{"short", attr{Description: "short"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, d := range collectDescriptions("x", reflect.ValueOf(tt.in)) {
				if len(strings.Fields(d.text)) > maxDescriptionWords {
					got = append(got, d.where)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

type description struct {
	where, text string
	// page is true for the description of a whole resource, data source,
	// ... : the one its docs page carries in its front matter.
	page bool
}

// servedDescriptions reads every schema and function definition from the
// provider itself, so a new resource or attribute is held without a list
// to update.
func servedDescriptions(t *testing.T) []description {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	var meta fwprovider.MetadataResponse
	p.Metadata(ctx, fwprovider.MetadataRequest{}, &meta)

	var out []description
	add := func(kind, name string, schema any) {
		root := kind + " " + name
		for _, d := range collectDescriptions(root, reflect.ValueOf(schema)) {
			d.page = d.where == root+".Description" || d.where == root+".MarkdownDescription"
			out = append(out, d)
		}
	}
	var ps fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &ps)
	add("provider", meta.TypeName, ps.Schema)
	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		add("resource", m.TypeName, s.Schema)
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		add("data source", m.TypeName, s.Schema)
	}
	if pe, ok := p.(fwprovider.ProviderWithEphemeralResources); ok {
		for _, f := range pe.EphemeralResources(ctx) {
			e := f()
			var m ephemeral.MetadataResponse
			e.Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
			var s ephemeral.SchemaResponse
			e.Schema(ctx, ephemeral.SchemaRequest{}, &s)
			add("ephemeral resource", m.TypeName, s.Schema)
		}
	}
	if pl, ok := p.(fwprovider.ProviderWithListResources); ok {
		for _, f := range pl.ListResources(ctx) {
			l := f()
			var m resource.MetadataResponse
			l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
			var s list.ListResourceSchemaResponse
			l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
			add("list resource", m.TypeName, s.Schema)
		}
	}
	if pa, ok := p.(fwprovider.ProviderWithActions); ok {
		for _, f := range pa.Actions(ctx) {
			a := f()
			var m action.MetadataResponse
			a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
			var s action.SchemaResponse
			a.Schema(ctx, action.SchemaRequest{}, &s)
			add("action", m.TypeName, s.Schema)
		}
	}
	if pf, ok := p.(fwprovider.ProviderWithFunctions); ok {
		for _, f := range pf.Functions(ctx) {
			fn := f()
			var m function.MetadataResponse
			fn.Metadata(ctx, function.MetadataRequest{}, &m)
			var d function.DefinitionResponse
			fn.Definition(ctx, function.DefinitionRequest{}, &d)
			add("function", m.Name, d.Definition)
		}
	}
	return out
}

// collectDescriptions walks a framework schema or function definition by
// reflection: every schema and attribute type keeps its text in fields
// named Description and MarkdownDescription, and its children in
// Attributes, Blocks, NestedObject, Parameters and VariadicParameter.
// Validators, plan modifiers and types are not walked.
func collectDescriptions(where string, v reflect.Value) []description {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	var out []description
	switch v.Kind() {
	case reflect.Struct:
		for _, field := range []string{"Description", "MarkdownDescription"} {
			if f := v.FieldByName(field); f.IsValid() && f.Kind() == reflect.String && f.String() != "" {
				out = append(out, description{where: where + "." + field, text: f.String()})
			}
		}
		for _, field := range []string{"Attributes", "Blocks", "NestedObject", "Parameters", "VariadicParameter"} {
			if f := v.FieldByName(field); f.IsValid() {
				out = append(out, collectDescriptions(where, f)...)
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			out = append(out, collectDescriptions(where+"."+k.String(), v.MapIndex(k))...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			elem := v.Index(i)
			name := fmt.Sprint(i)
			if n := paramName(elem); n != "" {
				name = n
			}
			out = append(out, collectDescriptions(where+"."+name, elem)...)
		}
	}
	return out
}

// paramName names a function parameter by its GetName, where it has one.
func paramName(v reflect.Value) string {
	if g, ok := v.Interface().(interface{ GetName() string }); ok {
		return g.GetName()
	}
	return ""
}
