package lab

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The controllers' database for kine: Debian's PostgreSQL, run as the
// postgres user in a namespace of its own on the underlay, reached over
// TLS (a certificate for its address, from a CA made here) with password
// authentication (SCRAM) and nothing else.

// pgAddr is the database's address on an IPv4 underlay, clear of the
// nodes (.11 up), their 1:1 addresses (.101 up), the virtual IP (.200) and
// the attacker (.250).
var pgAddr = netip.MustParseAddr("192.0.2.240")

const (
	pgPort = 5432
	// pgUser and pgDB are the role kine logs in as and the database it
	// keeps the cluster in (kine's default name, pgsql.go:224-226).
	pgUser = "kine"
	pgDB   = "kubernetes"
)

// postgres is the database: its files (owned by the postgres user), its
// CA, the password of pgUser, and, once started, its namespace.
type postgres struct {
	dir      string
	ca       string
	password string
	ns       *netns.Netns
	log      string
	cmd      *exec.Cmd
	uid, gid int
}

// pgBin is a program of Debian's PostgreSQL server, whose programs are not
// on PATH (/usr/lib/postgresql/VERSION/bin).
func pgBin(t testing.TB, name string) string {
	t.Helper()
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(m) == 0 {
		if os.Getenv("CORIUM_REQUIRE_PRIVILEGED") == "1" {
			t.Fatalf("no /usr/lib/postgresql/*/bin/%s: install Debian's postgresql (scripts/deps.sh)", name)
		}
		t.Skipf("no /usr/lib/postgresql/*/bin/%s: install Debian's postgresql (scripts/deps.sh)", name)
	}
	return m[len(m)-1]
}

// newPostgres makes the database's files: a cluster (initdb) that admits
// pgUser over TLS with a password and the postgres user on its own socket,
// and a server certificate for pgAddr. It does not start it (start does,
// once the underlay is up).
func newPostgres(t testing.TB) *postgres {
	t.Helper()
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Fatalf("no postgres user: install Debian's postgresql (scripts/deps.sh): %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// Outside t.TempDir, whose directories only root may enter.
	dir, err := os.MkdirTemp("", "corium-lab-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	pg := &postgres{dir: dir, ca: filepath.Join(dir, "ca.crt"), password: randomPassword(t), log: filepath.Join(dir, "postgres.log"), uid: uid, gid: gid}
	ca := newEtcdCA(t)
	ca.issue(t, dir, "server", pgAddr.String(), "postgres", pgAddr.String())
	if err := os.WriteFile(pg.ca, ca.pem, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"", "server.crt", "server.key"} {
		if err := os.Chown(filepath.Join(dir, f), uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pg.asPostgres(t, nil, pgBin(t, "initdb"), "-D", pg.data(), "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C", "--auth-local=peer", "--auth-host=reject")
	hba := "local all postgres peer\nhostssl all " + pgUser + " all scram-sha-256\n"
	if err := os.WriteFile(filepath.Join(pg.data(), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(pg.data(), "pg_hba.conf"), uid, gid); err != nil {
		t.Fatal(err)
	}
	return pg
}

func (pg *postgres) data() string { return filepath.Join(pg.dir, "data") }

// asPostgres runs a program as the postgres user (in ns, unless nil),
// with stdin when not empty, failing the test on error; PostgreSQL refuses
// to run as root.
func (pg *postgres) asPostgres(t testing.TB, ns *netns.Netns, args ...string) string {
	t.Helper()
	out, err := pg.command(ns, "", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("postgres: %s: %v\n%s", filepath.Base(args[0]), err, out)
	}
	return string(out)
}

// command is a program run as the postgres user: in ns through ip netns
// exec and setpriv (entering a namespace needs root), else directly.
func (pg *postgres) command(ns *netns.Netns, stdin string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if ns != nil {
		cmd = exec.Command("ip", append([]string{"netns", "exec", ns.Name, "setpriv",
			"--reuid=" + strconv.Itoa(pg.uid), "--regid=" + strconv.Itoa(pg.gid), "--init-groups", "--"}, args...)...)
	} else {
		cmd = exec.Command(args[0], args[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(pg.uid), Gid: uint32(pg.gid)}}
	}
	cmd.Dir = pg.dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	return cmd
}

// start plugs the database into the underlay at pgAddr, starts PostgreSQL
// there and, as its administrator, creates pgUser with its password (sent
// as a SCRAM verifier, so the password is in no statement or log of the
// server's) and the database it owns.
func (pg *postgres) start(t testing.TB, l *Lab) {
	t.Helper()
	start := time.Now()
	pg.ns = l.AddHost(t, "pg", pgAddr.String()+"/24")
	logf, err := os.Create(pg.log)
	if err != nil {
		t.Fatal(err)
	}
	pg.cmd = pg.command(pg.ns, "", pgBin(t, "postgres"), "-D", pg.data(),
		"-c", "listen_addresses="+pgAddr.String(), "-c", "port="+strconv.Itoa(pgPort),
		"-c", "unix_socket_directories="+pg.dir,
		"-c", "ssl=on", "-c", "ssl_cert_file="+filepath.Join(pg.dir, "server.crt"), "-c", "ssl_key_file="+filepath.Join(pg.dir, "server.key"),
		"-c", "password_encryption=scram-sha-256",
		// A test's database: no durability, no shared memory left
		// behind in /dev/shm.
		"-c", "fsync=off", "-c", "dynamic_shared_memory_type=mmap")
	pg.cmd.Stdout, pg.cmd.Stderr = logf, logf
	if err := pg.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A fast shutdown before the namespace's processes are killed: the
	// server removes its shared memory and socket.
	t.Cleanup(func() {
		_ = pg.cmd.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { _ = pg.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = pg.cmd.Process.Kill()
		}
		_ = logf.Close()
	})
	isready := pgBin(t, "pg_isready")
	if err := retryEvery(100*time.Millisecond, 20*time.Second, func() error {
		return pg.command(nil, "", isready, "-q", "-h", pg.dir, "-p", strconv.Itoa(pgPort)).Run()
	}); err != nil {
		t.Fatalf("postgres does not start: %v\n%s", err, tail(pg.log))
	}
	sql := fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s';\nCREATE DATABASE %s OWNER %s;\n", pgUser, scramVerifier(t, pg.password), pgDB, pgUser)
	if out, err := pg.command(nil, sql, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg.dir, "-p", strconv.Itoa(pgPort), "-U", "postgres", "-d", "postgres").CombinedOutput(); err != nil {
		t.Fatalf("postgres: creating %s: %v\n%s", pgUser, err, out)
	}
	t.Logf("postgres: up at %s in %v", netip.AddrPortFrom(pgAddr, pgPort), time.Since(start).Round(time.Millisecond))
}

// dataSource is the URL of the database for kine as pgUser with the
// password given, over TLS verified against the database's CA
// (sslmode=verify-full: the certificate is for pgAddr).
func (pg *postgres) dataSource(password string) string {
	u := url.URL{Scheme: "postgresql", User: url.UserPassword(pgUser, password), Host: netip.AddrPortFrom(pgAddr, pgPort).String(), Path: "/" + pgDB,
		RawQuery: url.Values{"sslmode": {"verify-full"}, "sslrootcert": {pg.ca}}.Encode()}
	return u.String()
}

// value is what the database holds for key: the value of kine's newest row
// for it, read with psql as pgUser over TLS with the password (from the
// environment, not the command line).
func (pg *postgres) value(key string) (string, error) {
	conn := fmt.Sprintf("host=%s port=%d dbname=%s user=%s sslmode=verify-full sslrootcert=%s", pgAddr, pgPort, pgDB, pgUser, pg.ca)
	cmd := pg.command(pg.ns, "SELECT convert_from(value, 'UTF8') FROM kine WHERE name = :'key' ORDER BY id DESC LIMIT 1;\n",
		"psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-v", "key="+key, conn)
	cmd.Env = append(cmd.Env, "PGPASSWORD="+pg.password)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("psql as %s: %w: %s", pgUser, err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// scramVerifier is what PostgreSQL stores for a SCRAM-SHA-256 password
// (RFC 7677, RFC 5802; PostgreSQL's "SCRAM-SHA-256$iterations:salt$
// StoredKey:ServerKey"), which CREATE ROLE takes in place of the password.
func scramVerifier(t testing.TB, password string) string {
	t.Helper()
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	const iterations = 4096
	salted, err := pbkdf2.Key(sha256.New, password, salt, iterations, sha256.Size)
	if err != nil {
		t.Fatal(err)
	}
	mac := func(key []byte, msg string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	stored := sha256.Sum256(mac(salted, "Client Key"))
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", iterations, b64(salt), b64(stored[:]), b64(mac(salted, "Server Key")))
}

// randomPassword is a fresh password with characters a URL must escape
// ('@', '/', ':', '%', '#', a space), so the datasource is written, read
// and parsed with them as k0s and kine would be given them.
func randomPassword(t testing.TB) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b) + "@/:% #"
}

// retryEvery calls f every interval until it succeeds or wait has passed.
func retryEvery(interval, wait time.Duration, f func() error) error {
	deadline := time.Now().Add(wait)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(interval)
	}
}
