package applytest

import (
	"context"
	"strings"
	"sync"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/wgquick"
)

// RecordingPeers is an apply.WireGuardPeers that changes nothing and
// records each call as one line of text, a preshared key as "set" only:
// `addconf IF peer=KEY [presharedKey=set] ...` and `remove IF KEY ...`.
// Sent keeps the files handed to AddPeers as they were, for a test that
// checks what wg would have read.
type RecordingPeers struct {
	mu    sync.Mutex
	lines []string
	sent  [][]byte
	// Err fails every call.
	Err error
}

// AddPeers records the peers of conf.
func (r *RecordingPeers) AddPeers(_ context.Context, iface string, conf []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, append([]byte(nil), conf...))
	words := []string{"addconf", iface}
	if peers, err := wgquick.ParsePeers(conf); err != nil {
		words = append(words, "(not peer sections alone)")
	} else {
		for _, p := range peers {
			words = append(words, "peer="+p.PublicKey.String())
			if !p.PresharedKey.IsZero() {
				words = append(words, "presharedKey=set")
			}
		}
	}
	r.lines = append(r.lines, strings.Join(words, " "))
	return r.Err
}

// RemovePeers records the keys.
func (r *RecordingPeers) RemovePeers(_ context.Context, iface string, keys []plan.Key) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	words := []string{"remove", iface}
	for _, k := range keys {
		words = append(words, k.String())
	}
	r.lines = append(r.lines, strings.Join(words, " "))
	return r.Err
}

// Text is every recorded call, one per line.
func (r *RecordingPeers) Text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lines) == 0 {
		return ""
	}
	return strings.Join(r.lines, "\n") + "\n"
}

// Sent is each file AddPeers was handed, in order.
func (r *RecordingPeers) Sent() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.sent...)
}
