package yamlfast

import (
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzParseMatchesYAMLv3: whatever Parse accepts, yaml.v3 reads as exactly
// one document with the same tree. The committed corpus holds the
// repository's YAML files, the tricky cases and generated subset documents.
func FuzzParseMatchesYAMLv3(f *testing.F) {
	for _, file := range repoYAML(f) {
		f.Add(mustRead(f, file))
	}
	for _, c := range trickyCases {
		f.Add([]byte(c.in))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		f.Add([]byte(subsetDoc(r)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A hang would only stall the fuzzer; a crash makes it keep the input.
		watchdog := time.AfterFunc(20*time.Second, func() { panic("one input took over 20s") })
		defer watchdog.Stop()
		check(t, "fuzz", data)
	})
}
