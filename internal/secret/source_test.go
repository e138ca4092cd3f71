package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestSourceMarshalsWithoutURLSecrets(t *testing.T) {
	type doc struct {
		From  Source  `yaml:"from" json:"from"`
		Ptr   *Source `yaml:"ptr" json:"ptr"`
		Plain Source  `yaml:"plain" json:"plain"`
	}
	src := Source{URL: "https://user:PASS-X@vault.example/v1/k?sig=SIG-X#FRAG-X", AuthFile: "/run/a", WaitFor: "1m"}
	d := doc{From: src, Ptr: &src, Plain: Source{URL: "https://h/p", WaitFor: "2s"}}
	y, err := yaml.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "src", src, "ptr", &src, "doc", d)
	printed := fmt.Sprintf("%v %+v %#v %s", src, &src, d, src)
	for _, out := range []string{string(y), string(j), logged.String(), printed} {
		for _, s := range []string{"PASS-X", "SIG-X", "FRAG-X"} {
			if strings.Contains(out, s) {
				t.Errorf("%s printed:\n%s", s, out)
			}
		}
		for _, want := range []string{"https://vault.example/v1/k?[redacted]", "/run/a", "https://h/p", "1m"} {
			if !strings.Contains(out, want) {
				t.Errorf("%q missing from:\n%s", want, out)
			}
		}
	}
	// The field names are the contract's, and empty fields stay out.
	if !strings.Contains(string(y), "authFile: /run/a") || strings.Contains(string(y), "credential") || !strings.Contains(string(j), `"waitFor":"1m"`) {
		t.Errorf("field names or omitempty lost:\n%s\n%s", y, j)
	}
	// Marshalling is for showing only; the value in memory is untouched.
	if src.URL != "https://user:PASS-X@vault.example/v1/k?sig=SIG-X#FRAG-X" {
		t.Fatal("the source itself was changed")
	}
	// And decoding still reads every field.
	var back Source
	if err := yaml.Unmarshal([]byte("url: https://h/p?x=1\nauthFile: /a\nwaitFor: 3s\n"), &back); err != nil || back.URL != "https://h/p?x=1" || back.AuthFile != "/a" || back.Wait().String() != "3s" {
		t.Fatalf("decoded %+v, %v", back, err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://h/p":            "https://h/p",
		"https://h/p?x=1":        "https://h/p?[redacted]",
		"https://u:p@h/p":        "https://h/p?[redacted]",
		"https://h/p#f":          "https://h/p?[redacted]",
		"https://h/p?[redacted]": "https://h/p?[redacted]",
		"https://h/%zz?t=1":      "[redacted]",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// URLCredentials names exactly what RedactURL takes out, so that a check
// refusing credentials in a URL and the redaction agree on what they are.
func TestURLCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://h/p":                     "",
		"https://h/p?X-Amz-Signature=abc": "query string",
		"https://u:p@h/p":                 "userinfo",
		"https://u@h/p?t=1#f":             "userinfo, query string, fragment",
		"https://h/p?":                    "query string",
		"https://h/%zz?t=1":               "",
	} {
		got := strings.Join(URLCredentials(in), ", ")
		if got != want {
			t.Errorf("URLCredentials(%q) = %q, want %q", in, got, want)
		}
		if redacted := RedactURL(in) != in; redacted != (got != "") && !strings.Contains(in, "%zz") {
			t.Errorf("RedactURL and URLCredentials disagree on %q", in)
		}
	}
}
