package testutil

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"time"
)

// FakeBearer is the bearer token of the default fake join token: shaped as
// a Kubernetes bootstrap token, and plainly not one.
const FakeBearer = "fake00.notarealtoken000"

// fakeKubeconfig is what `k0s token create --role=worker` packs, with a
// documentation address (RFC 5737) for the API and a CA that is none.
const fakeKubeconfig = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: RkFLRSBDQSBmb3IgdGVzdHMgb25seQ==
    server: https://192.0.2.1:9443
  name: k0s
contexts:
- context:
    cluster: k0s
    user: %[1]s
  name: k0s
current-context: k0s
kind: Config
users:
- name: %[1]s
  user:
    token: %[2]s
`

// JoinToken is a well-formed fake k0s worker join token (the base64 of a
// gzipped kubeconfig) whose user's token is bearer, FakeBearer when "". The same
// bearer gives the same token, so fixtures on disk can hold it. The gzip
// header's time is drawn from the bearer: leak tests search for every 12
// characters of a secret, and tokens with one header would share them.
func JoinToken(bearer string) string {
	return fakeToken("kubelet-bootstrap", bearer)
}

// ControllerJoinToken is JoinToken's controller kind, as `k0s token create
// --role=controller` packs it.
func ControllerJoinToken(bearer string) string {
	return fakeToken("controller-bootstrap", bearer)
}

func fakeToken(user, bearer string) string {
	if bearer == "" {
		bearer = FakeBearer
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(user + bearer))
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.ModTime = time.Unix(int64(h.Sum32()), 0)
	// Writes to a bytes.Buffer do not fail: no error to hand a test.
	_, _ = w.Write([]byte(fmt.Sprintf(fakeKubeconfig, user, bearer)))
	_ = w.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
