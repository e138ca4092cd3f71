package source

import (
	"strings"
	"testing"
)

// A command line is measured whole, as the kernel keeps it, and split into
// the agent's parameters and the rest; a line of the agent's parameters
// alone has no rest to know.
func TestMeasureCmdline(t *testing.T) {
	doc := []byte("role: worker\n")
	ours := strings.Join(InlineParams(doc), " ")
	for _, tc := range []struct {
		name, line string
		want       CmdlineSize
	}{
		{"the agent's alone", ours + "\n", CmdlineSize{len(ours), len(ours), -1}},
		{"after the boot loader's", "BOOT_IMAGE=/vmlinuz root=UUID=2f1c " + ours,
			CmdlineSize{35 + len(ours), len(ours), 34}},
		{"among them, quoted, with a wait", `quiet ` + ours + ` corium.config.wait=30s console="ttyS0,115200n8"`,
			CmdlineSize{6 + len(ours) + 23 + 1 + 24, len(ours) + 23, 5 + 1 + 24}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MeasureCmdline(tc.line); got != tc.want {
				t.Errorf("MeasureCmdline = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Unpack measures the command line it reads, and only a command line.
func TestUnpackMeasuresTheCommandLine(t *testing.T) {
	line := "BOOT_IMAGE=/vmlinuz " + strings.Join(InlineParams([]byte("role: worker\n")), " ")
	d, err := Unpack([]byte(line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Cmdline == nil || d.Cmdline.Whole != len(line) || d.Cmdline.Rest != len("BOOT_IMAGE=/vmlinuz") {
		t.Errorf("Cmdline = %+v, want the whole line of %d bytes, 19 of them the rest", d.Cmdline, len(line))
	}
	if d, err := Unpack([]byte("role: worker\n")); err != nil || d.Cmdline != nil {
		t.Errorf("a document is no command line: %+v, %v", d.Cmdline, err)
	}
}
