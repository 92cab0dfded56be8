// Package profile writes a CPU profile of the provider process when
// RMS_CPU_PROFILE asks for one, and a heap profile of its peak when
// RMS_MEM_PROFILE does, for contributors measuring the provider
// (BENCHMARKS.md).
//
// It is a leaf called by package main: it imports nothing of this module
// and no Terraform package.
package profile
