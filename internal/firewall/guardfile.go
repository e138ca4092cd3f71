package firewall

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/corium/corium-agent/internal/status"
)

// The rendered guard lives here, under the root, so the boot-time unit can
// re-apply it without the config or its secrets.
const (
	FilePath = status.Dir + "/firewall.json"
	FileMode = 0o600
	DirMode  = 0o700
)

// fileVersion changes when the file's meaning changes. Version 2 added the
// CNI's pod interfaces and tunnels; version 1 trusted a pod source wherever
// the route back to it pointed, which the default route made "anywhere".
//
// The cluster endpoint, the pod masquerade and a dual-stack cluster's IPv6
// pod range (ipv6PodCIDR) came later, within version 2:
// written only when a guard has them, they change nothing a version-2 reader
// knows. A guard without them writes the very bytes an agent before them
// did, which such an agent (an image rolled back) keeps reading; one with
// them, it refuses as an unknown field, failing closed as it would on a
// newer version. What a file without them cannot say is whether its agent
// knew them: status compares the file with what the applied configuration
// renders now.
const fileVersion = 2

// file is the on-disk shape: the guard plus a version, so a later agent can
// tell an old file from a corrupt one.
type file struct {
	Version int `json:"version"`
	Guard
}

// File is the guard as written to FilePath: indented JSON, fields in a fixed
// order, so an unchanged guard rewrites to identical bytes.
func (g Guard) File() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	g.FileVersion = 0
	if err := enc.Encode(file{Version: fileVersion, Guard: g}); err != nil {
		panic(err) // plain strings and ints always encode
	}
	return buf.Bytes()
}

// ParseFile reads a guard written by File, refusing unknown fields and an
// unknown version rather than guessing at a partial guard.
//
// A version-1 file, left by an older agent on a node that since booted a new
// image, still loads, so k0s comes up guarded: its guard fails closed on pod
// sources (accepted on no interface but lo and the overlay) until `apply
// --again` renders it again. Outdated says so, for show and status.
func ParseFile(data []byte) (Guard, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return Guard{}, fmt.Errorf("decoding the guard: %w", err)
	}
	switch f.Version {
	case fileVersion:
	case 1:
		if f.CNI != "" || len(f.PodInterfaces)+len(f.Tunnels) > 0 {
			return Guard{}, fmt.Errorf("version 1 has no cni, podInterfaces or tunnels; re-render it with this agent (corium-agent apply --again)")
		}
		if f.Endpoint != nil || f.Masquerade {
			return Guard{}, fmt.Errorf("version 1 has no endpoint or masquerade; re-render it with this agent (corium-agent apply --again)")
		}
		f.Guard.FileVersion = 1
	default:
		return Guard{}, fmt.Errorf("version %d is not %d; re-render it with this agent (corium-agent apply --again)", f.Version, fileVersion)
	}
	if err := f.Guard.Check(); err != nil {
		return Guard{}, err
	}
	return f.Guard, nil
}
