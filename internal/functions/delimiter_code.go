package functions

import (
	"context"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var _ function.Function = &delimiterCodeFunction{}

// NewDelimiterCode returns provider::rms::delimiter_code.
func NewDelimiterCode() function.Function { return &delimiterCodeFunction{} }

type delimiterCodeFunction struct{}

func (f *delimiterCodeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "delimiter_code"
}

func (f *delimiterCodeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The decimal ASCII code of a column delimiter, as the service's list imports expect it.",
		MarkdownDescription: "Turns one delimiter character into the decimal ASCII code, as a string, that the service's " +
			"list import takes in its `delimiter` field: `delimiter_code(\",\")` is `\"44\"`, `delimiter_code(\";\")` is `\"59\"`, " +
			"`delimiter_code(\"\\t\")` is `\"9\"`, `delimiter_code(\"|\")` is `\"124\"`. The argument must be exactly one ASCII " +
			"character other than a line break; anything else is an error.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "character",
				MarkdownDescription: "The delimiter: exactly one ASCII character, e.g. `\",\"`, `\";\"`, `\"\\t\"` or `\"|\"`.",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *delimiterCodeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var char string
	if resp.Error = req.Arguments.Get(ctx, &char); resp.Error != nil {
		return
	}
	code, err := delimiterCode(char)
	setFunctionResult(ctx, resp, code, err)
}

// delimiterCode is the decimal ASCII code of a single-character delimiter.
// Line breaks are refused too: they end rows, so they can never separate
// columns.
func delimiterCode(char string) (string, *argumentError) {
	n := utf8.RuneCountInString(char)
	switch {
	case n == 0:
		return "", argErr(0, `The delimiter is empty: give exactly one character, such as "," or "\t".`)
	case n > 1:
		msg := fmt.Sprintf("The delimiter %q is %d characters long: give exactly one character, such as \",\" or \"\\t\".", char, n)
		if _, err := strconv.ParseUint(char, 10, 8); err == nil {
			msg += " If " + char + " is already a delimiter code, use it as it is, without this function."
		}
		return "", argErr(0, msg)
	}
	r, _ := utf8.DecodeRuneInString(char)
	switch {
	case r > utf8.RuneSelf-1:
		return "", argErr(0, fmt.Sprintf("The delimiter %q is not an ASCII character: the service takes the delimiter as a decimal ASCII code, so it must be one of the 128 ASCII characters.", char))
	case r == '\n' || r == '\r':
		return "", argErr(0, fmt.Sprintf("The delimiter %q is a line break, which ends rows and cannot separate columns: use a character such as \",\" or \"\\t\".", char))
	}
	// The client's rule is the one imports apply; the checks above only
	// word the common mistakes better.
	code, err := client.DelimiterCode(char)
	if err != nil {
		return "", argErr(0, "The delimiter "+err.Error()+".")
	}
	return code, nil
}
