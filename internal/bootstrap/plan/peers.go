package plan

// PeerChange is what a wireguard-peers action does to a running device:
// it adds the peers Add names, each from its [Peer] section of the file at
// Conf (written before the action runs), and removes the peers Remove
// names, touching no other peer. Render chooses it when a change on an again
// run is only whole peers added or removed, because a syncconf sets every
// peer of the file again, replacing each one's allowed IPs (see
// render.PeerDelta). It holds public keys only: what a preshared key an
// added peer has stays in the file.
type PeerChange struct {
	Interface string `json:"interface"`
	Conf      string `json:"conf"`
	Add       []Key  `json:"add,omitempty"`
	Remove    []Key  `json:"remove,omitempty"`
}

// Words is the change as plans, logs and the status file show it: the
// interface, then add=KEY and remove=KEY pairs.
func (c PeerChange) Words() []string {
	words := []string{c.Interface}
	for _, k := range c.Add {
		words = append(words, "add="+k.String())
	}
	for _, k := range c.Remove {
		words = append(words, "remove="+k.String())
	}
	return words
}
