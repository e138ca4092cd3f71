package lab

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestKeepalivedReadsAuthPass holds keepalived to the agent's rule on the
// VRRP password (schema.VRRPPassword): through k0s's template, keepalived
// reads every printable ASCII character the rule takes, at the start, in
// the middle and at the end of a password, as it is; and a password with
// one of the characters the rule refuses is read as another, or not at
// all, for the reason the rule gives. What keepalived read is its
// --dump-conf at startup (k0s passes it with --debug,
// cmd/controller/controller.go:313, cplb_linux.go:145-147).
func TestKeepalivedReadsAuthPass(t *testing.T) {
	t.Parallel()
	requireLab(t)
	host.RequireRoot(t, keepalivedBinary)
	ns := newNamespace(t, "lka")
	ns.Run(t, "ip", "link", "add", "eth0", "type", "veth", "peer", "name", "eth1")
	ns.Run(t, "ip", "link", "set", "eth0", "up")
	dir := t.TempDir()

	var taken []string
	var chars []byte
	for c := byte('!'); c <= '~'; c++ {
		if schema.VRRPPassword(string(c)) {
			chars = append(chars, c)
		}
	}
	for i := 0; i < len(chars); i += 6 {
		word := string(chars[i:min(i+6, len(chars))])
		taken = append(taken, word[:1]+"x"+word[1:]) // each at the start, inside, at the end
	}
	taken = append(taken, "pässwd")
	got := keepalivedReads(t, ns, dir, "taken", taken)
	for i, pass := range taken {
		if got[i] != pass {
			t.Errorf("keepalived reads %q as %q", pass, got[i])
		}
	}

	refused := []string{"Qz7 Xw9", "Qz7\tXw9", "Qz7#Xw9", "Qz7!Xw9", `Qz7"Xw9`, "Qz7{Xw9", "Qz7}Xw9", "$_RANDOM", "${_PWD}", `\`}
	for i, pass := range refused {
		if schema.VRRPPassword(pass) {
			t.Errorf("%q: the rule takes it", pass)
		}
		// One run each: a brace breaks the rest of the file.
		got := keepalivedReads(t, ns, dir, fmt.Sprintf("refused-%d", i), []string{pass})
		if got[0] == pass {
			t.Errorf("keepalived reads %q as it is: the rule refuses it for nothing", pass)
		} else {
			t.Logf("keepalived reads %q as %q", pass, got[0])
		}
	}
}

// keepalivedReads renders one VRRP instance a password through k0s's
// template on eth0 of ns, starts keepalived with --dump-conf and returns
// the password it reports for each instance ("" for none), in order.
func keepalivedReads(t *testing.T, ns *netns.Netns, dir, name string, passes []string) []string {
	t.Helper()
	in := make([]k0sVRRPInstance, len(passes))
	for i, p := range passes {
		in[i] = k0sVRRPInstance{VirtualIPs: []string{fmt.Sprintf("192.0.2.%d/24", 100+i)}, AuthPass: p}
	}
	if err := k0sVRRPDefaults(in, "eth0"); err != nil {
		t.Fatal(err)
	}
	conf, err := executeK0sKeepalivedTemplate(in, 6443)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".conf")
	if err := os.WriteFile(path, []byte(conf), 0o400); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pids := filepath.Join(dir, name)
	cmd := keepalivedCmd(ctx, ns, path, pids, "--dump-conf")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// The VRRP child dumps its topology, each instance as "VRRP Instance =
	// k0s-vip-N" and, if it has one, "Password = ...", then its interfaces.
	got := make([]string, len(passes))
	seen, inst := 0, -1
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.Contains(sc.Text(), "------< Interfaces >------") {
		line := sc.Text()
		if _, v, ok := strings.Cut(line, "VRRP Instance = k0s-vip-"); ok {
			seen++
			if _, err := fmt.Sscanf(v, "%d", &inst); err != nil {
				inst = -1
			}
		} else if _, v, ok := strings.Cut(line, "   Password = "); ok && inst >= 0 && inst < len(got) {
			got[inst] = v
		}
	}
	if seen == 0 {
		t.Logf("%s: keepalived dumped no instance (the file is broken)", name)
	}
	return got
}

// TestKeepalivedReadsInterfaceName: k0s writes the VRRP interface's name
// unquoted too (cplb_templates.go:17); keepalived reads a name the kernel
// takes with a character of schema.KeepalivedBreaks as another and refuses
// the file, and one without as it is. The agent refuses the first
// (ha.interface's rule, and render's ChooseVRRP for a name it finds).
func TestKeepalivedReadsInterfaceName(t *testing.T) {
	t.Parallel()
	requireLab(t)
	host.RequireRoot(t, keepalivedBinary)
	ns := newNamespace(t, "lki")
	dir := t.TempDir()
	for i, name := range []string{"e-0", "e#0", "e!0", "e$_PWD", "e{0"} {
		ns.Run(t, "ip", "link", "add", name, "type", "veth", "peer", "name", fmt.Sprintf("p%d", i))
		ns.Run(t, "ip", "link", "set", name, "up")
		in := []k0sVRRPInstance{{VirtualIPs: []string{"192.0.2.100/24"}, Interface: name, AuthPass: "Qz7Xw9"}}
		if err := k0sVRRPDefaults(in, "eth0"); err != nil {
			t.Fatal(err)
		}
		conf, err := executeK0sKeepalivedTemplate(in, 6443)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("if%d.conf", i))
		if err := os.WriteFile(path, []byte(conf), 0o400); err != nil {
			t.Fatal(err)
		}
		out, err := ns.Try(keepalivedBinary, "--config-test", "--use-file", path, "--log-console", "--no-syslog")
		taken := !strings.ContainsAny(name, schema.KeepalivedBreaks)
		switch {
		case taken && err != nil:
			t.Errorf("%q: keepalived -t refuses it: %v\n%s", name, err, out)
		case !taken && err == nil:
			t.Errorf("%q: keepalived -t accepts it: the rule refuses it for nothing", name)
		case !taken:
			t.Logf("%q: keepalived -t refuses it: %s", name, strings.TrimSpace(out))
		}
	}
}
