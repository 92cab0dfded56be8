// Package acctest holds what the acceptance tests share: an emulator per
// test on 127.0.0.1, provider factories, configuration builders, a local
// Terraform CLI set-up that never downloads anything, and a raw HTTP helper
// for changes made "out of band" (drift), and a Garbler: a proxy in front
// of an emulator that lets it act and then spoils chosen answers, for tests
// of writes that succeeded but whose answer cannot be read, and an Outage:
// a proxy that makes the service go away (connections refused) and come
// back while the emulator and its batches go on behind it.
//
// It may import internal/emulator and internal/provider; neither may import
// it.
package acctest
