// Command secretd is the VM test's secret server: an HTTPS server, run in a
// guest by the test through guestd (systemd-run), that answers one path with
// the content of one file to a request carrying the right bearer token. It
// stands in for an operator's provisioning service, to which a node's
// SecretSource url points, and which may come up after the node does. It is
// test equipment, put on a VM's disk like guestd, and not part of the
// Corium image.
//
//	secretd serve -listen ADDR -cert FILE -key FILE -path /join/w1 -value FILE -bearer FILE
//	secretd get -ca FILE URL
//
// serve logs one line per request (its path, whether the bearer was right,
// the status sent), never the values it compares or serves. get makes one
// request without a bearer token, trusting only the CA in FILE, and prints
// the status code: the test's proof that the server checks the bearer.
package main

import (
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: secretd serve|get ...")
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "get":
		err = get(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: serve or get", os.Args[1])
	}
	if err != nil {
		log.Fatal("secretd: ", err)
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	listen := fs.String("listen", "", "address to listen on (host:port)")
	cert := fs.String("cert", "", "the server's certificate (PEM)")
	key := fs.String("key", "", "the server's private key (PEM)")
	path := fs.String("path", "", "the one path served")
	value := fs.String("value", "", "file whose trimmed content is served")
	bearer := fs.String("bearer", "", "file holding the bearer token a request must carry")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *listen == "" || *cert == "" || *key == "" || *path == "" || *value == "" || *bearer == "" {
		return errors.New("serve needs -listen, -cert, -key, -path, -value and -bearer")
	}
	want, err := readTrimmed(*bearer)
	if err != nil {
		return err
	}
	body, err := readTrimmed(*value)
	if err != nil {
		return err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		authorized := ok && subtle.ConstantTimeCompare([]byte(got), want) == 1
		code := http.StatusOK
		switch {
		case r.URL.Path != *path:
			code = http.StatusNotFound
		case !authorized:
			code = http.StatusUnauthorized
		}
		log.Printf("request from %s for %s: bearer %s, answered %d", r.RemoteAddr, r.URL.Path,
			map[bool]string{true: "right", false: "missing or wrong"}[authorized], code)
		if code != http.StatusOK {
			http.Error(w, http.StatusText(code), code)
			return
		}
		_, _ = w.Write(append(body, '\n'))
	})
	srv := &http.Server{Addr: *listen, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("listening on %s for %s", *listen, *path)
	return srv.ListenAndServeTLS(*cert, *key)
}

func get(args []string) error {
	fs := flag.NewFlagSet("get", flag.ContinueOnError)
	ca := fs.String("ca", "", "the only CA trusted (PEM)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ca == "" || fs.NArg() != 1 {
		return errors.New("get needs -ca FILE and one URL")
	}
	pem, err := os.ReadFile(*ca)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return fmt.Errorf("%s holds no certificate", *ca)
	}
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get(fs.Arg(0))
	if err != nil {
		return err
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	return nil
}

func readTrimmed(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v := []byte(strings.TrimSpace(string(data)))
	if len(v) == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return v, nil
}
