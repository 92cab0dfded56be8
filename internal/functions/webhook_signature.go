package functions

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = &webhookSignatureFunction{}

// NewWebhookSignature returns provider::rms::webhook_signature.
func NewWebhookSignature() function.Function { return &webhookSignatureFunction{} }

type webhookSignatureFunction struct{}

func (f *webhookSignatureFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "webhook_signature"
}

func (f *webhookSignatureFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The X-RMS-Signature header value a webhook delivery carries, for receivers that verify deliveries.",
		MarkdownDescription: "Computes the `X-RMS-Signature` header of a webhook delivery: `\"v1=\"` followed by the lower-case " +
			"hexadecimal HMAC-SHA256, keyed with the webhook's secret, of the `X-RMS-Timestamp` value, a full stop, and the raw " +
			"request body (see the service conventions guide). Use it to produce test vectors for a receiver, or to check a " +
			"captured delivery. A receiver compares the header with this value in constant time and rejects timestamps more " +
			"than five minutes old.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "secret",
				MarkdownDescription: "The webhook's signing secret; must not be empty.",
			},
			function.StringParameter{
				Name:                "timestamp",
				MarkdownDescription: "The delivery's `X-RMS-Timestamp` header: Unix seconds, in decimal digits (a number is accepted too).",
			},
			function.StringParameter{
				Name:                "body",
				MarkdownDescription: "The raw request body, byte for byte as delivered (not re-encoded JSON).",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *webhookSignatureFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var secret, timestamp, body string
	if resp.Error = req.Arguments.Get(ctx, &secret, &timestamp, &body); resp.Error != nil {
		return
	}
	sig, err := webhookSignature(secret, timestamp, body)
	setFunctionResult(ctx, resp, sig, err)
}

// webhookSignature implements the signing scheme of the service conventions
// guide: "v1=" + hex(HMAC_SHA256(secret, timestamp + "." + body)).
func webhookSignature(secret, timestamp, body string) (string, *argumentError) {
	if secret == "" {
		return "", argErr(0, "The secret is empty: a webhook without a secret sends no signature, so there is nothing to compute.")
	}
	if _, err := strconv.ParseUint(timestamp, 10, 64); err != nil {
		return "", argErr(1, fmt.Sprintf("The timestamp %q is not Unix seconds in decimal digits, which is what the X-RMS-Timestamp header carries (e.g. \"1795341600\").", timestamp))
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "." + body))
	return "v1=" + hex.EncodeToString(mac.Sum(nil)), nil
}
