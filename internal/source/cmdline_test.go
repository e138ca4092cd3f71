package source

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCmdline(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"BOOT_IMAGE=/vmlinuz  ro\tquiet\n", []string{"BOOT_IMAGE=/vmlinuz", "ro", "quiet"}},
		{`a "b c" d`, []string{"a", "b c", "d"}},
		{`k="v w" x`, []string{"k=v w", "x"}},
		{`"k=v w"x y`, []string{"k=v wx", "y"}},
		{`k="unterminated value`, []string{"k=unterminated value"}},
		{`k=""`, []string{"k="}},
		{"", nil},
	} {
		if got := splitCmdline(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitCmdline(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestCmdlineLastWins(t *testing.T) {
	args := parseCmdline(`corium.config=/first corium.config.wait=1m quiet corium.config="/second path" corium.config.wait=5m`)
	if v, _ := args.get(ParamConfig); v != "/second path" {
		t.Errorf("corium.config = %q, want the last one", v)
	}
	if v, _ := args.get(ParamWait); v != "5m" {
		t.Errorf("corium.config.wait = %q, want the last one", v)
	}
	if _, ok := args.get(ParamSHA256); ok {
		t.Error("corium.config.sha256 found where there is none")
	}
}

func TestDecodeDataURL(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"data:,a%20b%0Ac", "a b\nc", ""},
		{"DATA:,plain", "plain", ""},
		{"data:;base64,aGk=", "hi", ""},
		{"data:;base64,aGk", "hi", ""},
		{"data:;base64,aG%6B=", "hi", ""},
		{"data:,bad%zz", "", "percent-escape"},
		{"data:;base64,a", "", "invalid base64"},
		{"data:text/plain", "", "no comma"},
	} {
		got, err := decodeDataURL(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
