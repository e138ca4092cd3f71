package examples

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docs/pxe.md's budget of a line is measured, not estimated: its compact
// form of the PXE worker configures the same node as config.yaml, and
// cmdline prints for it the line, and the byte count, the page shows; the
// block-style row of the example is cmdline-data.txt's length.
func TestPXEBudgetIsMeasured(t *testing.T) {
	page := string(readRepo(t, "docs/pxe.md"))
	_, budget, ok := strings.Cut(page, "## The budget of a line")
	if !ok {
		t.Fatal("docs/pxe.md has no section on the budget of a line")
	}
	m := regexp.MustCompile("(?s)The example in the compact form:\n\n```yaml\n(.*?)```\n\nand the line `cmdline` prints for it, ([0-9,]+) bytes:\n\n```\n(.*?)\\.\\.\\.\n```").FindStringSubmatch(budget)
	if m == nil {
		t.Fatal("the budget section shows no compact form with the line cmdline prints for it")
	}
	compact, stated, shown := m[1], m[2], m[3]
	if got, want := load(t, []byte(compact)), load(t, readRepo(t, "examples/worker-pxe/config.yaml")); !reflect.DeepEqual(got, want) {
		t.Errorf("the compact form configures another node than examples/worker-pxe/config.yaml:\ncompact %+v\nconfig  %+v", got, want)
	}
	file := filepath.Join(t.TempDir(), "compact.yaml")
	if err := os.WriteFile(file, []byte(compact), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := runAgent(t, "cmdline", file)
	line := strings.TrimSuffix(out, "\n")
	if code != 0 || !strings.HasPrefix(line, shown) {
		t.Fatalf("cmdline on the compact form: exit %d, the page shows a line beginning\n%s\nit printed\n%s", code, shown, out)
	}
	if n, _ := strconv.Atoi(strings.ReplaceAll(stated, ",", "")); n != len(line) {
		t.Errorf("the page says the compact line takes %s bytes; cmdline printed %d", stated, len(line))
	}
	example := len(strings.TrimSpace(string(readRepo(t, "examples/worker-pxe/cmdline-data.txt"))))
	if want := "| 3 peers (the example) | " + fmt.Sprintf("%d,%03d", example/1000, example%1000) + " | " + stated + " |"; !strings.Contains(budget, want) {
		t.Errorf("the budget's example row is not %q", want)
	}
}
