package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/corium/corium-agent/internal/k0s/rules"
	"github.com/corium/corium-agent/internal/systemd"
)

const unitDir = systemd.UnitDir

// writeUnit writes and enables the unit as `k0s install` does
// (pkg/install/service.go:56-95 in k0s, through kardianos/service): an
// existing unit is refused unless --force, which removes it first. The
// unit is the stand-in's: it records its start, then runs the stand-in with
// the arguments k0s would write into it.
func writeUnit(inv *rules.Invocation, cwd string) (string, error) {
	name := "k0s" + inv.Role + ".service"
	path := filepath.Join(unitDir, name)
	wants := filepath.Join(unitDir, "multi-user.target.wants", name)
	if _, err := os.Lstat(path); err == nil {
		if !inv.Bool("force") {
			//lint:ignore ST1005 the text k0s itself prints (kardianos/service), which the boot test matches
			return "", fmt.Errorf("Init already exists: %s", path)
		}
		for _, p := range []string{wants, path} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
	}
	svc := inv.ServiceArgs(cwd)
	role, quoted := svc[0], quoteAll(svc[1:])
	var env strings.Builder
	for _, e := range inv.Env() {
		if !strings.Contains(e, "=") {
			e += "=" + os.Getenv(e) // cmd/install/util.go:17-31 in k0s
		}
		env.WriteString("Environment=" + quote(e) + "\n")
	}
	text := "# k0s STAND-IN unit for the boot test (written by the stand-in's install).\n" +
		"[Unit]\nDescription=k0s stand-in (" + role + ")\n" +
		"Wants=network-online.target\nAfter=network-online.target\n\n" +
		"[Service]\n" + env.String() +
		"# Recorded before the unit counts as started, so a test that sees it active\n" +
		"# also sees the record.\n" +
		"ExecStartPre=/usr/local/bin/k0s stand-in-record " + role + quoted + "\n" +
		"ExecStart=/usr/local/bin/k0s " + role + quoted + "\n\n" +
		"[Install]\nWantedBy=multi-user.target\n"
	if err := os.MkdirAll(filepath.Dir(wants), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", err
	}
	// Not synced, as k0s does not: a cut here leaves whatever the guest's
	// kernel had written back of the unit, and no link.
	holdAt(holdInstalling)
	if err := os.Symlink("../"+name, wants); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return name, nil
}

func quoteAll(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" " + quote(a))
	}
	return b.String()
}

// quote is one word of a unit's command line: double-quoted, with systemd's
// specifier (%) and variable ($) expansion escaped.
func quote(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$").Replace(s)
	return `"` + s + `"`
}
