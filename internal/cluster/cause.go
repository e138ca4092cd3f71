package cluster

import "strings"

// A root cause is an interface that is not the one its peers mean: its
// address or its key pair is another interface's. Every check after
// identity and keys then finds that interface's peers disagreeing with it,
// each finding correct given the documents and each pointing at a file
// that is right. Those findings follow from the cause: they are marked so,
// lose their printed fix, and come after it, and the causes come before
// every other finding (see arrange).

// explain records that f is not the interface its peers mean, for the
// finding just added at path.
func (c *check) explain(f *iface, path string) {
	if c.explained == nil {
		c.explained = map[string]Place{}
	}
	last := &c.findings[len(c.findings)-1]
	last.cause = true
	at := f.n.at(path)
	c.explained[ifaceKey(at.File, f.path().String())] = at
}

// ifaceKey names an interface by the file a place is in and its path.
func ifaceKey(file, path string) string { return file + "\x00" + path }

// followFrom marks the findings whose related places are in an explained
// interface. A finding at the interface itself, naming none, is its own
// (an MTU, a datastore) and is left as it is.
func (c *check) followFrom() {
	if len(c.explained) == 0 {
		return
	}
	for i := range c.findings {
		f := &c.findings[i]
		if f.cause {
			continue
		}
		for _, p := range f.Related {
			at, ok := c.explained[ifaceKey(p.File, ifacePath(p.Path))]
			if !ok {
				continue
			}
			f.FollowsFrom = &at
			f.Fix = ""
			f.Message += "; this follows from " + at.File + " " + at.Path + ": fix that first"
			break
		}
	}
}

// ifacePath is the interface part of a path: wireguard[0] of
// wireguard[0].peers[1].allowedIPs.
func ifacePath(path string) string {
	if !strings.HasPrefix(path, "wireguard[") {
		return ""
	}
	if i := strings.IndexByte(path, ']'); i > 0 {
		return path[:i+1]
	}
	return ""
}

// arrange puts the causes first, each followed by what follows from it,
// then every other finding, each group in the sorted order.
func (fs Findings) arrange() Findings {
	if !fs.anyCause() {
		return fs
	}
	follows := map[string]Findings{}
	for _, g := range fs {
		if g.FollowsFrom != nil {
			k := ifaceKey(g.FollowsFrom.File, g.FollowsFrom.Path)
			follows[k] = append(follows[k], g)
		}
	}
	out := make(Findings, 0, len(fs))
	for _, f := range fs {
		if f.cause {
			out = append(out, f)
			out = append(out, follows[ifaceKey(f.File, f.Path)]...)
		}
	}
	for _, f := range fs {
		if !f.cause && f.FollowsFrom == nil {
			out = append(out, f)
		}
	}
	return out
}

func (fs Findings) anyCause() bool {
	for _, f := range fs {
		if f.cause {
			return true
		}
	}
	return false
}
