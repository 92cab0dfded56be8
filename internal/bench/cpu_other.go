//go:build !unix

package bench

import "time"

// selfCPU is not measured here.
func selfCPU() time.Duration { return 0 }
