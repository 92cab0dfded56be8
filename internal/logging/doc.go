// Package logging sets the plugin-side log levels of the provider process
// before it serves: it switches off the loggers whose output Terraform would
// drop anyway, because formatting them cost half of the CPU time of large
// plans (BENCHMARKS.md).
//
// It is a leaf called by package main: it imports nothing of this module
// and no Terraform package (it works through environment variables only).
package logging
