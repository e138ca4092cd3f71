package chain

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

// pinnedLine pins doc at the path the operator's boot entry names.
func pinnedLine(doc string) string {
	return "BOOT_IMAGE=/vmlinuz corium.config=/run/corium/node.yaml corium.config.sha256=" + sha(doc) + " quiet\n"
}

// A pin binds the node: an earlier source holding another corium block
// (user-data from a forgeable metadata server, a stray file) is a failure
// naming both sources and what to do, never a silent win over the pin.
func TestPinBindsAgainstAnEarlierBlock(t *testing.T) {
	for _, tc := range []struct {
		name, path, doc, source, names, remedy string
		outcomes                               string
	}{
		{"cloud-init", CloudConfigPath, docCloudInit, NameCloudInit, "cloud-init's user-data (" + CloudConfigPath + ")", "remove the corium: key from the instance's user-data",
			NameFile + "=absent " + NameCloudInit + "=failed"},
		{"/etc/corium/config.yaml", source.FilePath, docFile, NameFile, source.FilePath, "remove the corium block from " + source.FilePath,
			NameFile + "=failed"},
		// Off by one byte is another document.
		{"the pinned document with a byte added", source.FilePath, docCmdline + "\n", NameFile, source.FilePath, "remove the corium block from " + source.FilePath,
			NameFile + "=failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, log, err := find(t, fakeRoot(t, map[string]string{
				CmdlinePath:             pinnedLine(docCmdline),
				"/run/corium/node.yaml": docCmdline,
				tc.path:                 tc.doc,
				DefaultPath:             docDefault,
			}))
			if err == nil {
				t.Fatalf("the chain ran %s over the pin; tried %s", res.Source, outcomes(res))
			}
			if res.Source != "" || res.Data != nil {
				t.Errorf("a conflicting chain returned source %q", res.Source)
			}
			if got := outcomes(res); got != tc.outcomes {
				t.Errorf("tried %s\nwant  %s", got, tc.outcomes)
			}
			last := res.Tried[len(res.Tried)-1]
			for _, want := range []string{tc.names, "corium.config=/run/corium/node.yaml with corium.config.sha256=" + sha(docCmdline),
				tc.remedy, "or drop corium.config.sha256= from the kernel command line"} {
				if !strings.Contains(err.Error(), want) || !strings.Contains(last.Reason, want) {
					t.Errorf("error %q / reason %q lacks %q", err, last.Reason, want)
				}
			}
			if strings.Contains(err.Error(), sha(tc.doc)) {
				t.Errorf("the other document's digest is shown: %v", err)
			}
			if strings.Contains(err.Error(), "fix or remove it") {
				t.Errorf("a conflict is not a broken source: %v", err)
			}
			if res.Pin != sha(docCmdline) {
				t.Errorf("result pin %q, want the command line's", res.Pin)
			}
			if !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "pins the configuration") {
				t.Errorf("the log does not show the pin and the failure:\n%s", log)
			}
		})
	}
}

// The very bytes of the pinned document elsewhere are no rival: recorded as
// ignored, and the pinned source runs. That includes a pin on
// /etc/corium/config.yaml itself.
func TestPinIgnoresTheSameDocument(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    map[string]string
		outcomes string
	}{
		{"a copy in /etc/corium/config.yaml", map[string]string{
			CmdlinePath: pinnedLine(docCmdline), "/run/corium/node.yaml": docCmdline, source.FilePath: docCmdline},
			NameFile + "=ignored " + NameCloudInit + "=absent " + NameCmdline + "=used"},
		{"the pin names /etc/corium/config.yaml", map[string]string{
			CmdlinePath: "corium.config=" + source.FilePath + " corium.config.sha256=" + sha(docCmdline), source.FilePath: docCmdline},
			NameFile + "=ignored " + NameCloudInit + "=absent " + NameCmdline + "=used"},
		{"cloud-init's cloud-config is the pinned document", map[string]string{
			CmdlinePath: "corium.config=data:," + pctEncode(docCloudInit) + " corium.config.sha256=" + sha(docCloudInit), CloudConfigPath: docCloudInit},
			NameFile + "=absent " + NameCloudInit + "=ignored " + NameCmdline + "=used"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files[DefaultPath] = docDefault
			res, _, err := find(t, fakeRoot(t, tc.files))
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if got := outcomes(res); got != tc.outcomes {
				t.Errorf("tried %s\nwant  %s", got, tc.outcomes)
			}
			if res.Source != NameCmdline || res.Pin == "" {
				t.Errorf("source %q pin %q, want the pinned command line", res.Source, res.Pin)
			}
			for _, a := range res.Tried {
				if a.Outcome == Ignored && !strings.Contains(a.Reason, "the very document the kernel command line pins") {
					t.Errorf("%s ignored with %q", a.Source, a.Reason)
				}
			}
		})
	}
}

// With the pin and no other block, the pinned document runs, in every form,
// over the image default; without a pin the first block still wins.
func TestPinRunsThePinnedDocument(t *testing.T) {
	srv := serve(t, false, docCmdline)
	for _, tc := range []struct {
		name, line string
		files      map[string]string
		source     string
		data       string
	}{
		{"pinned path", pinnedLine(docCmdline), map[string]string{"/run/corium/node.yaml": docCmdline}, NameCmdline, docCmdline},
		{"pinned data:", "corium.config=data:," + pctEncode(docCmdline) + " corium.config.sha256=" + sha(docCmdline), nil, NameCmdline, docCmdline},
		{"pinned http", "corium.config=" + srv.URL + "/c.yaml corium.config.sha256=" + sha(docCmdline), nil, NameCmdline, docCmdline},
		{"no pin: the file still wins", "corium.config=/run/corium/node.yaml", map[string]string{"/run/corium/node.yaml": docCmdline, source.FilePath: docFile}, NameFile, docFile},
		{"no pin: cloud-init still wins", "corium.config=data:," + pctEncode(docCmdline), map[string]string{CloudConfigPath: docCloudInit}, NameCloudInit, docCloudInit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{CmdlinePath: tc.line, DefaultPath: docDefault}
			for k, v := range tc.files {
				files[k] = v
			}
			res, log, err := find(t, fakeRoot(t, files))
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if res.Source != tc.source || string(res.Data) != tc.data {
				t.Errorf("source %q data %q, want %q %q", res.Source, res.Data, tc.source, tc.data)
			}
			if pinned := strings.Contains(tc.line, "sha256="); pinned != (res.Pin != "") || pinned != strings.Contains(log, "pins the configuration") {
				t.Errorf("pin %q, log:\n%s", res.Pin, log)
			}
		})
	}
}

// Every form is bound: a block before a pinned URL or data: document is a
// conflict too, found before anything is fetched, and named without the
// URL's query string.
func TestPinBindsEveryForm(t *testing.T) {
	srv := serve(t, false, docCmdline)
	for _, tc := range []struct{ name, value, shown string }{
		{"http", srv.URL + "/c.yaml?X-Sig=SIGNATURE-9c1e", srv.URL + "/c.yaml"},
		{"https", "https://192.0.2.1/c.yaml?X-Sig=SIGNATURE-9c1e", "https://192.0.2.1/c.yaml"},
		{"data:", "data:," + pctEncode(docCmdline), "data:..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, log, err := find(t, fakeRoot(t, map[string]string{
				CmdlinePath:     "corium.config=" + tc.value + " corium.config.sha256=" + sha(docCmdline),
				CloudConfigPath: docCloudInit,
			}))
			if err == nil || !strings.Contains(err.Error(), "corium.config="+tc.shown+" with") || !strings.Contains(err.Error(), "cloud-init's user-data") {
				t.Fatalf("err %v, tried %s", err, outcomes(res))
			}
			if strings.Contains(err.Error()+log, "SIGNATURE") || strings.Contains(err.Error()+log, "from-cmdline") {
				t.Errorf("a secret or the inline document is shown:\n%v\n%s", err, log)
			}
		})
	}
	if n := srv.hits(); n != 0 {
		t.Errorf("the pinned URL was fetched %d times although the chain already failed", n)
	}
}

// A pin that cannot bind (malformed, cut, without corium.config= beside it,
// or pinning a document without a corium block) fails: neither an earlier
// block nor the image default runs in its place.
func TestPinBrokenFailsBeforeAnySource(t *testing.T) {
	cutPin := cutAt(atLimit(t, source.MaxCmdline+30, "corium.config=/run/corium/node.yaml", "corium.config.sha256="+sha(docCmdline)))
	for _, tc := range []struct {
		name, line string
		files      map[string]string
		reason     string
	}{
		{"not hex", "corium.config=/run/corium/node.yaml corium.config.sha256=xyz", map[string]string{source.FilePath: docFile}, "64 hex digits"},
		{"the pin cut", cutPin, map[string]string{CloudConfigPath: docCloudInit}, "corium.config.sha256= runs to the end"},
		{"no corium.config=", "quiet corium.config.sha256=" + sha(docCmdline), map[string]string{source.FilePath: docFile}, "corium.config= is not on the kernel command line to name it"},
		{"no corium.config=, default only", "corium.config.sha256=" + sha(docCmdline), nil, "add corium.config= naming the document, or drop the pin"},
		{"a bad wait", "corium.config=/run/corium/node.yaml corium.config.sha256=" + sha(docCmdline) + " corium.config.wait=5", map[string]string{source.FilePath: docFile}, "not a Go duration"},
		{"a relative path", "corium.config=node.yaml corium.config.sha256=" + sha(docCmdline), map[string]string{CloudConfigPath: docCloudInit}, "relative path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{CmdlinePath: tc.line, DefaultPath: docDefault}
			for k, v := range tc.files {
				files[k] = v
			}
			res, _, err := find(t, fakeRoot(t, files))
			if err == nil {
				t.Fatalf("ran %s with a broken pin", res.Source)
			}
			if got := outcomes(res); got != NameCmdline+"=failed" {
				t.Errorf("tried %s, want the command line to fail before any source", got)
			}
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("error %q, want %q", err, tc.reason)
			}
		})
	}

	// The pinned document is there and matches, but holds no block.
	res, _, err := find(t, fakeRoot(t, map[string]string{
		CmdlinePath: "corium.config=data:," + pctEncode(docForeignCloudConfig) + " corium.config.sha256=" + sha(docForeignCloudConfig),
		DefaultPath: docDefault,
	}))
	if err == nil || !strings.Contains(err.Error(), "cloud-config has no corium key, and corium.config.sha256= pins this document") {
		t.Errorf("a pinned document without a block: err %v, source %q", err, res.Source)
	}
}
