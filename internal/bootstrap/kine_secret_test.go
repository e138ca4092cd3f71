package bootstrap

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
)

// kineDemoConfig is the demo controller on a shared PostgreSQL database,
// its datasource read from a file under the root.
func kineDemoConfig(t *testing.T) string {
	return editedDemoConfig(t, "join:\n", "storage:\n  type: kine\n  dataSourceFrom: {file: /run/corium/secrets/kine-dsn}\njoin:\n")
}

func writeDSN(t *testing.T, root rootfs.Root, dsn string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root.Dir(), "/run/corium/secrets/kine-dsn"), []byte(dsn+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// kine's datasource is resolved like every secret, written into k0s.yaml
// alone (0600), and its password shows in no plan, log or status, neither
// on a first boot nor on an again run after a rotation, where the old one is on
// disk.
func TestKineDataSourceIsASecret(t *testing.T) {
	const (
		oldPw = "Kn3-oldPw-8Qx"
		newPw = "Kn3-newPw-2Lm"
	)
	dsn := func(pw string) string { return "postgres://k0s:" + pw + "@db.example:5432/k0s?sslmode=require" }
	config := kineDemoConfig(t)
	root := newDemoRoot(t)
	writeDSN(t, root, dsn(oldPw))
	var shown []string

	o := demoOptions(root, nil)
	o.ConfigFile, o.Resolver = config, nil
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	js, _ := json.Marshal(rep)
	shown = append(shown, string(js))
	if !strings.Contains(string(js), "dataSource: [redacted]") {
		t.Errorf("plan does not show the datasource's line masked:\n%s", js)
	}

	var log bytes.Buffer
	o = demoOptions(root, &log)
	o.ConfigFile = config
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	stJS, _ := json.Marshal(st)
	shown = append(shown, log.String(), string(stJS))
	conf, err := os.ReadFile(filepath.Join(root.Dir(), "/etc/k0s/k0s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), "dataSource: "+dsn(oldPw)) {
		t.Errorf("k0s.yaml lacks the resolved datasource:\n%s", conf)
	}
	if info, _ := os.Stat(filepath.Join(root.Dir(), "/etc/k0s/k0s.yaml")); info.Mode().Perm() != 0o600 {
		t.Errorf("k0s.yaml has mode %04o", info.Mode().Perm())
	}

	// The again run changes kine's part of k0s.yaml, so the plan diffs it, the
	// datasource's line in view, against the file holding the old one.
	writeDSN(t, root, dsn(newPw))
	patched, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	config = filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, append(patched, "k0s: {patch: {spec: {storage: {kine: {extraArgs: {slow-sql-threshold: 2s}}}}}}\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	o = demoOptions(root, nil)
	o.ConfigFile, o.Resolver, o.Again = config, nil, true
	rep, err = Plan(context.Background(), o)
	if err != nil {
		t.Fatalf("plan --again: %v", err)
	}
	js, _ = json.Marshal(rep)
	shown = append(shown, string(js))
	if !strings.Contains(string(js), "dataSource: [redacted]") || !strings.Contains(string(js), "+         slow-sql-threshold: 2s") {
		t.Errorf("plan --again does not show k0s.yaml's change beside the datasource, masked:\n%s", js)
	}

	log.Reset()
	o = demoOptions(root, &log)
	o.ConfigFile, o.Again = config, true
	st, err = Run(context.Background(), o)
	if err != nil {
		t.Fatalf("apply --again: %v", err)
	}
	stJS, _ = json.Marshal(st)
	shown = append(shown, log.String(), string(stJS))
	if conf, _ := os.ReadFile(filepath.Join(root.Dir(), "/etc/k0s/k0s.yaml")); !strings.Contains(string(conf), dsn(newPw)) {
		t.Errorf("the again run did not write the rotated datasource:\n%s", conf)
	}

	for _, out := range shown {
		for _, pw := range []string{oldPw, newPw, "db.example"} {
			if strings.Contains(out, pw) {
				t.Errorf("an output shows %s:\n%s", pw, out)
			}
		}
	}
}

// A resolved datasource kine would keep on this controller alone is refused
// before the first write, naming the field and the source, never the URL.
func TestKineLocalDataSourceRefusedBeforeAnyWrite(t *testing.T) {
	root := newDemoRoot(t)
	writeDSN(t, root, "sqlite:///var/lib/k0s/db/Kn3-local-5Vw.db")
	before := snapshot(t, root)
	var log bytes.Buffer
	o := demoOptions(root, &log)
	o.ConfigFile = kineDemoConfig(t)
	st, err := Run(context.Background(), o)
	if err == nil {
		t.Fatal("applied")
	}
	stJS, _ := json.Marshal(st)
	for _, out := range []string{err.Error(), log.String(), string(stJS)} {
		if strings.Contains(out, "Kn3-local") || strings.Contains(out, "sqlite://") {
			t.Errorf("an output shows the datasource:\n%s", out)
		}
	}
	if !strings.Contains(err.Error(), "storage.dataSourceFrom: the datasource read from /run/corium/secrets/kine-dsn is not a postgres://, postgresql:// or mysql:// URL") {
		t.Errorf("error: %v", err)
	}
	sameTree(t, before, snapshot(t, root))
}
