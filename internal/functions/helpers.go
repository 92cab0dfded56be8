package functions

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

// argumentError is what the pure logic of a provider function returns when
// one argument is unusable: which argument (zero-based) and why. Keeping the
// logic free of framework types lets it be unit-tested directly.
type argumentError struct {
	arg int64
	msg string
}

func (e *argumentError) Error() string { return e.msg }

func argErr(arg int64, msg string) *argumentError { return &argumentError{arg: arg, msg: msg} }

// setFunctionResult turns the pure logic's answer into the function's
// result, or into an error Terraform shows against the offending argument.
func setFunctionResult(ctx context.Context, resp *function.RunResponse, result string, err *argumentError) {
	if err != nil {
		resp.Error = function.NewArgumentFuncError(err.arg, err.msg)
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, result))
}
