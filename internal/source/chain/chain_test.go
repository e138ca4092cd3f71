package chain

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source"
)

// Documents the chain tests pass around; each names the source it sits in,
// so a test can tell which one won.
const (
	docFile      = "role: controller\ncluster:\n  name: from-file\n"
	docCloudInit = "#cloud-config\nssh_authorized_keys: [ssh-ed25519 AAAA]\ncorium:\n  role: single\n  cluster:\n    name: from-cloud-init\n"
	docCmdline   = "role: worker\ncluster:\n  name: from-cmdline\n"
	docDefault   = "role: single\ncluster:\n  name: from-default\n"
	// cloud-init without a corium: key, as on any cloud with unrelated user-data.
	docForeignCloudConfig = "#cloud-config\nhostname: box\n"
)

// fakeRoot makes a root in a temp dir holding files (node path → content).
// A value of dirMarker makes a directory where the file would be.
func fakeRoot(t testing.TB, files map[string]string) rootfs.Root {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		host := filepath.Join(dir, p)
		if content == dirMarker {
			if err := os.MkdirAll(host, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(host, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rootfs.New(dir)
}

const dirMarker = "\x00dir"

// find runs the chain and returns the result, the error and the log.
func find(t *testing.T, root rootfs.Root) (*Result, string, error) {
	t.Helper()
	var log bytes.Buffer
	res, err := Find(context.Background(), Options{Root: root, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if res == nil {
		t.Fatalf("Find returned a nil result (err %v)", err)
	}
	return res, log.String(), err
}

func outcomes(res *Result) string {
	parts := make([]string, len(res.Tried))
	for i, a := range res.Tried {
		parts[i] = a.Source + "=" + string(a.Outcome)
	}
	return strings.Join(parts, " ")
}

func TestChainPrecedence(t *testing.T) {
	all := map[string]string{
		source.FilePath: docFile,
		CloudConfigPath: docCloudInit,
		CmdlinePath:     "BOOT_IMAGE=/vmlinuz corium.config=data:," + pctEncode(docCmdline) + " quiet\n",
		DefaultPath:     docDefault,
	}
	without := func(drop ...string) map[string]string {
		m := map[string]string{}
		for k, v := range all {
			m[k] = v
		}
		for _, d := range drop {
			delete(m, d)
		}
		return m
	}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		source   string
		data     string
		outcomes string
	}{
		{"file beats the rest", all, NameFile, docFile,
			NameFile + "=used"},
		{"cloud-init beats cmdline and default", without(source.FilePath), NameCloudInit, docCloudInit,
			NameFile + "=absent " + NameCloudInit + "=used"},
		{"cmdline beats default", without(source.FilePath, CloudConfigPath), NameCmdline, docCmdline,
			NameFile + "=absent " + NameCloudInit + "=absent " + NameCmdline + "=used"},
		{"default last", without(source.FilePath, CloudConfigPath, CmdlinePath), NameDefault, docDefault,
			NameFile + "=absent " + NameCloudInit + "=absent " + NameCmdline + "=absent " + NameDefault + "=used"},
		{"none at all", map[string]string{}, "", "",
			NameFile + "=absent " + NameCloudInit + "=absent " + NameCmdline + "=absent " + NameDefault + "=absent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, log, err := find(t, fakeRoot(t, tc.files))
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if res.Source != tc.source || string(res.Data) != tc.data {
				t.Errorf("source %q data %q, want %q %q", res.Source, res.Data, tc.source, tc.data)
			}
			if got := outcomes(res); got != tc.outcomes {
				t.Errorf("tried %s\nwant  %s", got, tc.outcomes)
			}
			for _, a := range res.Tried {
				if a.Outcome == Absent && a.Reason == "" {
					t.Errorf("%s is absent without a reason", a.Source)
				}
				if !strings.Contains(log, "source="+a.Source) {
					t.Errorf("log does not record %s:\n%s", a.Source, log)
				}
			}
		})
	}
}

// Each absent case moves on to the next source, and says why.
func TestChainAbsentMovesOn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		source string // the absent one
		reason string
	}{
		{"file missing", nil, NameFile, "does not exist"},
		{"file empty", map[string]string{source.FilePath: ""}, NameFile, "is empty"},
		{"file whitespace", map[string]string{source.FilePath: " \n\t\n"}, NameFile, "is empty"},
		{"file is a cloud-config without corium", map[string]string{source.FilePath: docForeignCloudConfig}, NameFile, "cloud-config has no corium key"},
		{"cloud-init missing", nil, NameCloudInit, "does not exist"},
		{"cloud-init empty", map[string]string{CloudConfigPath: "\n"}, NameCloudInit, "is empty"},
		{"cloud-init without corium", map[string]string{CloudConfigPath: docForeignCloudConfig}, NameCloudInit, "cloud-config has no corium key"},
		{"cloud-init header only", map[string]string{CloudConfigPath: "#cloud-config\n"}, NameCloudInit, "cloud-config has no corium key"},
		{"cloud-init without header or corium", map[string]string{CloudConfigPath: "hostname: box\nrole: worker\n"}, NameCloudInit, "cloud-config has no corium key"},
		{"no /proc/cmdline", nil, NameCmdline, "does not exist"},
		{"key not on cmdline", map[string]string{CmdlinePath: "BOOT_IMAGE=/vmlinuz corium.configx=/a quiet\n"}, NameCmdline, "not on the kernel command line"},
		{"cmdline path missing", map[string]string{CmdlinePath: "corium.config=/run/corium/node.yaml\n"}, NameCmdline, "does not exist"},
		{"cmdline path empty", map[string]string{CmdlinePath: "corium.config=/run/corium/node.yaml\n", "/run/corium/node.yaml": ""}, NameCmdline, "is empty"},
		{"cmdline data cloud-config without corium", map[string]string{CmdlinePath: "corium.config=data:," + pctEncode(docForeignCloudConfig)}, NameCmdline, "cloud-config has no corium key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{DefaultPath: docDefault}
			for k, v := range tc.files {
				files[k] = v
			}
			res, log, err := find(t, fakeRoot(t, files))
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if res.Source != NameDefault {
				t.Fatalf("source %q, want the chain to move on to %s; tried %s", res.Source, NameDefault, outcomes(res))
			}
			a := attempt(t, res, tc.source)
			if a.Outcome != Absent || !strings.Contains(a.Reason, tc.reason) {
				t.Errorf("%s: %s %q, want absent with %q", tc.source, a.Outcome, a.Reason, tc.reason)
			}
			if !strings.Contains(log, tc.reason) {
				t.Errorf("the log does not say why %s was absent:\n%s", tc.source, log)
			}
		})
	}
}

// Each failure stops the chain although the default would have answered.
func TestChainFailureStops(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		link   [2]string // a symlink to make: node path, target
		source string
		reason string
	}{
		{"file is a directory", map[string]string{source.FilePath: dirMarker}, [2]string{}, NameFile, "is a directory"},
		{"file in a symlink loop", nil, [2]string{source.FilePath, "config.yaml"}, NameFile, "too many levels of symbolic links"},
		{"file where a directory should be", map[string]string{"/etc/corium": "x"}, [2]string{}, NameFile, "not a directory"},
		{"file YAML syntax error", map[string]string{source.FilePath: "role: [worker\n"}, [2]string{}, NameFile, "YAML syntax error: line 1"},
		{"file holds no block", map[string]string{source.FilePath: "hostname: box\n"}, [2]string{}, NameFile, `"hostname"`},
		{"file only comments", map[string]string{source.FilePath: "# role: worker\n"}, [2]string{}, NameFile, "only comments"},
		{"file is a list", map[string]string{source.FilePath: "- role: worker\n"}, [2]string{}, NameFile, "a list"},
		{"cloud-init YAML syntax error", map[string]string{CloudConfigPath: "#cloud-config\ncorium:\n  role: worker\n role: x\n"}, [2]string{}, NameCloudInit, "YAML syntax error: line"},
		{"cloud-init unreadable", map[string]string{CloudConfigPath: dirMarker}, [2]string{}, NameCloudInit, "is a directory"},
		{"cmdline YAML syntax error", map[string]string{CmdlinePath: "corium.config=data:,role:%20%5Bworker"}, [2]string{}, NameCmdline, "YAML syntax error"},
		{"cmdline path unreadable", map[string]string{CmdlinePath: "corium.config=/run/c.yaml", "/run/c.yaml": dirMarker}, [2]string{}, NameCmdline, "is a directory"},
		{"cmdline unknown scheme", map[string]string{CmdlinePath: "corium.config=ftp://h/c.yaml"}, [2]string{}, NameCmdline, `"ftp" URL`},
		{"cmdline relative path", map[string]string{CmdlinePath: "corium.config=c.yaml"}, [2]string{}, NameCmdline, "relative path"},
		{"cmdline empty value", map[string]string{CmdlinePath: "corium.config= quiet"}, [2]string{}, NameCmdline, "is empty"},
		{"http without digest", map[string]string{CmdlinePath: "corium.config=http://192.0.2.1/c.yaml"}, [2]string{}, NameCmdline, "plain http is refused"},
		{"digest mismatch on data", map[string]string{CmdlinePath: "corium.config=data:," + pctEncode(docCmdline) + " corium.config.sha256=" + strings.Repeat("ab", 32)}, [2]string{}, NameCmdline, "digest mismatch"},
		{"pinned path missing", map[string]string{CmdlinePath: "corium.config=/run/corium/node.yaml corium.config.sha256=" + sha(docCmdline)}, [2]string{}, NameCmdline, "pins the document"},
		{"digest mismatch on a path", map[string]string{CmdlinePath: "corium.config=/c.yaml corium.config.sha256=" + strings.Repeat("AB", 32), "/c.yaml": docCmdline}, [2]string{}, NameCmdline, "digest mismatch"},
		{"digest not hex", map[string]string{CmdlinePath: "corium.config=/c.yaml corium.config.sha256=xyz", "/c.yaml": docCmdline}, [2]string{}, NameCmdline, "64 hex digits"},
		{"wait not a duration", map[string]string{CmdlinePath: "corium.config=/c.yaml corium.config.wait=5", "/c.yaml": docCmdline}, [2]string{}, NameCmdline, "not a Go duration"},
		{"wait above an hour", map[string]string{CmdlinePath: "corium.config=/c.yaml corium.config.wait=61m", "/c.yaml": docCmdline}, [2]string{}, NameCmdline, "1h maximum"},
		{"wait negative", map[string]string{CmdlinePath: "corium.config=/c.yaml corium.config.wait=-1s", "/c.yaml": docCmdline}, [2]string{}, NameCmdline, "negative"},
		{"bad base64", map[string]string{CmdlinePath: "corium.config=data:;base64,!!!"}, [2]string{}, NameCmdline, "invalid base64"},
		{"data without comma", map[string]string{CmdlinePath: "corium.config=data:;base64"}, [2]string{}, NameCmdline, "no comma"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{DefaultPath: docDefault}
			for k, v := range tc.files {
				files[k] = v
			}
			root := fakeRoot(t, files)
			if tc.link[0] != "" {
				if _, err := root.Symlink(tc.link[0], tc.link[1]); err != nil {
					t.Fatal(err)
				}
			}
			res, log, err := find(t, root)
			if err == nil {
				t.Fatalf("Find succeeded with %s; want %s to fail and stop the chain", res.Source, tc.source)
			}
			if res.Source != "" || res.Data != nil {
				t.Errorf("a failed chain returned source %q", res.Source)
			}
			last := res.Tried[len(res.Tried)-1]
			if last.Source != tc.source || last.Outcome != Failed {
				t.Fatalf("tried %s; want it to end with %s=failed", outcomes(res), tc.source)
			}
			if !strings.Contains(last.Reason, tc.reason) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("reason %q / error %q, want %q in both", last.Reason, err, tc.reason)
			}
			if strings.Contains(err.Error(), root.Dir()) {
				t.Errorf("the error names the host path of the root: %v", err)
			}
			if !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "outcome=failed") {
				t.Errorf("the failure is not logged as an error:\n%s", log)
			}
		})
	}
}

func attempt(t *testing.T, res *Result, name string) Attempt {
	t.Helper()
	for _, a := range res.Tried {
		if a.Source == name {
			return a
		}
	}
	t.Fatalf("%s not tried; tried %s", name, outcomes(res))
	return Attempt{}
}

// pctEncode percent-encodes everything a kernel command line token cannot
// hold as is.
func pctEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c > ' ' && c < 0x7f && c != '%' && c != '"' && c != ',' {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
	}
	return b.String()
}
