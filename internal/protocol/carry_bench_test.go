package protocol

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// BenchmarkMapNestedPlan is the reproduction of dev/upstream.md ("a plan
// of a map of objects costs O(n²)"): PlanResourceChange of a resource
// whose only large attribute is a map-nested attribute of n objects, one
// of them changed, served by the framework as it is and through the
// server that carries the map past it. Time per operation doubling with
// n is linear; quadrupling is quadratic.
func BenchmarkMapNestedPlan(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 8000} {
		priorPairs, proposedPairs := make([]string, n), make([]string, n)
		for i := range n {
			priorPairs[i] = fmt.Sprintf("contact-%d=v", i)
			proposedPairs[i] = priorPairs[i]
		}
		proposedPairs[0] = "contact-0=changed"
		prior := carryObject(carryItems(priorPairs...), n)
		proposed := carryObject(carryItems(proposedPairs...), n)
		config := carryObject(carryItems(proposedPairs...), nil)
		dv := func(v tftypes.Value) *tfprotov6.DynamicValue {
			d, err := tfprotov6.NewDynamicValue(carryThingTF, v)
			if err != nil {
				b.Fatal(err)
			}
			return &d
		}
		req := &tfprotov6.PlanResourceChangeRequest{TypeName: "carry_thing", PriorState: dv(prior), ProposedNewState: dv(proposed), Config: dv(config)}
		for _, s := range []struct {
			name   string
			server tfprotov6.ProviderServer
		}{
			{"framework", providerserver.NewProtocol6(carryProvider{seen: &carrySeen{}})()},
			{"carried", carryServer(&carrySeen{})},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				for b.Loop() {
					resp, err := s.server.PlanResourceChange(context.Background(), req)
					if err != nil || len(resp.Diagnostics) > 0 {
						b.Fatalf("%v %v", err, resp.Diagnostics)
					}
				}
			})
		}
	}
}
