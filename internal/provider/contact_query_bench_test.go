package provider

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// BenchmarkContactQuery lists a list of 100,000 contacts through the
// rms_contact list resource, as `terraform query` does, and drains the
// results. It reports the time of one whole listing and the largest heap
// the listing keeps live above what the emulator holds before it starts
// (live-heap-MB): about a page of contacts, whatever the list's size,
// because results are pushed as each page arrives. The emulator serves
// from the same process; the time includes its work.
//
//	go test -run '^$' -bench BenchmarkContactQuery -benchtime 3x ./internal/provider/
func BenchmarkContactQuery(b *testing.B) {
	const contacts = 100_000
	l, err := emulator.Listen("127.0.0.1:0", emulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	opts := l.Server.Options()
	c, err := client.New(client.Config{
		BaseURL: l.URL, CustomerID: opts.CustomerID,
		Auth: client.BasicAuth{Username: opts.Username, Password: opts.Password},
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	lst, err := c.Lists.Create(ctx, client.ListInput{Name: "Big"})
	if err != nil {
		b.Fatal(err)
	}
	seed := make([]emulator.Contact, contacts)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: fmt.Sprintf("customer-%06d", i), Properties: map[string]string{
			"email": fmt.Sprintf("customer%d@example.com", i), "firstname": "First", "lastname": "Last",
		}}
	}
	listID, err := strconv.ParseInt(lst.ID.String(), 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	if err := l.Server.UpsertContacts(listID, seed); err != nil {
		b.Fatal(err)
	}

	data := &providerData{client: c, contacts: contactsync.NewRun(c, contactsync.RunOptions{})}
	lr := &contactQuery{data: data}
	var schemaResp list.ListResourceSchemaResponse
	lr.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &schemaResp)
	var resSchema resource.SchemaResponse
	(&contactResource{}).Schema(ctx, resource.SchemaRequest{}, &resSchema)
	var idSchema resource.IdentitySchemaResponse
	(&contactResource{}).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idSchema)
	config := tftypes.NewValue(schemaResp.Schema.Type().TerraformType(ctx), map[string]tftypes.Value{
		"list_id":       tftypes.NewValue(tftypes.String, lst.ID.String()),
		"email_status":  tftypes.NewValue(tftypes.String, nil),
		"mobile_status": tftypes.NewValue(tftypes.String, nil),
	})

	for _, include := range []bool{false, true} {
		b.Run(fmt.Sprintf("include_resource=%t", include), func(b *testing.B) {
			req := list.ListRequest{
				Config:          tfsdk.Config{Raw: config, Schema: schemaResp.Schema},
				IncludeResource: include,
				Limit:           contacts,
				ResourceSchema:  resSchema.Schema, ResourceIdentitySchema: idSchema.IdentitySchema,
			}
			drain := func(every int, sample func()) {
				var stream list.ListResultsStream
				lr.List(ctx, req, &stream)
				n := 0
				for r := range stream.Results {
					if r.Diagnostics.HasError() {
						b.Fatalf("result %d: %v", n, r.Diagnostics)
					}
					n++
					if every > 0 && n%every == 0 {
						sample()
					}
				}
				if n != contacts {
					b.Fatalf("listed %d contacts, want %d", n, contacts)
				}
			}
			b.ResetTimer()
			for range b.N {
				drain(0, nil)
			}
			b.StopTimer()

			// One more listing, untimed, that collects garbage every 5,000
			// results and records the heap still live then: what the
			// listing holds, which must not grow with the list.
			runtime.GC()
			base := liveHeap()
			var peak uint64
			drain(5000, func() {
				runtime.GC()
				if h := liveHeap(); h > peak {
					peak = h
				}
			})
			b.ReportMetric(float64(int64(peak)-int64(base))/(1<<20), "live-heap-MB")
			b.ReportMetric(float64(contacts), "contacts/op")
		})
	}
}

// liveHeap is the heap held by objects, live or not yet swept; right after
// runtime.GC, the live heap.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
