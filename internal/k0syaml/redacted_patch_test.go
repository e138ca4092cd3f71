package k0syaml_test

import (
	"reflect"
	"testing"

	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/secret"
)

// RedactedPatch hides in a patch what Redact hides in the file: the agent's
// own secret fields where the typed document places them, and a helm
// repository's password (any depth, any case); the rest is left as it is,
// and the patch it was given is not changed.
func TestRedactedPatch(t *testing.T) {
	patch := map[string]any{
		"spec": map[string]any{
			"extensions": map[string]any{"helm": map[string]any{"repositories": []any{
				map[string]any{"name": "r", "url": "https://charts.example", "Password": "HelmPw1", "username": "u"},
			}}},
			"storage": map[string]any{"kine": map[string]any{"dataSource": "postgres://u:KinePw@db/k"}},
			"network": map[string]any{"controlPlaneLoadBalancing": map[string]any{"keepalived": map[string]any{
				"vrrpInstances": []any{map[string]any{"authPass": "VrrpPw", "virtualIPs": []any{"192.0.2.9/24"}}},
			}}},
			"telemetry": map[string]any{"enabled": false},
			"values":    map[string]any{"nested": map[string]any{"deep": map[string]any{"password": map[string]any{"a": "DeepPw"}}}},
		},
	}
	want := map[string]any{
		"spec": map[string]any{
			"extensions": map[string]any{"helm": map[string]any{"repositories": []any{
				map[string]any{"name": "r", "url": "https://charts.example", "Password": secret.Redacted, "username": "u"},
			}}},
			"storage": map[string]any{"kine": map[string]any{"dataSource": secret.Redacted}},
			"network": map[string]any{"controlPlaneLoadBalancing": map[string]any{"keepalived": map[string]any{
				"vrrpInstances": []any{map[string]any{"authPass": secret.Redacted, "virtualIPs": []any{"192.0.2.9/24"}}},
			}}},
			"telemetry": map[string]any{"enabled": false},
			"values":    map[string]any{"nested": map[string]any{"deep": map[string]any{"password": secret.Redacted}}},
		},
	}
	got, err := k0syaml.RedactedPatch(patch)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("redacted as\n%#v\nnot\n%#v", got, want)
	}
	repo := patch["spec"].(map[string]any)["extensions"].(map[string]any)["helm"].(map[string]any)["repositories"].([]any)[0].(map[string]any)
	if repo["Password"] != "HelmPw1" {
		t.Errorf("the patch given was changed: %#v", repo)
	}
	if got, err := k0syaml.RedactedPatch(nil); got != nil || err != nil {
		t.Errorf("nil patch: %v, %v", got, err)
	}
}

// Redact hides a free-text secret key's line as the tree form does, at any
// depth and in any case, and leaves the rest.
func TestRedactFreeTextKeys(t *testing.T) {
	text := "spec:\n  extensions:\n    helm:\n      repositories:\n      - name: r\n        PassWord: |\n          HelmPw2\n        url: https://charts.example\n"
	want := "spec:\n  extensions:\n    helm:\n      repositories:\n      - name: r\n        PassWord: [redacted]\n        url: https://charts.example\n"
	got, err := k0syaml.Redact([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("redacted as\n%s\nnot\n%s", got, want)
	}
}
