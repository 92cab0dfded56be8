package emulator

import "strings"

// retiredReason reports whether tail (the path below /rest/{customerid}/) is
// a retired path or lies under one, and the reason to answer with. The
// longest matching entry wins, so "campaigns/5" can carry its own reason under
// a retired "campaigns".
func (s *Server) retiredReason(tail string) (string, bool) {
	tail = strings.Trim(tail, "/")
	best, reason := -1, ""
	for path, why := range s.opts.Retired {
		p := strings.Trim(path, "/")
		if p == "" {
			continue
		}
		if (tail == p || strings.HasPrefix(tail, p+"/")) && len(p) > best {
			best, reason = len(p), why
		}
	}
	return reason, best >= 0
}
