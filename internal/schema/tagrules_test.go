package schema

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/secret"
)

// The tags mean what validator/v10 says they mean: these tests run validator
// itself, configured as the tags expect, as the reference for the
// interpreter the agent uses.

func referenceValidator(t testing.TB) *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(yamlName)
	v.RegisterCustomTypeFunc(func(f reflect.Value) any {
		return f.Interface().(secret.Value).Reveal()
	}, secret.Value{})
	for tag, rule := range stringRules {
		if err := v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
			return rule(fl.Field().String())
		}); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// failedTags spells each failed tag as "path tag=param".
func referenceFailures(v *validator.Validate, cfg *Config) []string {
	var errs validator.ValidationErrors
	if !errors.As(v.Struct(cfg), &errs) {
		return nil
	}
	var out []string
	for _, fe := range errs {
		_, path, _ := strings.Cut(fe.Namespace(), ".")
		const labels = "node.labels["
		if strings.HasPrefix(path, labels) && strings.HasSuffix(path, "]") {
			path = mapKeyPath("node.labels", path[len(labels):len(path)-1])
		}
		out = append(out, fmt.Sprintf("%s %s=%s kind=%s", path, fe.Tag(), fe.Param(), fe.Kind()))
	}
	slices.Sort(out)
	return out
}

func interpreterFailures(cfg *Config) []string {
	var out []string
	for _, fe := range checkTags(cfg) {
		out = append(out, fmt.Sprintf("%s %s=%s kind=%s", fe.path, fe.tag, fe.param, fe.kind))
	}
	slices.Sort(out)
	return out
}

func sameFailures(t *testing.T, v *validator.Validate, name string, cfg *Config) {
	t.Helper()
	want, got := referenceFailures(v, cfg), interpreterFailures(cfg)
	if !slices.Equal(want, got) {
		t.Errorf("%s: tag failures differ from validator/v10\nvalidator:   %q\ninterpreter: %q", name, want, got)
	}
}

// Every configuration in the repository, valid and invalid.
func TestTagRulesMatchValidatorOnRepositoryConfigs(t *testing.T) {
	v := referenceValidator(t)
	var files []string
	for _, pattern := range []string{"valid/*.yaml", "invalid/*.yaml"} {
		matches, err := filepath.Glob(filepath.Join(testdata, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	examples, err := filepath.Glob("../../examples/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, examples...)
	checked, failing := 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Parse(data)
		if err != nil || doc.Config == nil {
			continue
		}
		checked++
		if len(interpreterFailures(doc.Config)) > 0 {
			failing++
		}
		sameFailures(t, v, file, doc.Config)
	}
	// The comparison means something only if both kinds were seen.
	if checked < 50 || failing < 20 {
		t.Errorf("compared %d configurations, %d with failed tags; want at least 50 and 20", checked, failing)
	}
}

// Random changes to valid configurations reach the corners the files do not:
// set pointers to zero, empty and nil lists, odd strings in every field.
func TestTagRulesMatchValidatorOnRandomConfigs(t *testing.T) {
	v := referenceValidator(t)
	files, err := filepath.Glob(filepath.Join(testdata, "valid/*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid configurations: %v", err)
	}
	rng := rand.New(rand.NewPCG(10, 1))
	failing := 0
	for i := range 3000 {
		data, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		perturb(rng, reflect.ValueOf(doc.Config).Elem())
		if len(interpreterFailures(doc.Config)) > 0 {
			failing++
		}
		sameFailures(t, v, fmt.Sprintf("%s, change %d", files[i%len(files)], i), doc.Config)
		if t.Failed() {
			return
		}
	}
	if failing < 1000 {
		t.Errorf("only %d of 3000 changed configurations failed a tag; the changes are too timid", failing)
	}
}

var oddStrings = []string{
	"", "a", "wg0", "wg-very-long-name0", "-x", "UPPER", "é", "ééééééééé", "12345678", "123456789",
	"10.0.0.1", "10.0.0.1/32", "10.0.0.0/8", "10.0.0.1/8", "fd00::1/64", "::1", "fe80::1%eth0",
	"host.example.com", "host.example.com:51820", "[fd00::1]:1", "198.51.100.1:0", "a:65536",
	"example.com/key", "/key", "key/", "a..b/c", strings.Repeat("a", 64),
	"single", "controller", "controller+worker", "worker", "kuberouter", "calico", "custom",
	"etcd", "sqlite", "open", "overlay", "NoSchedule", "PreferNoSchedule", "NoExecute",
	"cgzyxHnyxNXKw+/aQbTLLpOjI8fBZjDS0aYliKidtlY=", "cgzyxHnyxNXKw+/aQbTLLpOjI8fBZjDS0aYliKidtlZ=",
}

var oddInts = []int{-1, 0, 1, 2, 8, 255, 256, 575, 576, 65535, 65536}

// perturb changes some of the values under v, at random.
func perturb(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == valueType {
			v.Set(reflect.ValueOf(secret.NewValue(oddStrings[rng.IntN(len(oddStrings))])))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && rng.IntN(3) == 0 {
				perturb(rng, v.Field(i))
			}
		}
	case reflect.Pointer:
		switch rng.IntN(3) {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		default:
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			perturb(rng, v.Elem())
		}
	case reflect.String:
		v.SetString(oddStrings[rng.IntN(len(oddStrings))])
	case reflect.Int:
		v.SetInt(int64(oddInts[rng.IntN(len(oddInts))]))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := rng.IntN(3) + 1
			s := reflect.MakeSlice(v.Type(), n, n)
			reflect.Copy(s, v)
			for i := range n {
				perturb(rng, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.String {
			return // k0s.patch: free-form, no tags
		}
		switch rng.IntN(3) {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		default:
			m := reflect.MakeMap(v.Type())
			for range rng.IntN(3) + 1 {
				k := reflect.New(v.Type().Key()).Elem()
				e := reflect.New(v.Type().Elem()).Elem()
				perturb(rng, k)
				perturb(rng, e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	}
}

// parseKey takes exactly what wgtypes takes and spells back the same way.
func TestParseKeyIsCanonicalWgtypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r -_"
	inputs := []string{"", "=", "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dh="}
	for range 20000 {
		b := []byte("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=")
		for range rng.IntN(3) + 1 {
			switch i := rng.IntN(len(b) + 1); rng.IntN(3) {
			case 0:
				if i < len(b) {
					b[i] = alphabet[rng.IntN(len(alphabet))]
				}
			case 1:
				b = slices.Insert(b, i, alphabet[rng.IntN(len(alphabet))])
			default:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			}
		}
		inputs = append(inputs, string(b))
	}
	accepted := 0
	for _, s := range inputs {
		want, err := wgtypes.ParseKey(s)
		wantOK := err == nil && want.String() == s
		got, ok := parseKey(s)
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("parseKey(%q) = %v, %v; wgtypes canonical: %v, %v", s, got, ok, want, wantOK)
		}
		if ok {
			accepted++
		}
	}
	if accepted < 1000 || accepted == len(inputs) {
		t.Errorf("%d of %d inputs accepted: the inputs do not exercise both answers", accepted, len(inputs))
	}
}
