package main

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// providerSurface is what the provider serves, by kind, read from the
// provider itself through the framework: the truth the hand-written tables
// of README.md and the provider's docs page are held to.
type providerSurface struct {
	attributes, resources, dataSources, actions, ephemeral, listResources, functions []string
}

func readProviderSurface(t *testing.T) providerSurface {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	var meta fwprovider.MetadataResponse
	p.Metadata(ctx, fwprovider.MetadataRequest{}, &meta)
	typeName := meta.TypeName

	var s providerSurface
	var schema fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &schema)
	if schema.Diagnostics.HasError() {
		t.Fatalf("provider schema: %v", schema.Diagnostics)
	}
	for name := range schema.Schema.Attributes {
		s.attributes = append(s.attributes, name)
	}
	for name := range schema.Schema.Blocks {
		s.attributes = append(s.attributes, name)
	}
	for _, f := range p.Resources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &m)
		s.resources = append(s.resources, m.TypeName)
	}
	for _, f := range p.DataSources(ctx) {
		var m datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: typeName}, &m)
		s.dataSources = append(s.dataSources, m.TypeName)
	}
	if pa, ok := p.(fwprovider.ProviderWithActions); ok {
		for _, f := range pa.Actions(ctx) {
			var m action.MetadataResponse
			f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: typeName}, &m)
			s.actions = append(s.actions, m.TypeName)
		}
	}
	if pe, ok := p.(fwprovider.ProviderWithEphemeralResources); ok {
		for _, f := range pe.EphemeralResources(ctx) {
			var m ephemeral.MetadataResponse
			f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: typeName}, &m)
			s.ephemeral = append(s.ephemeral, m.TypeName)
		}
	}
	if pl, ok := p.(fwprovider.ProviderWithListResources); ok {
		for _, f := range pl.ListResources(ctx) {
			var m resource.MetadataResponse
			f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &m)
			s.listResources = append(s.listResources, m.TypeName)
		}
	}
	if pf, ok := p.(fwprovider.ProviderWithFunctions); ok {
		for _, f := range pf.Functions(ctx) {
			var m function.MetadataResponse
			f().Metadata(ctx, function.MetadataRequest{}, &m)
			s.functions = append(s.functions, m.Name)
		}
	}
	if len(s.attributes) == 0 || len(s.resources) == 0 || len(s.dataSources) == 0 {
		t.Fatalf("read an empty provider: %+v", s)
	}
	return s
}

// TestREADMETablesMatchProvider holds README.md's tables to the provider:
// every provider attribute, resource, data source, action, ephemeral
// resource, list resource and function has its row, and no row names
// something the provider does not serve.
func TestREADMETablesMatchProvider(t *testing.T) {
	want := readProviderSurface(t)
	doc := readDoc(t, "README.md")

	sameNames(t, "README.md provider table", namesInColumn(t, doc, "| attribute | environment variable | meaning |", 0), want.attributes)

	byKind := map[string][]string{}
	for _, row := range tableRows(t, doc, "| name | kind | what it manages |") {
		for kind := range strings.SplitSeq(row[1], ",") {
			// "action (Terraform 1.14+)" is of kind "action".
			kind, _, _ = strings.Cut(strings.TrimSpace(kind), " (")
			byKind[kind] = append(byKind[kind], backticked(row[0])...)
		}
	}
	kinds := map[string][]string{
		"resource": want.resources, "data source": want.dataSources,
		"action": want.actions, "ephemeral resource": want.ephemeral,
	}
	for kind, names := range byKind {
		if _, ok := kinds[kind]; !ok {
			t.Errorf("README.md resource table: unknown kind %q (of %v); kinds are resource, data source, action, ephemeral resource", kind, names)
		}
	}
	for kind, names := range kinds {
		sameNames(t, "README.md resource table, kind "+kind, byKind[kind], names)
	}

	sameNames(t, "README.md list resource table", namesInColumn(t, doc, "| list resource | finds | `config` |", 0), want.listResources)

	var functions []string
	for _, call := range namesInColumn(t, doc, "| function | result |", 0) {
		name, _, _ := strings.Cut(strings.TrimPrefix(call, "provider::rms::"), "(")
		functions = append(functions, name)
	}
	sameNames(t, "README.md function table", functions, want.functions)
}

// TestProviderPageTablesMatchProvider does the same for the provider's
// docs page: its tables are written in templates/index.md.tmpl, which
// `make docs` copies into docs/index.md as they are (and `make docs-check`
// keeps docs/index.md equal to what the template makes).
func TestProviderPageTablesMatchProvider(t *testing.T) {
	const page = "templates/index.md.tmpl"
	want := readProviderSurface(t)
	doc := readDoc(t, page)

	sameNames(t, page+" provider table", namesInColumn(t, doc, "| attribute | environment variable | default |", 0), want.attributes)
	sameNames(t, page+" resources column", typeNames(namesInColumn(t, doc, "| | resources | data sources |", 1)), want.resources)
	sameNames(t, page+" data sources column", typeNames(namesInColumn(t, doc, "| | resources | data sources |", 2)), want.dataSources)

	rows := map[string][]string{}
	for _, row := range tableRows(t, doc, "| kind | names |") {
		rows[row[0]] = backticked(row[1])
	}
	rowStarting := func(prefix string) []string {
		for kind, names := range rows {
			if strings.HasPrefix(kind, prefix) {
				return names
			}
		}
		t.Errorf("%s: no row %q... in the table of other kinds", page, prefix)
		return nil
	}
	sameNames(t, page+" actions", typeNames(rowStarting("actions")), want.actions)
	sameNames(t, page+" ephemeral resources", typeNames(rowStarting("ephemeral resources")), want.ephemeral)
	sameNames(t, page+" list resources", typeNames(rowStarting("list resources")), want.listResources)
	var functions []string
	for _, f := range rowStarting("provider functions") {
		functions = append(functions, strings.TrimPrefix(f, "provider::rms::"))
	}
	sameNames(t, page+" functions", functions, want.functions)
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tableRows returns the cells of the rows of the Markdown table whose
// header line is header, less the header and its separator line.
func tableRows(t *testing.T, doc, header string) [][]string {
	t.Helper()
	lines := strings.Split(doc, "\n")
	start := slices.Index(lines, header)
	if start < 0 {
		t.Fatalf("no table with the header %q", header)
	}
	var rows [][]string
	for _, line := range lines[start+2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("the table %q has no rows", header)
	}
	return rows
}

// namesInColumn returns every backticked name in column col of the table
// whose header line is header.
func namesInColumn(t *testing.T, doc, header string, col int) []string {
	t.Helper()
	var names []string
	for _, row := range tableRows(t, doc, header) {
		if col >= len(row) {
			t.Fatalf("table %q: row %q has no column %d", header, row, col)
		}
		names = append(names, backticked(row[col])...)
	}
	return names
}

var backtickedName = regexp.MustCompile("`([^`]+)`")

func backticked(cell string) []string {
	var out []string
	for _, m := range backtickedName.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// typeNames keeps the names of types (rms_...), leaving out other code in
// the same cells.
func typeNames(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !strings.HasPrefix(n, "rms_") })
}

// sameNames reports the names the provider has and the table lacks, and
// those the table has and the provider does not.
func sameNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("%s names %q, which the provider does not have (it has %v)", what, g, want)
		}
	}
}
