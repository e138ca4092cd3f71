package vm

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The secret server's equipment (test/vm/secretd): where it lives on a
// guest, the port it serves, the CA a guest trusts it by, and the
// credential that carries the bearer token to a node.
const (
	secretdPort = 8443
	secretdBin  = "/usr/local/lib/corium-vmtest/secretd"
	secretdDir  = "/run/corium-vmtest/secretd"
	secretdUnit = "corium-vmtest-secretd.service"
	// secretdCA is in the directory Go's system trust store reads every
	// file of, so the agent trusts the server the way the contract says
	// (the system store), with no setting of its own.
	secretdCA = "/etc/ssl/certs/corium-vmtest-ca.pem"
	// bearerCredential carries the bearer token as an SMBIOS credential,
	// and authFile names it where PID 1 put it, the system's credentials
	// directory: a unit's own directory (/run/credentials/UNIT) holds it
	// only for that unit, and `apply --again`, which resolves the
	// token again, runs in a unit of its own (applyAgain).
	bearerCredential = "corium.bearer"
	bearerAuthFile   = "/run/credentials/@system/" + bearerCredential
)

// secretServer is one test's secret server: a CA of its own, a certificate
// for the underlay addresses it may serve on, and the bearer token it asks
// of a request.
type secretServer struct {
	caPEM, certPEM, keyPEM []byte
	bearer                 string
}

// newSecretServer makes the CA, the server's certificate (for c1's and
// n1's underlay addresses, and loopback for TestSecretServer) and a bearer
// token (a secret: add it to the
// machines' Secrets).
func newSecretServer(t testing.TB) *secretServer {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	// The guests' clocks come from QEMU's RTC, the host's time: an hour of
	// slack either side covers a boot under load.
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "corium VM test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "corium VM test secret server"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP(underlayC1), net.ParseIP(underlayN1), net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	s := &secretServer{
		caPEM:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		bearer:  "vmtest-bearer-" + fixture.RandHex(24),
	}
	return s
}

// onDisk puts the server's program and its CA on a machine's disk: the CA
// for a node that fetches, the program for one that serves (or probes).
func (s *secretServer) onDisk(t testing.TB) func(*staging) {
	bin := agentbin.Program(t, "github.com/corium/corium-agent/test/vm/secretd")
	return func(st *staging) {
		st.CopyFile(bin, secretdBin, 0o755)
		st.WriteFile(secretdCA, s.caPEM, 0o644)
	}
}

// secretURL is the https URL of path on the server at addr.
func secretURL(addr, path string) string {
	return "https://" + net.JoinHostPort(addr, strconv.Itoa(secretdPort)) + path
}

// start runs the server on m, listening on addr and answering path with
// value, through guestd and systemd-run; the key, the value and the bearer
// reach m through guestd's standard input, never a command line.
func (s *secretServer) start(t *testing.T, m *Machine, addr, path, value string) {
	t.Helper()
	m.MustExec("mkdir", "-p", "-m", "0700", secretdDir)
	for name, v := range map[string]string{"cert.pem": string(s.certPEM), "key.pem": string(s.keyPEM), "value": value, "bearer": s.bearer} {
		writeSecretFile(t, m, filepath.Join(secretdDir, name), v)
	}
	m.MustExec("systemd-run", "--quiet", "--unit="+secretdUnit, "-p", "Type=exec", secretdBin, "serve",
		"-listen", net.JoinHostPort(addr, strconv.Itoa(secretdPort)),
		"-cert", secretdDir+"/cert.pem", "-key", secretdDir+"/key.pem",
		"-path", path, "-value", secretdDir+"/value", "-bearer", secretdDir+"/bearer")
	if st := m.Show(secretdUnit, "ActiveState"); st["ActiveState"] != "active" {
		t.Fatalf("%s: %s = %v after systemd-run, want active", m.Name, secretdUnit, st)
	}
}

// requests is what the server on m logged: one line per request.
func requests(t *testing.T, m *Machine) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(m.MustExec("journalctl", "-b", "0", "-u", secretdUnit, "-o", "cat", "--no-pager"), "\n") {
		if strings.HasPrefix(l, "request from ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// probeWithoutBearer asks the server at url from m without a bearer token
// and returns the status code it answered, the proof that it checks one.
func probeWithoutBearer(t *testing.T, m *Machine, url string) string {
	t.Helper()
	out, err := m.Exec(secretdBin, "get", "-ca", secretdCA, url)
	if err != nil {
		t.Errorf("%s: secretd get %s: %v\n%s", m.Name, url, err, m.Secrets.Redact(t, out))
	}
	return strings.TrimSpace(out)
}
