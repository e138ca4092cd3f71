package schema

import (
	"fmt"
	"strings"
	"testing"
)

// mergeBomb is a cloud-config whose ignored x-shared key anchors a mapping
// of k keys (k0: v, ...), which the block then takes m times in the shape
// use writes: a merge key naming it m times, m mappings merging it, or m
// aliases of it.
func mergeBomb(k, m int, use func(b *strings.Builder, m int)) []byte {
	var b strings.Builder
	b.WriteString("#cloud-config\nx-shared: &s\n")
	for i := range k {
		fmt.Fprintf(&b, "  k%d: v\n", i)
	}
	b.WriteString("corium:\n  role: single\n")
	use(&b, m)
	return []byte(b.String())
}

// aliases writes m aliases of the anchor as a flow list.
func aliases(m int) string {
	return "[" + strings.TrimSuffix(strings.Repeat("*s, ", m), ", ") + "]"
}

// The shapes that take one mapping many times, with where its keys land.
var bombShapes = []struct {
	name string
	use  func(b *strings.Builder, m int)
}{
	{"node merges it m times", func(b *strings.Builder, m int) {
		b.WriteString("  node:\n    <<: " + aliases(m) + "\n")
	}},
	{"m peers merge it", func(b *strings.Builder, m int) {
		b.WriteString("  wireguard:\n    - name: wg0\n      address: 10.10.0.1/24\n      peers:\n")
		for range m {
			b.WriteString("        - <<: *s\n")
		}
	}},
	{"m peers alias it", func(b *strings.Builder, m int) {
		b.WriteString("  wireguard:\n    - name: wg0\n      address: 10.10.0.1/24\n      peers: " + aliases(m) + "\n")
	}},
}

// decodeCounting reads a document and counts the nodes its decoding visits.
func decodeCounting(t *testing.T, data []byte) (*Document, int) {
	t.Helper()
	tree, err := ReadTree(data, false)
	if err != nil {
		t.Fatal(err)
	}
	doc := tree.Document()
	d := &decoder{block: doc.block}
	d.decode(doc.block, reflectValue(&Config{}))
	return doc, d.decoded
}

// A mapping of k unknown keys taken m times is k findings, one per key at
// its line, and the budget's: not k·m. Merges and aliases are charged to one
// budget, so the nodes visited stay within it, a bound linear in the
// document.
func TestMergeBombOfUnknownKeysIsLinear(t *testing.T) {
	const k, m = 1000, 1000
	for _, shape := range bombShapes {
		t.Run(shape.name, func(t *testing.T) {
			data := mergeBomb(k, m, shape.use)
			doc, visited := decodeCounting(t, data)
			if budget := 4*countNodes(doc.block) + 1000; visited > budget+1 {
				t.Errorf("%d nodes visited, over the budget of %d", visited, budget)
			}
			fs := Validate(doc)
			unknown, budget := 0, 0
			lines := map[int]bool{}
			for _, f := range fs {
				switch {
				case strings.Contains(f.Message, "unknown key"):
					unknown++
					if lines[f.Line] {
						t.Fatalf("line %d reported twice: %s", f.Line, f)
					}
					lines[f.Line] = true
				case strings.Contains(f.Message, "the document expands too many aliases; write the values out"):
					budget++
				}
			}
			if unknown != k || budget != 1 || len(fs) != k+1 {
				t.Errorf("%d findings, %d of them unknown keys and %d the budget's; want %d unknown keys and the budget's only",
					len(fs), unknown, budget, k)
			}
		})
	}
}

// A label map of k keys merged m times decodes the k labels once and
// charges every merge that follows with the keys it brings: the budget runs
// out, instead of k·m keys looked up.
func TestMergeBombOfLabelsIsLinear(t *testing.T) {
	const k, m = 3000, 3000
	data := mergeBomb(k, m, func(b *strings.Builder, m int) {
		b.WriteString("  node:\n    labels:\n      <<: " + aliases(m) + "\n")
	})
	doc, visited := decodeCounting(t, data)
	if budget := 4*countNodes(doc.block) + 1000; visited > budget+1 {
		t.Errorf("%d nodes visited, over the budget of %d", visited, budget)
	}
	if len(doc.Findings) != 1 || !strings.Contains(doc.Findings[0].Message, "the document expands too many aliases") {
		t.Errorf("findings %v, want the budget's only", doc.Findings)
	}
	if got := len(doc.Config.Node.Labels); got != k {
		t.Errorf("%d labels decoded, want the %d of the first mapping merged", got, k)
	}
}

// A mapping that merges the same few keys a handful of times, as an
// operator might, stays within the budget: merging is a feature.
func TestMergesWithinReasonStayValid(t *testing.T) {
	data := mergeBomb(5, 50, func(b *strings.Builder, m int) {
		b.WriteString("  node:\n    labels:\n      <<: " + aliases(m) + "\n")
	})
	_, fs := mustValidate(t, string(data))
	if len(fs) != 0 {
		t.Errorf("findings: %v", fs)
	}
}

func BenchmarkMergeBomb(b *testing.B) { benchValidate(b, mergeBomb(1000, 1000, bombShapes[0].use)) }

// benchValidate measures Parse and Validate of one document.
func benchValidate(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	cpu := startCPU()
	for b.Loop() {
		doc, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		Validate(doc)
	}
	cpu.report(b)
}

// manyMerged is a label map merging m mappings of one label each, every
// label refused: m findings, each placed at its line in the mapping merged.
func manyMerged(m int) []byte {
	var b strings.Builder
	b.WriteString("#cloud-config\nx:\n")
	for i := range m {
		fmt.Fprintf(&b, "  a%d: &a%d {\"-bad%d\": v}\n", i, i, i)
	}
	b.WriteString("corium:\n  role: single\n  node:\n    labels:\n      <<: [")
	for i := range m {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "*a%d", i)
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

// Placing a finding under a mapping that merges many others looks the key
// up in one index of them all.
func TestFindingsUnderManyMergedMappingsArePlaced(t *testing.T) {
	const m = 2000
	_, fs := mustValidate(t, string(manyMerged(m)))
	if len(fs) != m {
		t.Fatalf("%d findings, want %d", len(fs), m)
	}
	for i, f := range fs {
		if want := fmt.Sprintf(`node.labels["-bad%d"]`, i); f.Path != want || f.Line != i+3 || f.Col != 10+2*len(fmt.Sprint(i)) {
			t.Fatalf("finding %d: %s at %d:%d, want %s at line %d", i, f, f.Line, f.Col, want, i+3)
		}
	}
}

func BenchmarkFindingsUnderManyMergedMappings(b *testing.B) { benchValidate(b, manyMerged(20_000)) }
