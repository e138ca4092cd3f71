package resolve

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/secret"

	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// plant makes a FIFO, a directory or a bound unix socket at dir/name.
func plant(t *testing.T, dir, name, kind string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "fifo":
		if err := unix.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	case "directory":
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
	case "socket":
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
	}
}

var kindWords = map[string]string{
	"fifo":      "is a named pipe (FIFO), not a regular file",
	"directory": "is a directory",
	"socket":    "is a socket, not a regular file",
}

// A FIFO used to block the open for ever, past waitFor and past the
// context: nothing but a final error at once will do, and the deadline here
// is only there to tell a hang from that error.
func TestNotARegularFileFailsAtOnce(t *testing.T) {
	for _, kind := range []string{"fifo", "directory", "socket"} {
		for _, as := range []string{"file", "authFile", "credential"} {
			t.Run(kind+" as "+as, func(t *testing.T) {
				g := newRig(t)
				creds := t.TempDir()
				srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "never"})
				var src secret.Source
				var want string
				switch as {
				case "file":
					plant(t, g.root.Dir(), "run/corium/wg0.key", kind)
					src, want = secret.Source{File: "/run/corium/wg0.key", WaitFor: "1h"}, "wireguard[0].privateKeyFrom: reading /run/corium/wg0.key: "
				case "authFile":
					plant(t, g.root.Dir(), "etc/corium/auth", kind)
					src, want = secret.Source{URL: srv.URL + "/t", AuthFile: "/etc/corium/auth", WaitFor: "1h"}, "wireguard[0].privateKeyFrom: reading authFile /etc/corium/auth: "
				case "credential":
					plant(t, creds, "corium.wg0", kind)
					src, want = secret.Source{Credential: "corium.wg0", WaitFor: "1h"}, "wireguard[0].privateKeyFrom: reading credential corium.wg0: "
				}
				want += kindWords[kind]
				r := g.resolver(WithFetch(trusting(srv.Server)), WithCredentialsDir(creds))

				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				done := make(chan error, 1)
				start := time.Now()
				go func() { _, err := r.Resolve(ctx, "wireguard[0].privateKeyFrom", src); done <- err }()
				var err error
				select {
				case err = <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("Resolve blocked past its context's deadline")
				}
				if took := time.Since(start); took > time.Second {
					t.Errorf("took %s; want a final error at once", took)
				}
				if !errors.Is(err, rootfs.ErrNotRegular) || errors.Is(err, context.DeadlineExceeded) || err.Error() != want {
					t.Fatalf("err = %v; want %q", err, want)
				}
				if strings.Contains(err.Error(), g.root.Dir()) || strings.Contains(err.Error(), creds) {
					t.Errorf("the error shows a host path: %v", err)
				}
				if len(g.status()) != 0 || srv.Count() != 0 {
					t.Errorf("retried (%q) or fetched (%d requests) after a final failure", g.status(), srv.Count())
				}
			})
		}
	}
}

// Past 40 links the old resolver handed the next link to the kernel, which
// followed it to the host: a file: secret read a host file into the root.
func TestSecretThroughALongChainReadsNothingOutside(t *testing.T) {
	base := t.TempDir()
	host := filepath.Join(base, "host")
	if err := os.MkdirAll(filepath.Join(host, "l41"), 0o755); err != nil {
		t.Fatal(err)
	}
	hostKey := filepath.Join(host, "l41", "key")
	if err := os.WriteFile(hostKey, []byte("HOST-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ifd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(ifd)
	if _, err := unix.InotifyAddWatch(ifd, hostKey, unix.IN_OPEN|unix.IN_ACCESS); err != nil {
		t.Fatal(err)
	}

	g := newRig(t)
	g.root = rootfs.New(filepath.Join(base, "root"))
	// The links sit in the root at the host directory's own path, each
	// naming the next by that absolute path.
	inside := filepath.Join(g.root.Dir(), host)
	if err := os.MkdirAll(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 41 {
		if err := os.Symlink(host+"/l"+strconv.Itoa(i+1), filepath.Join(inside, "l"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	p := host + "/l0/key"
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "never"})
	for _, src := range []secret.Source{{File: p, WaitFor: "1h"}, {URL: srv.URL + "/t", AuthFile: p, WaitFor: "1h"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		v, err := g.resolver(WithFetch(trusting(srv.Server))).Resolve(ctx, "join.tokenFrom", src)
		cancel()
		if err == nil || !errors.Is(err, unix.ELOOP) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "HOST-SECRET") {
			t.Errorf("Resolve(%v) read a value: %t, %v; want ELOOP naming %s", src, v.Reveal() != "", err, p)
		}
	}
	if srv.Count() != 0 {
		t.Errorf("%d requests sent with a token that could not be read", srv.Count())
	}
	buf := make([]byte, 4096)
	if n, _ := unix.Read(ifd, buf); n > 0 {
		t.Errorf("the host file %s was opened or read", hostKey)
	}
}
