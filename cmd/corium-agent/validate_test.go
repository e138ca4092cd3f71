package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"gopkg.in/yaml.v3"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeConfig(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const warningConfig = `role: worker
join: {tokenFrom: {credential: corium.join}}
wireguard:
  - name: wg0
    address: 10.10.0.5/24
    privateKeyFrom: {credential: corium.wg0}
    peers:
      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=
        endpoint: hub.example.com:51820
        allowedIPs: [10.10.0.0/24]
`

var findingLine = regexp.MustCompile(`^[^:]+:\d+:\d+:( warning:)? [A-Za-z0-9_.\[\]"]+: [a-z0-9].*$`)

func TestValidateExitCodes(t *testing.T) {
	valid := writeConfig(t, "valid.yaml", "role: single\n")
	invalid := writeConfig(t, "invalid.yaml", "role: worker\nclustr: {}\n")
	syntax := writeConfig(t, "syntax.yaml", "role: worker\njoin:\n  token: [x\n")
	warn := writeConfig(t, "warn.yaml", warningConfig)
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"valid", []string{"validate", valid}, exitOK},
		{"invalid", []string{"validate", invalid}, exitFailed},
		{"syntax error", []string{"validate", syntax}, exitFailed},
		{"warnings only", []string{"validate", warn}, exitOK},
		{"warnings under --strict", []string{"validate", "--strict", warn}, exitFailed},
		{"--strict after the file", []string{"validate", warn, "--strict"}, exitFailed},
		{"one invalid among valid", []string{"validate", valid, invalid, valid}, exitFailed},
		{"unreadable file", []string{"validate", valid, missing}, exitUsage},
		{"unreadable beats invalid", []string{"validate", invalid, missing}, exitUsage},
		{"no files", []string{"validate"}, exitUsage},
		{"unknown flag", []string{"validate", "--bogus", valid}, exitUsage},
		{"unknown format", []string{"validate", "--format", "xml", valid}, exitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errOut)
			}
		})
	}
}

func TestValidateTextLines(t *testing.T) {
	file := writeConfig(t, "node.yaml", "role: worker\njoin: {token: "+fixture.JoinToken("")+"}\nwireguard:\n  - name: wg0\n    address: 10.10.0.5/24\n    mtu: 100\n    privateKeyFrom: {credential: c}\n    peers:\n      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=\n        endpoint: hub.example.com:1\n        allowedIPs: [10.10.0.0/24]\n")
	code, out, _ := runCLI(t, "validate", file)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	want := []string{
		file + ":4:3: warning: wireguard: no interface is marked nodeAddress",
		file + ":6:10: wireguard[0].mtu: must be at least 576",
		file + ":10:19: warning: wireguard[0].peers[0].endpoint: is a host name",
		file + ": invalid: 1 error and 2 warnings",
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, want[i]) {
			t.Errorf("line %d = %q, want prefix %q", i, l, want[i])
		}
		if !findingLine.MatchString(l) && i < len(want)-1 {
			t.Errorf("line %d is not FILE:LINE:COL: PATH: message: %q", i, l)
		}
	}
}

// A syntax error names the line and column of the text the parser could not
// read (yaml.v3 says line 2, where join: begins) and shows that line's shape.
func TestValidateSyntaxErrorNamesLine(t *testing.T) {
	file := writeConfig(t, "bad.yaml", "role: worker\njoin:\n  token: [x\n")
	_, out, _ := runCLI(t, "validate", file)
	want := file + ":3:11: yaml syntax: did not find expected ',' or ']'; the line reads \"  token: […\"\n" + file + ": invalid: 1 error\n"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestValidateJSON(t *testing.T) {
	valid := writeConfig(t, "valid.yaml", "#cloud-config\ncorium:\n  role: single\n")
	invalid := writeConfig(t, "invalid.yaml", "role: worker\nversion: 3\n")
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	code, out, _ := runCLI(t, "validate", "--format", "json", valid, invalid, missing)
	if code != exitUsage {
		t.Errorf("exit %d, want 2 (an unreadable file)", code)
	}
	var got struct {
		Files []struct {
			File     string `json:"file"`
			Valid    bool   `json:"valid"`
			Shape    string `json:"shape"`
			Error    string `json:"error"`
			Findings []struct {
				Path     string `json:"path"`
				Line     int    `json:"line"`
				Col      int    `json:"col"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			} `json:"findings"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(got.Files) != 3 {
		t.Fatalf("files: %+v", got.Files)
	}
	v, inv, miss := got.Files[0], got.Files[1], got.Files[2]
	if !v.Valid || v.Shape != "embedded" || len(v.Findings) != 0 {
		t.Errorf("valid file: %+v", v)
	}
	if inv.Valid || len(inv.Findings) != 2 {
		t.Fatalf("invalid file: %+v", inv)
	}
	if f := inv.Findings[0]; f.Path != "join" || f.Severity != "error" {
		t.Errorf("first finding %+v, want join error", f)
	}
	if f := inv.Findings[1]; f.Path != "version" || f.Line != 2 || f.Col != 10 || f.Message != "must be 1" {
		t.Errorf("second finding %+v, want version at 2:10", f)
	}
	if miss.Valid || miss.Error == "" || !strings.Contains(miss.Error, "missing.yaml") {
		t.Errorf("missing file: %+v", miss)
	}
}

// secretKeys hold inline secrets in the contract: the names of its
// secret.Value fields, as their secret tags find them.
var secretKeys = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range secret.Paths(reflect.TypeFor[schema.Config](), "yaml") {
		if p.Type == reflect.TypeFor[*secret.Value]() || p.Type == reflect.TypeFor[secret.Value]() {
			out[p.Names[len(p.Names)-1]] = true
		}
	}
	return out
}()

// inlineSecrets collects every scalar under a secret key, however the
// document nests it.
func inlineSecrets(n *yaml.Node, under bool, out map[string]bool) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			inlineSecrets(c, under, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			inlineSecrets(n.Content[i+1], under || secretKeys[n.Content[i].Value], out)
		}
	case yaml.ScalarNode:
		if under && len(n.Value) >= 6 {
			out[n.Value] = true
		}
	}
}

// No output of validate, text or JSON, quotes an inline secret, however
// broken the document around it.
func TestValidateNeverPrintsSecrets(t *testing.T) {
	for _, k := range []string{"privateKey", "presharedKey", "token", "authPass"} {
		if !secretKeys[k] {
			t.Fatalf("%s is not among the inline secret keys %v", k, secretKeys)
		}
	}
	files, _ := filepath.Glob("../../testdata/invalid/*.yaml")
	more, _ := filepath.Glob("../../testdata/valid/*.yaml")
	files = append(files, more...)
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var root yaml.Node
		if yaml.Unmarshal(data, &root) != nil {
			continue
		}
		secrets := map[string]bool{}
		inlineSecrets(&root, false, secrets)
		if len(secrets) == 0 {
			continue
		}
		for _, format := range []string{"text", "json"} {
			_, out, errOut := runCLI(t, "validate", "--format", format, file)
			for s := range secrets {
				if strings.Contains(out+errOut, s) || strings.Contains(out, jsonEscaped(s)) {
					t.Errorf("%s (%s): output quotes a secret", filepath.Base(file), format)
				}
			}
		}
		checked += len(secrets)
	}
	if checked < 20 {
		t.Errorf("only %d inline secrets in testdata; the check proves little", checked)
	}
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// SIGTERM (the context main cancels) ends a long validation at once, with
// exit 1 and a line saying it stopped, not a verdict on the file.
func TestValidateStopsOnTermination(t *testing.T) {
	var b strings.Builder
	b.WriteString("role: single\nnode:\n  labels:\n")
	for i := range 300_000 {
		fmt.Fprintf(&b, "    -bad%d: v\n", i)
	}
	file := writeConfig(t, "large.yaml", b.String())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"validate", file, file}, &out, &errOut)
	if code != exitFailed || !strings.Contains(errOut.String(), "stopped") {
		t.Fatalf("exit %d, stderr %q; want 1 and a line saying validation stopped", code, errOut.String())
	}
	if strings.Contains(out.String(), "valid") || strings.Count(out.String(), "\n") > 0 {
		t.Errorf("a stopped validation printed a verdict:\n%.300s", out.String())
	}
}

// validate --for cmdline gives the warning a node gives for a document that
// arrives inline on its kernel command line; --strict makes it fatal.
func TestValidateForCmdlineWarnsOfInlineSecrets(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDocWithToken(fixture.JoinToken("")))
	code, out, _ := runCLI(t, "validate", file)
	if code != exitOK || strings.Contains(out, "/proc/cmdline") {
		t.Fatalf("without --for: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "validate", "--for", "cmdline", file)
	if code != exitOK || !strings.Contains(out, "warning: join.token: is an inline secret on the kernel command line") || strings.Contains(out, "privateKey") {
		t.Fatalf("--for cmdline: exit %d\n%s", code, out)
	}
	if code, _, _ = runCLI(t, "validate", "--strict", "--for", "cmdline", file); code != exitFailed {
		t.Errorf("--strict --for cmdline: exit %d, want 1", code)
	}
	if code, _, errOut := runCLI(t, "validate", "--for", "pxe", file); code != exitUsage || !strings.Contains(errOut, "cmdline") {
		t.Errorf("--for pxe: exit %d %q", code, errOut)
	}
}
