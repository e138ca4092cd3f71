package bootstrap

import (
	"context"
	"testing"
)

// BenchmarkFirstBootDemo is a whole first boot of the demo node into a fresh
// root: source, validation, secrets, render and every atomic, fsynced write.
func BenchmarkFirstBootDemo(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		root := newDemoRoot(b)
		b.StartTimer()
		if _, err := Run(context.Background(), demoOptions(root, nil)); err != nil {
			b.Fatal(err)
		}
	}
}
