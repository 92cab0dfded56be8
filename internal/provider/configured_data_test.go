package provider

import (
	"testing"
	"time"
)

func TestBatchesPollInterval(t *testing.T) {
	t.Parallel()
	if got := (&providerData{batchPollInterval: time.Minute}).batches().PollInterval; got != time.Minute {
		t.Errorf("interval = %s, want the configured 1m", got)
	}
	if got := (&providerData{}).batches().PollInterval; got != defaultBatchPollInterval {
		t.Errorf("interval without configuration = %s, want %s", got, defaultBatchPollInterval)
	}
}
