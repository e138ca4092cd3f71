package vm

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/source/sourcetest"
)

// kernelConfig is the kernel command line's corium parameters carrying doc
// inline, made as an operator makes them: by `corium-agent cmdline -`, which
// validates the document, pins its SHA-256 and refuses inline secrets.
func kernelConfig(t testing.TB, doc []byte) []string {
	t.Helper()
	cmd := exec.Command(built(t).Agent, "cmdline", "-")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("corium-agent cmdline: %v\n%s", err, stderr.String())
	}
	return strings.Fields(string(out))
}

// TestKernelConfigReadsBack checks the command's line against the agent's own
// source chain, without a VM: the line decodes to the document, with its
// pin verified, among the parameters a real boot carries.
func TestKernelConfigReadsBack(t *testing.T) {
	doc := []byte(controllerConfig(newCluster(t)))
	line := baseCmdline + " " + strings.Join(kernelConfig(t, doc), " ")
	if len(line) > 2047 {
		t.Errorf("the kernel command line is %d bytes; x86 takes 2047", len(line))
	}
	res, err := sourcetest.FindOnCmdline(t, line)
	if err != nil {
		t.Fatalf("the chain refuses the line: %v", err)
	}
	if res.Source != chain.NameCmdline || string(res.Data) != string(doc) {
		t.Fatalf("source %q with %q, want %q with the document", res.Source, res.Data, chain.NameCmdline)
	}
	if used := res.Tried[len(res.Tried)-1]; !strings.Contains(used.Reason, "sha256 verified") {
		t.Errorf("the line was used without its pin verified: %+v", used)
	}
}
