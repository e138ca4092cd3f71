// Command guestd is the guest's end of the VM test's command channel: it
// answers requests (test/vm/wire) on a virtio-serial port, running commands
// as root and opening or dialling TCP ports for the guard's checks. It is
// test equipment, installed into each test VM's disk with a unit of its own,
// and not part of the Corium image.
//
// The port reads as end-of-file while the host end is not connected (before
// the test dials its socket, or after it hung up), so guestd opens it again
// after a short pause, for as long as the guest runs.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/corium/corium-agent/test/vm/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: guestd /dev/virtio-ports/"+wire.PortName)
		os.Exit(2)
	}
	for {
		if err := serve(os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, "guestd:", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// serve answers requests until the host end hangs up.
func serve(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var req wire.Request
		resp := wire.Response{}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Err = "decoding the request: " + err.Error()
		} else {
			resp = handle(req)
		}
		line, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

func handle(req wire.Request) wire.Response {
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = time.Minute
	}
	var resp wire.Response
	switch req.Op {
	case wire.OpExec, "":
		resp = run(req.Argv, req.Stdin, timeout)
	case wire.OpListen:
		resp = listen(req.Ports)
	case wire.OpDial:
		resp = dial(req.Addr, req.From, timeout)
	default:
		resp.Err = "unknown op " + req.Op
	}
	resp.ID = req.ID
	return resp
}
