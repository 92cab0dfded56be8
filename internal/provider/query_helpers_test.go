package provider

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestStreamResults: results stop at the limit and when Terraform stops
// reading, both of which stop the paging; a failure becomes one last
// result with an error; limit 0 asks the service nothing.
func TestStreamResults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var sch resource.SchemaResponse
	(&projectResource{}).Schema(ctx, resource.SchemaRequest{}, &sch)
	var ids resource.IdentitySchemaResponse
	(&projectResource{}).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ids)
	boom := errors.New("boom")
	cases := map[string]struct {
		limit     int64
		include   bool
		objects   int
		failAfter int // run fails after emitting this many; 0: never
		readOnly  int // Terraform stops reading after this many; 0: never
		wantIDs   []string
		wantErr   bool
		wantCalls int // emits attempted by run
	}{
		"all within the limit":    {limit: 100, objects: 3, wantIDs: []string{"0", "1", "2"}, wantCalls: 3},
		"stops at the limit":      {limit: 2, objects: 5, wantIDs: []string{"0", "1"}, wantCalls: 2},
		"stops when not read":     {limit: 100, objects: 5, readOnly: 2, wantIDs: []string{"0", "1"}, wantCalls: 2},
		"failure after one":       {limit: 100, objects: 5, failAfter: 1, wantIDs: []string{"0"}, wantErr: true, wantCalls: 1},
		"limit zero asks nothing": {limit: 0, objects: 5, wantCalls: 0},
		"resources included":      {limit: 100, objects: 2, include: true, wantIDs: []string{"0", "1"}, wantCalls: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := list.ListRequest{Limit: tc.limit, IncludeResource: tc.include, ResourceSchema: sch.Schema, ResourceIdentitySchema: ids.IdentitySchema}
			calls := 0
			seq := streamResults(ctx, req, "Unable to list things", func(_ context.Context, e *resultEmitter) error {
				for i := range tc.objects {
					if tc.failAfter > 0 && i == tc.failAfter {
						return boom
					}
					calls++
					id := fmt.Sprint(i)
					if err := e.emit("thing "+id, map[string]string{"id": id}, func() (any, diag.Diagnostics) {
						return projectModel{ID: types.StringValue(id), Name: types.StringValue("thing " + id)}, nil
					}); err != nil {
						return err
					}
				}
				return nil
			})
			var gotIDs []string
			gotErr := false
			read := 0
			for r := range seq {
				if r.Diagnostics.HasError() {
					gotErr = true
					if r.Diagnostics[0].Summary() != "Unable to list things" {
						t.Errorf("error summary %q", r.Diagnostics[0].Summary())
					}
					continue
				}
				var ident idIdentityModel
				if d := r.Identity.Get(ctx, &ident); d.HasError() {
					t.Fatal(d)
				}
				gotIDs = append(gotIDs, ident.ID.ValueString())
				if r.DisplayName != "thing "+ident.ID.ValueString() {
					t.Errorf("display name %q", r.DisplayName)
				}
				if tc.include {
					var m projectModel
					if d := r.Resource.Get(ctx, &m); d.HasError() || m.Name.ValueString() != "thing "+ident.ID.ValueString() {
						t.Errorf("resource %+v %v", m, d)
					}
				} else if r.Resource != nil {
					t.Error("a resource was built though Terraform did not ask for it")
				}
				read++
				if tc.readOnly > 0 && read == tc.readOnly {
					break
				}
			}
			if fmt.Sprint(gotIDs) != fmt.Sprint(tc.wantIDs) || gotErr != tc.wantErr || calls != tc.wantCalls {
				t.Errorf("got ids %v, error %t, %d emits; want %v, %t, %d", gotIDs, gotErr, calls, tc.wantIDs, tc.wantErr, tc.wantCalls)
			}
		})
	}
}

// TestQueryPageSize asks for the limit when every object of a page becomes a
// result, and for the largest page otherwise.
func TestQueryPageSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		limit    int64
		filtered bool
		want     int
	}{{100, false, 100}, {100, true, 1000}, {5000, false, 1000}, {0, false, 1000}} {
		if got := queryPageSize(tc.limit, tc.filtered); got != tc.want {
			t.Errorf("queryPageSize(%d, %t) = %d, want %d", tc.limit, tc.filtered, got, tc.want)
		}
	}
}
