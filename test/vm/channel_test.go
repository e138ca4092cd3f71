package vm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/corium/corium-agent/test/vm/wire"
)

// channel is the host end of a guest's command channel: the unix socket
// QEMU listens on for the virtio-serial port guestd answers on.
type channel struct {
	mu   sync.Mutex
	conn net.Conn
	r    *bufio.Reader
	next int64
}

// dialChannel connects to QEMU's socket, which appears shortly after QEMU
// starts. Requests sent before guestd runs wait in the socket until the
// guest opens its end.
func dialChannel(path string, exited <-chan struct{}) (*channel, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.Dial("unix", path)
		if err == nil {
			return &channel{conn: conn, r: bufio.NewReaderSize(conn, 1<<20)}, nil
		}
		select {
		case <-exited:
			return nil, errors.New("qemu exited before its channel socket could be reached")
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("connecting to %s: %w", path, err)
		}
	}
}

// call sends one request and waits up to timeout for its response,
// skipping any answer to an earlier request that timed out.
func (c *channel) call(req wire.Request, timeout time.Duration) (wire.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	req.ID = c.next
	line, err := json.Marshal(req)
	if err != nil {
		return wire.Response{}, err
	}
	if err := c.conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		return wire.Response{}, err
	}
	if _, err := c.conn.Write(append(line, '\n')); err != nil {
		return wire.Response{}, fmt.Errorf("sending to the guest: %w", err)
	}
	for {
		b, err := c.r.ReadBytes('\n')
		if err != nil {
			return wire.Response{}, fmt.Errorf("waiting for the guest's answer: %w", err)
		}
		// The rest of a line cut by an earlier timeout does not decode;
		// like an earlier request's answer, it is not this one.
		var resp wire.Response
		if json.Unmarshal(b, &resp) == nil && resp.ID == req.ID {
			return resp, nil
		}
	}
}

func (c *channel) close() { _ = c.conn.Close() }
