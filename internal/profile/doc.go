// Package profile holds the settings of the provider process that concern
// its cost: a CPU profile when RMS_CPU_PROFILE asks for one, for
// contributors measuring the provider (BENCHMARKS.md), and the garbage
// collector's target (TuneGC).
//
// It is a leaf called by package main: it imports nothing of this module
// and no Terraform package.
package profile
