package logging

import "os"

// The plugin SDK's loggers (terraform-plugin-go, terraform-plugin-framework)
// and the provider's own tflog logger default to TRACE when their variables
// are unset: every request then formats dozens of JSON log lines, writes
// them to the plugin's stderr, and Terraform parses and drops them unless
// TF_LOG or TF_LOG_PROVIDER asks for provider logs. On a plan of 1,000
// contacts that was half of the CPU time of provider and Terraform
// together (BENCHMARKS.md; terraform-plugin-framework#1269).

// logLevelVariables are the variables that set the plugin-side log levels.
var logLevelVariables = []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// quietUnreadLogs switches the plugin-side loggers off when Terraform will
// not keep provider logs: neither TF_LOG nor TF_LOG_PROVIDER is set (so
// Terraform's provider log level is off). A variable already set is left
// as it is, and nothing changes in debug mode, where the logs go to the
// developer's terminal rather than through Terraform.
func quietUnreadLogs(debug bool, lookup func(string) (string, bool), set func(key, value string) error) error {
	if debug {
		return nil
	}
	for _, k := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		if v, ok := lookup(k); ok && v != "" {
			return nil
		}
	}
	for _, k := range logLevelVariables {
		if v, ok := lookup(k); ok && v != "" {
			continue
		}
		if err := set(k, "OFF"); err != nil {
			return err
		}
	}
	return nil
}

// QuietUnreadLogs applies quietUnreadLogs to this process; main calls it
// before it serves the provider.
func QuietUnreadLogs(debug bool) error {
	return quietUnreadLogs(debug, os.LookupEnv, os.Setenv)
}
