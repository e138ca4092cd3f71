// Package wire is the VM test's command channel protocol, shared by the
// test (the host end) and guestd (the guest end): one JSON object a line
// each way over a virtio-serial port, a request answered by a response with
// its ID. It carries commands and their output, never a secret: the test's
// secrets reach a guest only as SMBIOS credentials.
package wire

// PortName is the virtio-serial port's name; udev links the guest's end at
// /dev/virtio-ports/PortName.
const PortName = "org.corium.vmtest"

// Ops a request can ask for.
const (
	OpExec   = "exec"   // run Argv, answer its combined output and exit code
	OpListen = "listen" // keep TCP listeners on Ports until the guest stops
	OpDial   = "dial"   // open a TCP connection to Addr, from From if set
)

// Dial results.
const (
	Connected = "connected" // the handshake completed and the listener answered
	Refused   = "refused"   // a reset came back: the port was reached, nothing listens
	NoAnswer  = "no answer" // nothing came back within the timeout: dropped
)

// Banner is what a listener of OpListen writes to each connection, so a
// connected dial knows it reached the test's listener and nothing else.
const Banner = "corium-vmtest\n"

// Request is one line from the host.
type Request struct {
	ID        int64    `json:"id"`
	Op        string   `json:"op"`
	Argv      []string `json:"argv,omitempty"`
	Stdin     []byte   `json:"stdin,omitempty"`
	TimeoutMS int64    `json:"timeoutMs,omitempty"`
	Ports     []int    `json:"ports,omitempty"`
	Addr      string   `json:"addr,omitempty"`
	From      string   `json:"from,omitempty"`
}

// Response is one line from the guest.
type Response struct {
	ID     int64  `json:"id"`
	Output []byte `json:"output,omitempty"`
	Exit   int    `json:"exit"`
	// Err is why the op could not be carried out at all (a command that
	// would not start, a port that would not listen).
	Err  string `json:"err,omitempty"`
	Dial string `json:"dial,omitempty"`
}
