package lab

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// etcdAPI talks to a member's loopback client URL from inside its node's
// namespace, with the API server's client certificate, through etcd's
// JSON gateway for its v3 API (the same calls k0s makes with etcd's Go
// client: member add as learner, promote, list; put and get).
type etcdAPI struct {
	ln *LabNode
	c  *http.Client
}

func newEtcdAPI(t testing.TB, ln *LabNode, certDir string) *etcdAPI {
	t.Helper()
	cert, err := tls.LoadX509KeyPair(filepath.Join(certDir, "apiserver-etcd-client.crt"), filepath.Join(certDir, "apiserver-etcd-client.key"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(readFile(t, filepath.Join(certDir, "ca.crt")))
	tr := &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		DialContext:       ln.dialContext,
		DisableKeepAlives: true,
	}
	return &etcdAPI{ln: ln, c: &http.Client{Transport: tr, Timeout: 5 * time.Second}}
}

// call posts req to the gateway's path and decodes the answer into resp;
// an error carries etcd's own message ("etcdserver: unhealthy cluster").
func (a *etcdAPI) call(path string, req, resp any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	r, err := a.c.Post("https://127.0.0.1:2379"+path, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %s: %w", a.ln.Name, path, err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(b, &e)
		return fmt.Errorf("%s: %s: %s (%s)", a.ln.Name, path, e.Message, r.Status)
	}
	if resp == nil {
		return nil
	}
	return json.Unmarshal(b, resp)
}

// etcdMember is a member as etcd lists it.
type etcdMember struct {
	ID        string   `json:"ID"`
	Name      string   `json:"name"`
	PeerURLs  []string `json:"peerURLs"`
	IsLearner bool     `json:"isLearner"`
}

type etcdMembers struct {
	Member  etcdMember   `json:"member"`
	Members []etcdMember `json:"members"`
}

func (a *etcdAPI) members() ([]etcdMember, error) {
	var r etcdMembers
	err := a.call("/v3/cluster/member/list", map[string]any{"linearizable": true}, &r)
	return r.Members, err
}

func (a *etcdAPI) addLearner(peerURL string) (etcdMembers, error) {
	var r etcdMembers
	err := a.call("/v3/cluster/member/add", map[string]any{"peerURLs": []string{peerURL}, "isLearner": true}, &r)
	return r, err
}

func (a *etcdAPI) promote(id string) error {
	return a.call("/v3/cluster/member/promote", map[string]any{"ID": id}, nil)
}

func (a *etcdAPI) put(key, value string) error {
	return a.call("/v3/kv/put", map[string]any{"key": b64(key), "value": b64(value)}, nil)
}

// get is a linearizable read: the member asks the leader, so a member cut
// off from the quorum cannot answer it.
func (a *etcdAPI) get(key string) (string, error) {
	var r struct {
		KVs []struct {
			Value string `json:"value"`
		} `json:"kvs"`
	}
	if err := a.call("/v3/kv/range", map[string]any{"key": b64(key)}, &r); err != nil {
		return "", err
	}
	if len(r.KVs) == 0 {
		return "", fmt.Errorf("%s: %s: not found", a.ln.Name, key)
	}
	v, err := base64.StdEncoding.DecodeString(r.KVs[0].Value)
	return string(v), err
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
