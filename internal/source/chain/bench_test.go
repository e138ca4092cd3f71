package chain

import (
	"encoding/base64"
	"io"
	"os"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

// BenchmarkFind measures a whole chain run on a fake root, down to the image
// default: the cost the agent pays at every boot before anything else.
func BenchmarkFind(b *testing.B) {
	doc, err := os.ReadFile("../../../examples/worker-pxe/config.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		files map[string]string
	}{
		{"file", map[string]string{source.FilePath: string(doc)}},
		{"cmdline-data", map[string]string{
			CloudConfigPath: docForeignCloudConfig,
			CmdlinePath:     "BOOT_IMAGE=/vmlinuz ro quiet corium.config=data:;base64," + base64.StdEncoding.EncodeToString(doc) + " corium.config.sha256=" + sha(string(doc)),
		}},
		{"default", map[string]string{CloudConfigPath: docForeignCloudConfig, CmdlinePath: "ro quiet", DefaultPath: string(doc)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opts := Options{Root: fakeRoot(b, bc.files), Logger: slogTo(io.Discard)}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := Find(b.Context(), opts); err != nil || res.Source == "" {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
