//go:build !unix

package client

// maxRSS is not measured where getrusage is missing.
func maxRSS() int64 { return 0 }
