package schema

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxJoinToken bounds what a join token may unpack to: k0s's kubeconfig is
// a few kilobytes, and a gzip stream of a few hundred bytes could otherwise
// unpack to gigabytes.
const maxJoinToken = 1 << 20

// joinTokenHelp says what a k0s join token is and how to make one; every
// refusal of a token ends with it.
const joinTokenHelp = "a k0s join token is the base64 of a gzipped kubeconfig, as `k0s token create --role=worker` prints it on a running controller (--role=controller for a controller joining the cluster); give its output as it is"

// The kubeconfig user a token's context names is its kind: k0s's worker
// refuses a token whose user is not kubelet-bootstrap (cmd/worker), and a
// joining controller one that is not controller-bootstrap
// (pkg/token.ControllerTokenAuthName).
const (
	workerTokenUser     = "kubelet-bootstrap"
	controllerTokenUser = "controller-bootstrap"
)

// TokenUser is the kubeconfig user k0s wants in the join token of a node of
// role r.
func TokenUser(r Role) string {
	if r.IsController() {
		return controllerTokenUser
	}
	return workerTokenUser
}

// CheckJoinToken holds a join token to the shape k0s reads (k0s's
// pkg/token DecodeJoinToken, then clientcmd.Load): standard base64 of a
// gzip stream whose content is a kubeconfig with a cluster that has a
// server and a user that has credentials, of the kind a node of role r
// joins with (TokenUser). Anything else fails only when
// k0s starts, after the node has been changed. Validation calls it on an
// inline join.token, apply on the token read from join.tokenFrom. The
// error names what is wrong and never quotes the token: not even a part
// of it, nor a parser's message (YAML's quotes the text it chokes on).
func CheckJoinToken(token string, r Role) error {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if err != nil {
		return joinTokenError("it is not standard base64")
	}
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return joinTokenError("its base64 does not hold a gzip stream")
	}
	content, err := io.ReadAll(io.LimitReader(gz, maxJoinToken+1))
	if err != nil {
		return joinTokenError("its gzip stream is cut short or corrupt")
	}
	if len(content) > maxJoinToken {
		return joinTokenError("it unpacks to more than 1 MiB, which no kubeconfig is")
	}
	var kc struct {
		Clusters []struct {
			Cluster struct {
				Server string `yaml:"server"`
			} `yaml:"cluster"`
		} `yaml:"clusters"`
		Contexts []tokenContext `yaml:"contexts"`
		Users    []struct {
			User struct {
				Token                 string `yaml:"token"`
				ClientCertificateData string `yaml:"client-certificate-data"`
				ClientKeyData         string `yaml:"client-key-data"`
			} `yaml:"user"`
		} `yaml:"users"`
	}
	if yaml.Unmarshal(content, &kc) != nil {
		return joinTokenError("what it unpacks to is not a kubeconfig (YAML)")
	}
	server := false
	for _, c := range kc.Clusters {
		server = server || c.Cluster.Server != ""
	}
	if !server {
		return joinTokenError("its kubeconfig names no cluster with a server")
	}
	credentials := false
	for _, u := range kc.Users {
		credentials = credentials || u.User.Token != "" || (u.User.ClientCertificateData != "" && u.User.ClientKeyData != "")
	}
	if !credentials {
		return joinTokenError("its kubeconfig has no user with credentials (a token, or a client certificate and key)")
	}
	return checkTokenKind(kc.Contexts, r)
}

// tokenContext is a kubeconfig context as far as its kind goes.
type tokenContext struct {
	Context struct {
		User string `yaml:"user"`
	} `yaml:"context"`
}

// checkTokenKind refuses a token of the other kind. k0s takes the user of
// whichever context it meets first in a map, so every context must name
// the user the role wants.
func checkTokenKind(contexts []tokenContext, r Role) error {
	want := TokenUser(r)
	if len(contexts) == 0 {
		return joinTokenError("its kubeconfig has no context, so k0s cannot tell what kind of token it is")
	}
	for _, c := range contexts {
		switch c.Context.User {
		case want:
		case workerTokenUser:
			return errors.New("is a worker's join token, but this node is a " + string(r) + ": k0s refuses it; create one with `k0s token create --role=controller` on a running controller")
		case controllerTokenUser:
			return errors.New("is a controller's join token, but this node is a worker: k0s refuses it; create one with `k0s token create --role=worker` on a running controller")
		default:
			return joinTokenError("its kubeconfig's context names a user k0s does not join with (neither " + workerTokenUser + " nor " + controllerTokenUser + ")")
		}
	}
	return nil
}

func joinTokenError(why string) error {
	return errors.New("is not a k0s join token: " + why + "; " + joinTokenHelp)
}
