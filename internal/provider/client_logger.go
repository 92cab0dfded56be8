package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const clientLogSubsystem = "client"

// clientLogger adapts client.Logger onto tflog's "client" subsystem, masking
// the password in messages and field values as a second line of defence:
// the client already logs no headers and no bodies.
type clientLogger struct {
	secrets []string
}

func newClientLogger(secrets ...string) clientLogger {
	var nonEmpty []string
	for _, s := range secrets {
		if s != "" {
			nonEmpty = append(nonEmpty, s)
		}
	}
	return clientLogger{secrets: nonEmpty}
}

func (l clientLogger) context(ctx context.Context) context.Context {
	ctx = tflog.NewSubsystem(ctx, clientLogSubsystem)
	ctx = tflog.SubsystemMaskMessageStrings(ctx, clientLogSubsystem, l.secrets...)
	ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, clientLogSubsystem, l.secrets...)
	return tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, clientLogSubsystem, "authorization", "password")
}

func (l clientLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.SubsystemDebug(l.context(ctx), clientLogSubsystem, msg, fields)
}

func (l clientLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.SubsystemInfo(l.context(ctx), clientLogSubsystem, msg, fields)
}

func (l clientLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.SubsystemWarn(l.context(ctx), clientLogSubsystem, msg, fields)
}

// providerLogger adapts client.Logger onto the provider's own tflog
// logger, for what the contact sync core (internal/contactsync) logs.
type providerLogger struct{}

func (providerLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(ctx, msg, fields)
}

func (providerLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(ctx, msg, fields)
}

func (providerLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(ctx, msg, fields)
}
