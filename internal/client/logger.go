package client

import "context"

// Logger receives structured log entries. The provider adapts it onto tflog
// (subsystem "client"), which keeps Terraform imports out of this package.
// Entries never carry credentials: the client logs no headers and no bodies.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Info(context.Context, string, map[string]any)  {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}
