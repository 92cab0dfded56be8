package functions

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = &batchTimeFunction{}

// NewBatchTime returns provider::rms::batch_time.
func NewBatchTime() function.Function { return &batchTimeFunction{} }

type batchTimeFunction struct{}

func (f *batchTimeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "batch_time"
}

func (f *batchTimeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "An epoch-milliseconds time of the service (a batch's startTime or endTime) as an RFC 3339 timestamp in UTC.",
		MarkdownDescription: "Converts the epoch milliseconds the service uses for a batch's `startTime` and `endTime` into an " +
			"RFC 3339 timestamp in UTC, which Terraform's own time functions (`timeadd`, `formatdate`, `timecmp`) " +
			"understand: `batch_time(1795341600000)` is `\"2026-11-22T10:00:00Z\"`, and milliseconds are kept when there are " +
			"any (`\"2026-11-22T10:00:00.123Z\"`). Negative values and values past the year 9999 are an error.",
		Parameters: []function.Parameter{
			function.Int64Parameter{
				Name:                "epoch_ms",
				MarkdownDescription: "Milliseconds since 1970-01-01T00:00:00Z; zero or more.",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *batchTimeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var ms int64
	if resp.Error = req.Arguments.Get(ctx, &ms); resp.Error != nil {
		return
	}
	ts, err := batchTime(ms)
	setFunctionResult(ctx, resp, ts, err)
}

// maxBatchTime is 9999-12-31T23:59:59.999Z, the last instant RFC 3339's
// four-digit year can write.
const maxBatchTime = 253402300799999

// batchTime formats epoch milliseconds as RFC 3339 in UTC; RFC3339Nano
// drops trailing zeros, so whole seconds print without a fraction.
func batchTime(ms int64) (string, *argumentError) {
	if ms < 0 {
		return "", argErr(0, fmt.Sprintf("The time %d is negative: the service's times are milliseconds since 1970, zero or more.", ms))
	}
	if ms > maxBatchTime {
		return "", argErr(0, fmt.Sprintf("The time %d is after the year 9999, which RFC 3339 cannot write: is it in microseconds or nanoseconds rather than milliseconds?", ms))
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano), nil
}
