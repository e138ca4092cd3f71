package netns

import (
	"runtime"

	vnetns "github.com/vishvananda/netns"
)

// Do runs f on an OS thread switched into the namespace, so the sockets f
// opens (listeners, dials, netlink) live there. The thread is discarded
// instead of reused if it cannot be switched back.
func (n *Netns) Do(f func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		orig, err := vnetns.Get()
		if err != nil {
			errc <- err
			return
		}
		defer orig.Close()
		h, err := vnetns.GetFromName(n.Name)
		if err != nil {
			errc <- err
			return
		}
		defer h.Close()
		if err := vnetns.Set(h); err != nil {
			errc <- err
			return
		}
		err = f()
		if vnetns.Set(orig) == nil {
			runtime.UnlockOSThread()
		}
		errc <- err
	}()
	return <-errc
}
