package systemd

import (
	"errors"
	"strings"
	"testing"
)

func TestJobErrorNamesUnitAndJournal(t *testing.T) {
	var err error = &JobError{Verb: "starting", Unit: "wg-quick@wg0.service", Result: "failed"}
	if !errors.Is(err, ErrJob) {
		t.Error("a job error does not match ErrJob")
	}
	for _, want := range []string{"starting wg-quick@wg0.service", "job failed", "journalctl -u wg-quick@wg0.service"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}
