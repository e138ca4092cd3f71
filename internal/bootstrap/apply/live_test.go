package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
)

func TestLiveHostDispatch(t *testing.T) {
	sd := &systemdtest.Fake{Behind: map[string]bool{"k0sworker.service": true}}
	guards := 0
	h := &LiveHost{Systemd: sd, Guard: func(context.Context) error { guards++; return nil }}
	ctx := context.Background()
	for _, a := range []plan.Action{
		{Kind: plan.ActionDaemonReload, Units: []string{"wg-quick@wg0.service", "k0sworker.service"}},
		{Kind: plan.ActionRestart, Unit: "wg-quick@wg0.service"},
		{Kind: plan.ActionStart, Unit: "wg-quick@wg0.service"},
		{Kind: plan.ActionReload, Unit: "wg-quick@wg0.service"},
		{Kind: plan.ActionStop, Unit: "wg-quick@wg1.service"},
		{Kind: plan.ActionQueueStart, Unit: "k0scontroller.service"},
		{Kind: plan.ActionFirewall},
	} {
		if err := h.Do(ctx, a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	want := "needs-reload wg-quick@wg0.service k0sworker.service\ndaemon-reload\nrestart wg-quick@wg0.service\nstart wg-quick@wg0.service\n" +
		"reload wg-quick@wg0.service\nstop wg-quick@wg1.service\nqueue-start k0scontroller.service"
	if sd.Text() != want || guards != 1 {
		t.Errorf("systemd calls:\n%s\nwant:\n%s\nguard applied %d times", sd.Text(), want, guards)
	}
	// Reloaded, nothing is behind any more: the same reload is skipped, and
	// says why.
	var skipped *Skipped
	if err := h.Do(ctx, plan.Action{Kind: plan.ActionDaemonReload, Units: []string{"k0sworker.service"}}); !errors.As(err, &skipped) || !strings.Contains(err.Error(), "k0sworker.service") {
		t.Errorf("a reload nothing needs: %v, want skipped naming the unit", err)
	}
	if err := h.Do(ctx, plan.Action{Kind: "reboot"}); err == nil {
		t.Error("an unknown action was accepted")
	}
	// A reload is never a start in disguise: wg1 was stopped above.
	if err := h.Do(ctx, plan.Action{Kind: plan.ActionReload, Unit: "wg-quick@wg1.service"}); err == nil || !strings.Contains(err.Error(), "not active") {
		t.Errorf("reload of a stopped unit: %v, want refused as not active", err)
	}
	sd.Fail = map[string]error{"start wg-quick@wg1.service": errors.New("job failed")}
	if err := h.Do(ctx, plan.Action{Kind: plan.ActionStart, Unit: "wg-quick@wg1.service"}); err == nil {
		t.Error("a failed start job was not reported")
	}
}

// The k0s binary is replaced by a stand-in on PATH that records its
// arguments; the real exec path is what runs.
func TestLiveHostRunsK0sInstall(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + record + "\n[ \"$K0S_STANDIN_FAIL\" = 1 ] && { echo 'unit exists, use --force' >&2; exit 1; }\nexit 0\n"
	if err := os.WriteFile(filepath.Join(dir, "k0s"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	h := &LiveHost{}
	args := []string{"k0s", "install", "worker", "--token-file", render.JoinTokenPath, "--labels=a=1,b=2"}
	if err := h.Do(context.Background(), plan.Action{Kind: plan.ActionK0sInstall, Args: args}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(record)
	if string(got) != strings.Join(args[1:], "\n")+"\n" {
		t.Errorf("k0s got %q", got)
	}
	t.Setenv("K0S_STANDIN_FAIL", "1")
	err := h.Do(context.Background(), plan.Action{Kind: plan.ActionK0sInstall, Args: args})
	if err == nil || !strings.Contains(err.Error(), "installing k0s") || !strings.Contains(err.Error(), "use --force") {
		t.Errorf("failure not reported with k0s's own words: %v", err)
	}
}
