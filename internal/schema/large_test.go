package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// manyKeys is a document of n keys under a free-form map, each line made by
// key(i): the 1 MiB remote cap holds about 75,000 of them.
func manyKeys(section string, n int, key func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("role: single\n" + section + "\n")
	for i := range n {
		fmt.Fprintf(&b, "    %s: v\n", key(i))
	}
	return []byte(b.String())
}

// Free-form maps are checked in linear time. yaml.v3's own decode of a map
// compares every pair of keys, and placing a finding scanned its mapping,
// so 200,000 keys took minutes; the bound here is far above what a linear
// check needs and far below what a quadratic one takes.
func TestLargeMapsAreCheckedInLinearTime(t *testing.T) {
	const n = 200_000
	for _, tc := range []struct {
		name     string
		doc      []byte
		findings int
	}{
		{"k0s.patch, every key one k0s refuses", manyKeys("k0s:\n  patch:", n, func(i int) string { return fmt.Sprintf("k%d", i) }), n},
		{"node.labels", manyKeys("node:\n  labels:", n, func(i int) string { return fmt.Sprintf("k%d", i) }), 0},
		{"node.labels, every key wrong", manyKeys("node:\n  labels:", n, func(i int) string { return fmt.Sprintf("-bad%d", i) }), n},
		{"k0s.patch, every key repeated and one k0s refuses", manyKeys("k0s:\n  patch:", n, func(i int) string { return fmt.Sprintf("k%d", i/2) }), n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan Findings, 1)
			go func() {
				doc, err := Parse(tc.doc)
				if err != nil {
					t.Error(err)
					done <- nil
					return
				}
				done <- Validate(doc)
			}()
			select {
			case fs := <-done:
				if len(fs) != tc.findings {
					t.Errorf("%d findings, want %d", len(fs), tc.findings)
				}
				for _, f := range fs[:min(len(fs), 3)] {
					if f.Line == 0 {
						t.Errorf("finding without a position: %s", f)
					}
				}
			case <-time.After(60 * time.Second):
				t.Fatal("checking the document took over a minute: not linear in its keys")
			}
		})
	}
}

// A hub's peers are checked in linear time too: rules that compare each
// peer with the document's other keys index them once.
func TestManyPeersAreCheckedInLinearTime(t *testing.T) {
	doc := bigConfig(t, 1, 20_000)
	done := make(chan error, 1)
	go func() { _, _, err := Load(doc); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("validating 20,000 peers took over a minute: not linear in the peers")
	}
}

// A termination signal ends a long validation at once: Check and
// LoadContext answer with the context's error while the check still runs.
func TestValidationStopsWhenTheContextEnds(t *testing.T) {
	doc := manyKeys("node:\n  labels:", 300_000, func(i int) string { return fmt.Sprintf("-bad%d", i) })
	for name, check := range map[string]func(context.Context) error{
		"Check":       func(ctx context.Context) error { _, _, err := Check(ctx, doc); return err },
		"LoadContext": func(ctx context.Context) error { _, _, err := LoadContext(ctx, doc); return err },
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		err := check(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the context's error before the check could finish", name, err)
		}
		ctx, cancel = context.WithCancel(context.Background())
		cancel()
		if err := check(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with an ended context: %v", name, err)
		}
	}
}

// BenchmarkValidateLargePatch reads a k0s.patch at the remote cap, every key
// one k0s refuses (as TestLargeMapsAreCheckedInLinearTime's): each is a
// finding, placed.
func BenchmarkValidateLargePatch(b *testing.B) {
	const n = 75_000
	data := manyKeys("k0s:\n  patch:", n, func(i int) string { return fmt.Sprintf("k%d", i) })
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		doc, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if fs := Validate(doc); len(fs) != n {
			b.Fatalf("%d findings, want %d", len(fs), n)
		}
	}
}
