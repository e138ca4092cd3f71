package schema_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

func gzipBase64(t *testing.T, s string) string {
	t.Helper()
	return base64.StdEncoding.EncodeToString(fixture.Gzip(t, []byte(s)))
}

// Each way a value falls short of a k0s token is refused with what is
// wrong, and no message carries a part of the value.
func TestCheckJoinToken(t *testing.T) {
	var cut bytes.Buffer
	w := gzip.NewWriter(&cut)
	_, _ = w.Write([]byte("apiVersion: v1\nclusters: [{cluster: {server: https://192.0.2.1:9443}}]\n"))
	_ = w.Flush() // no trailer: a stream cut short
	for _, tc := range []struct{ name, token, want string }{
		{"placeholder", "FAKE-token-7f3a9c2e51d0", "not standard base64"},
		{"url-safe base64", strings.NewReplacer("+", "-", "/", "_").Replace(fixture.JoinToken("fake00.abcdefgh++//++//")), "not standard base64"},
		{"base64 of text", base64.StdEncoding.EncodeToString([]byte("kubeconfig-secret-4711")), "does not hold a gzip stream"},
		{"cut gzip", base64.StdEncoding.EncodeToString(cut.Bytes()), "cut short or corrupt"},
		{"not yaml", gzipBase64(t, "clusters: [secret-4711\n"), "not a kubeconfig"},
		{"no server", gzipBase64(t, "clusters: [{name: k0s, cluster: {}}]\nusers: [{name: u, user: {token: secret-4711}}]\n"), "no cluster with a server"},
		{"no credentials", gzipBase64(t, "clusters: [{name: k0s, cluster: {server: https://192.0.2.1:9443}}]\nusers: [{name: secret-4711, user: {}}]\n"), "no user with credentials"},
		{"certificate without key", gzipBase64(t, "clusters: [{cluster: {server: https://192.0.2.1:9443}}]\nusers: [{user: {client-certificate-data: c2VjcmV0LTQ3MTE=}}]\n"), "no user with credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := schema.CheckJoinToken(tc.token, schema.RoleWorker)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "k0s token create --role=worker") {
				t.Fatalf("got %v, want an error saying %q and how to make a token", err, tc.want)
			}
			for _, part := range []string{tc.token, "secret-4711", "c2VjcmV0LTQ3MTE", "FAKE"} {
				if strings.Contains(err.Error(), part) {
					t.Errorf("the message quotes the value (%q): %v", part, err)
				}
			}
		})
	}
	for _, good := range []string{fixture.JoinToken(""), fixture.JoinToken("fake01.anotherfake00000") + "\n",
		gzipBase64(t, "clusters: [{cluster: {server: https://192.0.2.1:9443}}]\ncontexts: [{context: {user: kubelet-bootstrap}}]\nusers: [{user: {client-certificate-data: Yw==, client-key-data: aw==}}]\n")} {
		if err := schema.CheckJoinToken(good, schema.RoleWorker); err != nil {
			t.Errorf("a well-formed token refused: %v", err)
		}
	}
}

// A token of the other kind is refused for the role, as k0s refuses it
// (a worker wants kubelet-bootstrap, a joining controller
// controller-bootstrap), and a token of no kind for any role.
func TestCheckJoinTokenKind(t *testing.T) {
	worker, controller := fixture.JoinToken(""), fixture.ControllerJoinToken("")
	noContext := gzipBase64(t, "clusters: [{cluster: {server: https://192.0.2.1:9443}}]\nusers: [{user: {token: secret-4711}}]\n")
	otherUser := gzipBase64(t, "clusters: [{cluster: {server: https://192.0.2.1:9443}}]\ncontexts: [{context: {user: admin}}]\nusers: [{user: {token: secret-4711}}]\n")
	for _, tc := range []struct {
		token string
		role  schema.Role
		want  string // "" for accepted
	}{
		{worker, schema.RoleWorker, ""},
		{controller, schema.RoleController, ""},
		{controller, schema.RoleControllerWorker, ""},
		{controller, schema.RoleWorker, "a controller's join token, but this node is a worker"},
		{worker, schema.RoleController, "a worker's join token, but this node is a controller"},
		{worker, schema.RoleControllerWorker, "--role=controller"},
		{noContext, schema.RoleWorker, "no context"},
		{otherUser, schema.RoleController, "a user k0s does not join with"},
	} {
		err := schema.CheckJoinToken(tc.token, tc.role)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: a token of its kind refused: %v", tc.role, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error saying %q", tc.role, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "secret-4711"):
			t.Errorf("the message quotes the token: %v", err)
		}
	}
}

// validate holds an inline join.token to the shape, by its field, never
// quoting it.
func TestValidateRefusesInlineTokenOfAnotherShape(t *testing.T) {
	const bad = "FAKE-join-token-5c2e9d1f7a"
	doc := "role: worker\njoin:\n  token: " + bad + "\n"
	_, fs, _ := schema.Check(context.Background(), []byte(doc))
	errs := fs.Errors()
	if len(errs) != 1 || errs[0].Path != "join.token" || !strings.Contains(errs[0].Message, "is not a k0s join token") {
		t.Fatalf("findings: %v", fs)
	}
	if strings.Contains(fmt.Sprint(fs), bad) || strings.Contains(fmt.Sprint(fs), "5c2e9d1f7a") {
		t.Errorf("a finding quotes the token: %v", fs)
	}
	good := "role: worker\njoin:\n  token: " + fixture.JoinToken("") + "\n"
	if _, fs, err := schema.Check(context.Background(), []byte(good)); err != nil || len(fs.Errors()) != 0 {
		t.Errorf("a well-formed fake token refused: %v %v", err, fs)
	}
}
