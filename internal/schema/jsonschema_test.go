package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// notInJSONSchema are invalid configs whose mistake needs a rule across
// fields or an exact check (prefix arithmetic, base64 length, the document's
// own shape) that JSON Schema cannot express; validate catches them.
var notInJSONSchema = map[string]string{
	"syntax-error":                           "not YAML",
	"syntax-tab-indent":                      "not YAML",
	"multiple-documents":                     "several YAML documents",
	"empty":                                  "no document",
	"standalone-corium-and-other-keys":       "the #cloud-config header decides the shape",
	"duplicate-key":                          "YAML decoding keeps one of the keys",
	"pod-cidr-host-bits":                     "prefix arithmetic",
	"service-overlaps-pod":                   "overlap across fields",
	"network-families-mixed":                 "address families across fields",
	"dual-stack-overlay-one-family":          "address families across fields and inside k0s.patch",
	"dual-stack-overlay-calico":              "a CNI against a setting inside k0s.patch",
	"network-ipv6-ranges-out-of-bounds":      "prefix arithmetic",
	"node-address-family-not-in-ranges":      "address families across fields",
	"ha-unicast-families":                    "address families across fields",
	"ha-auth-pass-bytes":                     "JSON Schema counts characters, k0s bytes",
	"storage-sqlite-with-ha":                 "across fields",
	"storage-sqlite-joining-controller":      "across fields",
	"storage-kine-without-datasource":        "across fields",
	"storage-datasource-without-kine":        "across fields",
	"storage-datasource-on-worker":           "depends on the role",
	"k0s-patch-kine-datasource":              "k0s.patch is free-form",
	"join-token-and-tokenfrom":               "across fields",
	"worker-without-join":                    "across fields",
	"single-with-join":                       "across fields",
	"taint-duplicate":                        "uniqueness of a pair of fields",
	"ha-settings-while-disabled":             "across fields",
	"ha-on-worker":                           "across fields",
	"ha-missing-everything":                  "across fields",
	"ha-authpass-and-from":                   "across fields",
	"ha-interface-wireguard-without-unicast": "across fields",
	"wg-name-duplicate":                      "uniqueness of a field across items",
	"wg-address-network":                     "prefix arithmetic",
	"wg-mtu-ipv6-floor":                      "depends on the addresses",
	"wg-node-address-twice":                  "across items",
	"wg-private-key-missing":                 "across fields",
	"wg-private-key-both":                    "across fields",
	"wg-peer-duplicate-key":                  "uniqueness of a field across items",
	"wg-peer-own-key":                        "key derivation",
	"wg-peer-allowed-ips-overlap":            "overlap across items",
	"wg-peer-allowed-ips-own-address":        "prefix arithmetic across fields",
	"wg-allowed-ips-host-bits-overlap":       "overlap across items",
	"wg-peer-stated-own-key":                 "equality across fields",
	"wg-public-key-is-private-key":           "equality across fields",
	"wg-interfaces-share-keys":               "key derivation across items",
	"wg-peer-preshared-key-both":             "across fields",
	"wg-nobody-can-open":                     "across items",
	"wg-overlaps-pod-cidr":                   "overlap across fields",
	"wg-overlaps-default-service-cidr":       "overlap across fields",
	"wg-interfaces-overlap":                  "overlap across items",
	"secret-wait-for-too-long":               "duration arithmetic",
	"firewall-overlay-without-wireguard":     "across fields",
	"firewall-overlay-without-node-address":  "across fields",
	"firewall-public-port-not-in-role":       "depends on the role",
	"firewall-public-ports-cover-every-port": "depends on the role and the whole list",
	"firewall-calico-vxlan-public":           "depends on the cni, clusterPorts and the role",
	"firewall-endpoint-name-guarded":         "depends on the role, the endpoint being a name, clusterPorts and the public ports",
}

func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema()))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatalf("compiling the schema against draft 2020-12: %v", err)
	}
	return s
}

// asJSON turns a YAML document into the value a JSON Schema validator sees.
func asJSON(t *testing.T, file string) (any, bool) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil || v == nil {
		return nil, false
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return out, true
}

func TestJSONSchemaAcceptsValidConfigs(t *testing.T) {
	s := compiledSchema(t)
	for _, file := range configs(t, "valid") {
		v, ok := asJSON(t, file)
		if !ok {
			t.Fatalf("%s: not a YAML mapping", file)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: the schema rejects a valid config: %v", filepath.Base(file), err)
		}
	}
}

func TestJSONSchemaRejectsInvalidConfigs(t *testing.T) {
	s := compiledSchema(t)
	var wrongly []string
	for _, file := range configs(t, "invalid") {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		why, inexpressible := notInJSONSchema[name]
		inexpressible = inexpressible && why != ""
		v, ok := asJSON(t, file)
		rejected := !ok || s.Validate(v) != nil
		if !inexpressible && !rejected {
			wrongly = append(wrongly, name)
		}
		if inexpressible && rejected && ok {
			t.Errorf("%s: listed as beyond JSON Schema (%s) but the schema rejects it; drop it from the list", name, why)
		}
	}
	sort.Strings(wrongly)
	if len(wrongly) > 0 {
		t.Errorf("the schema accepts invalid configs whose mistake it can express:\n  %s", strings.Join(wrongly, "\n  "))
	}
}

// The schema's root description is what an editor shows for the whole
// document: it says what the document is, to the operator writing it, and
// carries no note to the agent's maintainers (Go names, how the types are
// kept).
func TestJSONSchemaRootSpeaksToOperators(t *testing.T) {
	var root struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(JSONSchema(), &root); err != nil {
		t.Fatal(err)
	}
	d := root.Description
	for _, want := range []string{"corium block", "corium:", "#cloud-config", "corium-agent validate"} {
		if !strings.Contains(d, want) {
			t.Errorf("the root description does not say %q: %s", want, d)
		}
	}
	goName := regexp.MustCompile(`\b[A-Z][a-z]+[A-Z][A-Za-z]*\b`)
	for _, m := range append(goName.FindAllString(d, -1), maintainerNotes.FindAllString(d, -1)...) {
		t.Errorf("the root description carries a maintainers' note (%q): %s", m, d)
	}
}

var maintainerNotes = regexp.MustCompile(`(?i)pointers?|supported forever|a key added here|defaults are applied only`)
