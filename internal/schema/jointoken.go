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

// CheckJoinToken holds a join token to the shape k0s reads (k0s's
// pkg/token DecodeJoinToken, then clientcmd.Load): standard base64 of a
// gzip stream whose content is a kubeconfig with a cluster that has a
// server and a user that has credentials. Anything else fails only when
// k0s starts, after the node has been changed. Validation calls it on an
// inline join.token, apply on the token read from join.tokenFrom. The
// error names what is wrong and never quotes the token: not even a part
// of it, nor a parser's message (YAML's quotes the text it chokes on).
func CheckJoinToken(token string) error {
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
		Users []struct {
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
	for _, u := range kc.Users {
		if u.User.Token != "" || (u.User.ClientCertificateData != "" && u.User.ClientKeyData != "") {
			return nil
		}
	}
	return joinTokenError("its kubeconfig has no user with credentials (a token, or a client certificate and key)")
}

func joinTokenError(why string) error {
	return errors.New("is not a k0s join token: " + why + "; " + joinTokenHelp)
}
