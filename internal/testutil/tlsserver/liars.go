package tlsserver

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Liar is a server that puts Canary, a value drawn for it alone, where a
// client that quotes what it is told would print it: an error page, a
// status line, a header, a proxy's reason phrase, a certificate's names,
// HTTP/2 GOAWAY's debug data, a redirect's target, a body. Some also
// echo the request's Authorization header beside it, as a careless server
// or proxy does. A test fetches URL (through Env, for the proxy) trusting
// CAFile, and searches everything the client printed and wrote for Canary.
type Liar struct {
	Name   string
	URL    string
	Canary string
	// Env is what the client's environment needs to reach URL (a proxy).
	Env []string
	// Transient says the client takes the answer for "not there yet" and
	// asks again until its wait runs out.
	Transient bool
	// Slow says one attempt lasts until the client's header timeout.
	Slow bool
}

// LiarHost is the host name of the URL the proxy liar is asked for; it
// resolves nowhere, so only the proxy reaches it.
const LiarHost = "liar.invalid"

// Liars starts every lying server for the test, closed when it ends, and
// returns them with the PEM of the CA that signs their certificates (the
// untrusted one's aside).
func Liars(t testing.TB) ([]Liar, []byte) {
	t.Helper()
	ca := newCA(t)
	good := ca.leaf(t, []string{"localhost", LiarHost}, []net.IP{net.IPv4(127, 0, 0, 1)})
	var out []Liar
	trusted := func(string) tls.Certificate { return good }
	add := func(name string, transient bool, cert func(canary string) tls.Certificate, h rawHandler) {
		canary := strings.ToUpper(strings.ReplaceAll(name, "-", "")) + rand.Text()
		addr := serveRaw(t, cert(canary), name == "http2-goaway", func(c net.Conn, br *bufio.Reader) { h(c, br, canary) })
		// By name: a certificate's names are quoted when the host name
		// is not among them.
		out = append(out, Liar{Name: name, URL: "https://" + strings.Replace(addr, "127.0.0.1", "localhost", 1) + "/secret", Canary: canary, Transient: transient, Slow: name == "slow-loris"})
	}
	answer := func(head string) rawHandler {
		return func(c net.Conn, br *bufio.Reader, canary string) {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			_, _ = io.WriteString(c, strings.NewReplacer("@C@", canary, "@AUTH@", strings.TrimPrefix(oneLine(req.Header.Get("Authorization")), "Bearer "), "@PATH@", req.URL.Path).Replace(head))
		}
	}
	add("error-page", false, trusted, answer("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 200\r\nConnection: close\r\n\r\n"+
		"you sent @AUTH@ @C@ "+strings.Repeat(".", 200)))
	add("status-text", false, trusted, answer("HTTP/1.1 403 @AUTH@ @C@\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	add("malformed-status-line", false, trusted, answer("HTTP/1.1 @AUTH@@C@ x\r\nContent-Length: 0\r\n\r\n"))
	add("malformed-header", false, trusted, answer("HTTP/1.1 200 OK\r\n@C@ @AUTH@\r\nContent-Length: 0\r\n\r\n"))
	add("headers", true, trusted, answer("HTTP/1.1 503 Service Unavailable\r\nRetry-After: @C@\r\nX-Error: @AUTH@ @C@\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	add("redirect-to-http", false, trusted, answer("HTTP/1.1 302 Found\r\nLocation: http://@C@.invalid/@C@?sig=@C@\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	add("redirect-loop", false, trusted, answer("HTTP/1.1 302 Found\r\nLocation: /@C@@PATH@\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	add("wrong-content-type", false, trusted, answer("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><b>@C@</b></html>\n"))
	add("cut-mid-body", true, trusted, answer("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n@C@"))
	add("endless-body", false, trusted, func(c net.Conn, br *bufio.Reader, canary string) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
		chunk := fmt.Sprintf("%x\r\n%s\r\n", len(canary)+1, canary+"\n")
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
			if _, err := io.WriteString(c, chunk); err != nil {
				return
			}
		}
	})
	add("gzip-bomb", false, trusted, func(c net.Conn, br *bufio.Reader, canary string) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		bomb := gzipOf(strings.Repeat(canary+"\n", (4<<20)/(len(canary)+1)))
		_, _ = fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", len(bomb))
		_, _ = c.Write(bomb)
	})
	add("slow-loris", true, trusted, func(c net.Conn, br *bufio.Reader, canary string) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		for _, b := range []byte("HTTP/1.1 200 OK\r\nX-" + canary + ": " + canary + strings.Repeat("x", 120)) {
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
			time.Sleep(time.Second)
		}
	})
	// Certificates that name the canary: one for another host, signed by
	// the trusted CA; one no trust store holds. Their handlers never run.
	add("certificate-names", false, func(c string) tls.Certificate { return ca.leaf(t, []string{c + ".invalid"}, nil) }, answer(""))
	untrusted := newCA(t)
	add("untrusted-certificate", false, func(c string) tls.Certificate { return untrusted.named(t, c) }, answer(""))
	add("http2-goaway", false, trusted, func(c net.Conn, br *bufio.Reader, canary string) {
		preface := make([]byte, len("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))
		if _, err := io.ReadFull(br, preface); err != nil {
			return
		}
		frame := func(typ byte, payload []byte) []byte {
			h := []byte{byte(len(payload) >> 16), byte(len(payload) >> 8), byte(len(payload)), typ, 0, 0, 0, 0, 0}
			return append(h, payload...)
		}
		if _, err := c.Write(frame(0x4, nil)); err != nil { // SETTINGS
			return
		}
		// GOAWAY once the request's HEADERS came: last stream 0,
		// PROTOCOL_ERROR, the canary as debug data.
		for {
			var h [9]byte
			if _, err := io.ReadFull(br, h[:]); err != nil {
				return
			}
			n := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
			if _, err := io.CopyN(io.Discard, br, int64(n)); err != nil {
				return
			}
			if h[3] == 0x1 {
				break
			}
		}
		goaway := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, 0), 1)
		_, _ = c.Write(frame(0x7, append(goaway, canary...)))
		time.Sleep(200 * time.Millisecond)
	})
	proxyCanary := "PROXYREASON" + rand.Text()
	proxy := serveProxy(t, proxyCanary)
	out = append(out, Liar{Name: "proxy-reason", URL: "https://" + LiarHost + "/secret", Canary: proxyCanary,
		Env: []string{"HTTPS_PROXY=http://" + proxy, "https_proxy=http://" + proxy, "NO_PROXY=", "no_proxy="}})
	return out, ca.pem()
}

type rawHandler func(c net.Conn, br *bufio.Reader, canary string)

// oneLine is s with no line break, so an echo cannot end the header early.
func oneLine(s string) string { return strings.NewReplacer("\r", "", "\n", "").Replace(s) }

// serveRaw accepts TLS connections on loopback and hands each, its
// handshake done, to h, which writes what it likes.
func serveRaw(t testing.TB, cert tls.Certificate, h2 bool, h func(net.Conn, *bufio.Reader)) string {
	t.Helper()
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}}
	if h2 {
		cfg.NextProtos = []string{"h2"}
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	serve(t, ln, func(c net.Conn) { h(c, bufio.NewReader(c)) })
	return ln.Addr().String()
}

// serveProxy is an HTTP proxy that refuses every CONNECT with a reason
// phrase holding canary and the proxy credentials it was sent.
func serveProxy(t testing.TB, canary string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, ln, func(c net.Conn) {
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		_, _ = fmt.Fprintf(c, "HTTP/1.1 403 %s %s\r\nContent-Length: 0\r\n\r\n", canary, oneLine(req.Header.Get("Proxy-Authorization")))
	})
	return ln.Addr().String()
}

// serve runs h for every connection of ln until the test ends.
func serve(t testing.TB, ln net.Listener, h func(net.Conn)) {
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(3 * time.Minute))
				h(c)
			}()
		}
	}()
}

func gzipOf(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = io.WriteString(w, s)
	_ = w.Close()
	return b.Bytes()
}

// ca is a certificate authority made for one test.
type ca struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newCA(t testing.TB) *ca {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "corium test liars CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &ca{cert: cert, key: key}
}

func (c *ca) pem() []byte { return CertPEM(c.cert) }

// leaf is a server certificate for names and ips, signed by c.
func (c *ca) leaf(t testing.TB, names []string, ips []net.IP) tls.Certificate {
	t.Helper()
	return c.sign(t, &x509.Certificate{Subject: pkix.Name{CommonName: "liar"}, DNSNames: names, IPAddresses: ips}, c.cert, c.key)
}

// named is a self-signed certificate whose every name is name: no trust
// store holds it.
func (c *ca) named(t testing.TB, name string) tls.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: name, Organization: []string{name}}, DNSNames: []string{name + ".invalid"}}
	return c.sign(t, tmpl, nil, nil)
}

func (c *ca) sign(t testing.TB, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = big.NewInt(time.Now().UnixNano())
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
