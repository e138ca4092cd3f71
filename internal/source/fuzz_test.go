package source

import (
	"strings"
	"testing"
)

// The command line and data: URLs come from outside (a boot loader, a PXE
// server): no input may crash the agent, and a decoded token never holds a
// quote or splits where no whitespace was.
func FuzzCmdline(f *testing.F) {
	for _, s := range []string{
		`corium.config="data:,role: worker" quiet`,
		`a "b c" d="e f`,
		"corium.config=data:;base64,cm9sZTogd29ya2VyCg== corium.config.sha256=00",
		"\"\"\t\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, tok := range splitCmdline(line) {
			if strings.Contains(tok, `"`) {
				t.Fatalf("token %q keeps a quote", tok)
			}
		}
		args := parseCmdline(line)
		if v, ok := args.get(ParamConfig); ok {
			_, _ = decodeDataURL(v)
		}
	})
}

func FuzzInspect(f *testing.F) {
	for _, s := range []string{"role: worker\n", "#cloud-config\ncorium:\n  role: single\n", "- a\n", "a: [", "&a x: *a\n"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, doc string, cloudConfig bool) {
		_, absent, err := Inspect([]byte(doc), cloudConfig)
		if absent != "" && err != nil {
			t.Fatalf("both absent (%s) and failed (%v)", absent, err)
		}
	})
}
