package contactsync

import "context"

// What Record writes is decided once, by pendingLocked; Pending answers it
// without writing, so that a plan counts and names the very opt-outs its
// apply records (a REPLACE import's plan counts the opt-outs it copies
// into the suppression list, and its apply records what Pending returned).

// Pending are the opt-outs of outs that Record would write into the
// suppression list: merged by originalId, on the channels the list does
// not hold yet, in the order of outs. It lists the suppression list first
// if this run has not.
func (s *Suppression) Pending(ctx context.Context, outs []OptOut) ([]OptOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadLocked(ctx); err != nil {
		return nil, err
	}
	work := s.pendingLocked(outs)
	pending := make([]OptOut, 0, len(work))
	for _, w := range work {
		pending = append(pending, w.OptOut)
	}
	return pending, nil
}
