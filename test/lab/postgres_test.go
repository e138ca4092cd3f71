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
// CA, the password of pgUser, its namespace, and the server once started.
type postgres struct {
	dir      string
	ca       string
	password string
	ns       *netns.Netns
	log      string
	uid, gid int
	bin      map[string]string
	// ready is closed when the server is up (err nil) or failed to come
	// up; took is how long that took.
	ready chan struct{}
	err   error
	took  time.Duration
	// cmd is the server, exited closed when it has exited.
	cmd    *exec.Cmd
	exited chan struct{}
}

// pgPrograms are the programs of Debian's PostgreSQL server the lab runs,
// found where Debian puts them, off PATH (/usr/lib/postgresql/VERSION/bin).
func pgPrograms(t testing.TB) map[string]string {
	t.Helper()
	bin := map[string]string{}
	for _, name := range []string{"initdb", "postgres", "pg_isready"} {
		m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
		if len(m) == 0 {
			msg := "no /usr/lib/postgresql/*/bin/" + name + ": install Debian's postgresql (scripts/deps.sh)"
			if os.Getenv("CORIUM_REQUIRE_PRIVILEGED") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		bin[name] = m[len(m)-1]
	}
	return bin
}

// newPostgres makes the database's directory, its server certificate for
// pgAddr and its namespace, and starts the server there in the
// background (up): the server needs no network to start, and the lab
// provisions its nodes meanwhile. plug puts it on the underlay.
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
	pg := &postgres{dir: dir, ca: filepath.Join(dir, "ca.crt"), password: randomPassword(t), log: filepath.Join(dir, "postgres.log"),
		uid: uid, gid: gid, bin: pgPrograms(t), ready: make(chan struct{})}
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
	pg.ns = newNamespace(t, "lpg")
	// Registered after the namespace's, so it runs before the namespace's
	// processes are killed: a fast shutdown, in which the server removes
	// its shared memory and socket.
	t.Cleanup(pg.stop)
	go func() {
		start := time.Now()
		pg.err = pg.up()
		pg.took = time.Since(start)
		close(pg.ready)
	}()
	return pg
}

func (pg *postgres) data() string { return filepath.Join(pg.dir, "data") }

// up makes the cluster (initdb), admitting pgUser over TLS with a password
// and the postgres user on the server's own socket, starts the server in
// its namespace, listening on every address there, and, as its
// administrator, creates pgUser with its password (sent as a SCRAM
// verifier, so the password is in no statement or log of the server's)
// and the database it owns.
func (pg *postgres) up() error {
	if out, err := pg.command(nil, "", pg.bin["initdb"], "-D", pg.data(), "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C",
		"--auth-local=peer", "--auth-host=reject").CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	hba := filepath.Join(pg.data(), "pg_hba.conf")
	if err := os.WriteFile(hba, []byte("local all postgres peer\nhostssl all "+pgUser+" all scram-sha-256\n"), 0o600); err != nil {
		return err
	}
	if err := os.Chown(hba, pg.uid, pg.gid); err != nil {
		return err
	}
	logf, err := os.Create(pg.log)
	if err != nil {
		return err
	}
	pg.cmd = pg.command(pg.ns, "", pg.bin["postgres"], "-D", pg.data(),
		"-c", "listen_addresses=*", "-c", "port="+strconv.Itoa(pgPort),
		"-c", "unix_socket_directories="+pg.dir,
		"-c", "ssl=on", "-c", "ssl_cert_file="+filepath.Join(pg.dir, "server.crt"), "-c", "ssl_key_file="+filepath.Join(pg.dir, "server.key"),
		"-c", "password_encryption=scram-sha-256",
		// A test's database: no durability, no shared memory left
		// behind in /dev/shm.
		"-c", "fsync=off", "-c", "dynamic_shared_memory_type=mmap")
	pg.cmd.Stdout, pg.cmd.Stderr = logf, logf
	if err := pg.cmd.Start(); err != nil {
		return err
	}
	pg.exited = make(chan struct{})
	go func() { _ = pg.cmd.Wait(); _ = logf.Close(); close(pg.exited) }()
	if err := retryFor(30*time.Second, func() error {
		return pg.command(nil, "", pg.bin["pg_isready"], "-q", "-h", pg.dir, "-p", strconv.Itoa(pgPort)).Run()
	}); err != nil {
		return fmt.Errorf("the server does not start: %w\n%s", err, tail(pg.log))
	}
	verifier, err := scramVerifier(pg.password)
	if err != nil {
		return err
	}
	sql := fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s';\nCREATE DATABASE %s OWNER %s;\n", pgUser, verifier, pgDB, pgUser)
	if out, err := pg.command(nil, sql, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg.dir, "-p", strconv.Itoa(pgPort), "-U", "postgres", "-d", "postgres").CombinedOutput(); err != nil {
		return fmt.Errorf("creating %s: %w\n%s", pgUser, err, out)
	}
	return nil
}

// stop shuts the server down fast, killing it after 10 s.
func (pg *postgres) stop() {
	<-pg.ready
	if pg.exited == nil {
		return
	}
	_ = pg.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-pg.exited:
	case <-time.After(10 * time.Second):
		_ = pg.cmd.Process.Kill()
		<-pg.exited
	}
}

// plug waits for the server and puts its namespace on the lab's underlay
// at pgAddr.
func (pg *postgres) plug(t testing.TB, l *Lab) {
	t.Helper()
	<-pg.ready
	if pg.err != nil {
		t.Fatalf("postgres: %v", pg.err)
	}
	if l.S.Underlay != IPv4 {
		t.Fatal("lab: kine's database is on an IPv4 underlay")
	}
	plug(t, l.u.sw, "br0", "p-pg", pg.ns, pgAddr.String()+"/24")
	t.Logf("postgres: up at %s (in %v, beside the lab)", netip.AddrPortFrom(pgAddr, pgPort), pg.took.Round(time.Millisecond))
}

// command is a program run as the postgres user (PostgreSQL refuses to
// run as root): in ns through ip netns exec and setpriv (entering a
// namespace needs root), else directly; with stdin when not empty.
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

// dataSource is the URL of the database for kine as pgUser with the
// password given, over TLS verified against the database's CA
// (sslmode=verify-full: the certificate is for pgAddr).
func (pg *postgres) dataSource(password string) string {
	u := url.URL{Scheme: "postgresql", User: url.UserPassword(pgUser, password), Host: netip.AddrPortFrom(pgAddr, pgPort).String(), Path: "/" + pgDB,
		RawQuery: url.Values{"sslmode": {"verify-full"}, "sslrootcert": {pg.ca}}.Encode()}
	return u.String()
}

// values is what the database holds under the key prefix given: for each
// key, the value of kine's newest row for it, read with psql as pgUser
// over TLS with the password (from the environment, not the command
// line).
func (pg *postgres) values(prefix string) (map[string]string, error) {
	conn := fmt.Sprintf("host=%s port=%d dbname=%s user=%s sslmode=verify-full sslrootcert=%s", pgAddr, pgPort, pgDB, pgUser, pg.ca)
	cmd := pg.command(pg.ns, "SELECT DISTINCT ON (name) name, convert_from(value, 'UTF8') FROM kine WHERE starts_with(name, :'prefix') ORDER BY name, id DESC;\n",
		"psql", "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-v", "prefix="+prefix, conn)
	cmd.Env = append(cmd.Env, "PGPASSWORD="+pg.password)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("psql as %s: %w: %s", pgUser, err, strings.TrimSpace(string(out)))
	}
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(line, "\t"); ok {
			rows[k] = v
		}
	}
	return rows, nil
}

// scramVerifier is what PostgreSQL stores for a SCRAM-SHA-256 password
// (RFC 7677, RFC 5802; PostgreSQL's "SCRAM-SHA-256$iterations:salt$
// StoredKey:ServerKey"), which CREATE ROLE takes in place of the password.
func scramVerifier(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	const iterations = 4096
	salted, err := pbkdf2.Key(sha256.New, password, salt, iterations, sha256.Size)
	if err != nil {
		return "", err
	}
	mac := func(key []byte, msg string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	stored := sha256.Sum256(mac(salted, "Client Key"))
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", iterations, b64(salt), b64(stored[:]), b64(mac(salted, "Server Key"))), nil
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
