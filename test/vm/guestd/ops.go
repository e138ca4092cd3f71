package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/corium/corium-agent/test/vm/wire"
)

// run is OpExec: the command's combined output and exit code.
func run(argv []string, stdin []byte, timeout time.Duration) wire.Response {
	if len(argv) == 0 {
		return wire.Response{Err: "no command"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	// A command that leaves a child holding its output must not hang the
	// channel past its timeout.
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	resp := wire.Response{Output: out}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		resp.Exit, resp.Err = -1, fmt.Sprintf("timed out after %v", timeout)
	case errors.As(err, &exit):
		resp.Exit = exit.ExitCode()
	case err != nil:
		resp.Exit, resp.Err = -1, err.Error()
	}
	return resp
}

var (
	listenMu  sync.Mutex
	listeners = map[int]net.Listener{}
)

// listen is OpListen: a listener on every address for each port, answering
// each connection with the banner, kept until the guest stops.
func listen(ports []int) wire.Response {
	listenMu.Lock()
	defer listenMu.Unlock()
	for _, p := range ports {
		if listeners[p] != nil {
			continue
		}
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			return wire.Response{Err: err.Error()}
		}
		listeners[p] = l
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				_, _ = io.WriteString(c, wire.Banner)
				_ = c.Close()
			}
		}()
	}
	return wire.Response{}
}

// dial is OpDial: whether a TCP connection to addr (from the local address
// from, when set) reaches a listener of OpListen, is refused, or gets no
// answer at all.
func dial(addr, from string, timeout time.Duration) wire.Response {
	d := net.Dialer{Timeout: timeout}
	if from != "" {
		ip := net.ParseIP(from)
		if ip == nil {
			return wire.Response{Err: "not an IP address: " + from}
		}
		d.LocalAddr = &net.TCPAddr{IP: ip}
	}
	c, err := d.Dial("tcp", addr)
	var nerr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return wire.Response{Dial: wire.Refused}
	case errors.As(err, &nerr) && nerr.Timeout():
		return wire.Response{Dial: wire.NoAnswer}
	case err != nil:
		return wire.Response{Err: err.Error()}
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	banner := make([]byte, len(wire.Banner))
	if _, err := io.ReadFull(c, banner); err != nil || string(banner) != wire.Banner {
		return wire.Response{Err: fmt.Sprintf("connected to %s, but not to the test's listener (%q, %v)", addr, banner, err)}
	}
	return wire.Response{Dial: wire.Connected}
}
