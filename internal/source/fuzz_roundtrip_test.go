package source

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// quoteArg spells one token for the kernel command line: quoted when it
// holds whitespace or is empty.
func quoteArg(tok string) string {
	if tok == "" || strings.ContainsAny(tok, " \t\n\r") {
		return `"` + tok + `"`
	}
	return tok
}

// FuzzCmdlineRoundTrip: splitting is stable (tokens written back as a
// command line split into the same tokens), and the last occurrence of a
// parameter is the one parseCmdline keeps.
func FuzzCmdlineRoundTrip(f *testing.F) {
	for _, s := range []string{
		`BOOT_IMAGE=/vmlinuz root=UUID=1 ro corium.config=/etc/a.yaml corium.config="/etc/b c.yaml"`,
		`corium.config="data:,role: worker" corium.config.wait=5m corium.config.sha256=ab`,
		`a"b c"d e`,
		`"" x= =y ==`,
		"\t\n\r ",
		"corium.config=\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		toks := splitCmdline(line)
		quoted := make([]string, len(toks))
		for i, tok := range toks {
			quoted[i] = quoteArg(tok)
		}
		again := splitCmdline(strings.Join(quoted, " "))
		if strings.Join(again, "\x00") != strings.Join(toks, "\x00") || len(again) != len(toks) {
			t.Fatalf("split %q -> %q, written back and split again -> %q", line, toks, again)
		}
		args := parseCmdline(line)
		last := map[string]string{}
		for _, tok := range toks {
			k, v, _ := strings.Cut(tok, "=")
			last[k] = v
		}
		for k, v := range last {
			if got, ok := args.get(k); !ok || got != v {
				t.Fatalf("%s: got %q, want the last occurrence %q", k, got, v)
			}
		}
	})
}

// FuzzDataURL: any data: URL decodes or fails without quoting its payload
// (the whole configuration, join material included).
func FuzzDataURL(f *testing.F) {
	for _, s := range []string{
		"data:,role%3A%20worker%0A",
		"data:;base64,cm9sZTogd29ya2VyCg==",
		"data:;base64,cm9sZTogd29ya2VyCg",
		"DATA:text/plain;charset=utf-8;BASE64,cm9sZTogd29ya2VyCg==",
		"data:;base64,%63m9sZTogd29ya2VyCg==",
		"data:;base64,cm9sZTogd29ya2VyC=g=",
		"data:%zz,",
		"data:no-comma",
		"data:,%",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		_, err := decodeDataURL(raw)
		if err == nil {
			return
		}
		_, payload, ok := strings.Cut(raw, ",")
		if ok && len(payload) >= 8 && strings.Contains(err.Error(), payload) {
			t.Fatalf("the error quotes the payload: %v", err)
		}
	})
}

// FuzzDataURLRoundTrip: any bytes survive being written as a data: URL in
// every form the chain accepts (percent-escaped, base64 with and without
// padding).
func FuzzDataURLRoundTrip(f *testing.F) {
	f.Add([]byte("role: worker\njoin:\n  token: abc\n"))
	f.Add([]byte{0, 0xff, ',', '%', '+', '/', '='})
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, raw := range []string{
			"data:," + url.PathEscape(string(doc)),
			"data:application/yaml;base64," + base64.StdEncoding.EncodeToString(doc),
			"data:;base64," + base64.RawStdEncoding.EncodeToString(doc),
			"data:;base64," + url.PathEscape(base64.StdEncoding.EncodeToString(doc)),
		} {
			got, err := decodeDataURL(raw)
			if err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			if !bytes.Equal(got, doc) {
				t.Fatalf("%s decoded to %q, want %q", raw, got, doc)
			}
		}
	})
}
