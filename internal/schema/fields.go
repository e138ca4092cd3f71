package schema

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/netip"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// Field rules are validator/v10 tags on the types (see fieldrules.go); this
// file holds the project's own named rules and turns failed tags into
// findings at the document's paths.

var (
	dnsLabelRe  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	ifnameRe    = regexp.MustCompile(`^[a-z0-9][-a-z0-9]*$`)
	labelNameRe = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	subdomainRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

func isDNSLabel(s string) bool { return len(s) <= 63 && dnsLabelRe.MatchString(s) }

func isHostname(s string) bool {
	return len(s) <= 253 && subdomainRe.MatchString(strings.TrimSuffix(s, "."))
}

func isHostOrIP(s string) bool { return isIPAddr(s) || isHostname(s) }

func isIfname(s string) bool { return len(s) <= 15 && ifnameRe.MatchString(s) }

func isPrefix(s string) bool {
	_, err := netip.ParsePrefix(s)
	return err == nil
}

func isNetPrefix(s string) bool {
	p, err := netip.ParsePrefix(s)
	return err == nil && p == p.Masked()
}

// isHostPrefix wants an address on a network (10.10.0.1/24), not the network
// itself, except for /31, /32, /127 and /128 where every address is a host.
func isHostPrefix(s string) bool {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return false
	}
	return p.Bits() >= p.Addr().BitLen()-1 || p.Addr() != p.Masked().Addr()
}

func isIPAddr(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}

func isWGKey(s string) bool {
	_, ok := parseKey(s)
	return ok
}

// strictBase64 refuses stray bits after the last byte.
var strictBase64 = base64.StdEncoding.Strict()

// parseKey reads a WireGuard key in its canonical spelling only: Go's
// base64 ignores line breaks and stray bits after the last byte, wg refuses
// them, and wg-quick would fail at boot. It allocates nothing, which matters
// with thousands of peers.
func parseKey(s string) (wgtypes.Key, bool) {
	var key wgtypes.Key
	var text [44]byte // base64 of 32 bytes
	if len(s) != len(text) {
		return key, false
	}
	copy(text[:], s)
	var raw [wgtypes.KeyLen + 1]byte // DecodedLen(44): room for the padding
	n, err := strictBase64.Decode(raw[:], text[:])
	if err != nil || n != wgtypes.KeyLen {
		return key, false
	}
	copy(key[:], raw[:n])
	return key, true
}

func isHostPort(s string) bool {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535 && isHostOrIP(host)
}

// isQualifiedName is a Kubernetes label or taint key: [prefix/]name.
func isQualifiedName(s string) bool {
	prefix, name, found := strings.Cut(s, "/")
	if !found {
		name, prefix = prefix, ""
	} else if prefix == "" || !isHostname(prefix) || strings.HasSuffix(prefix, ".") {
		return false
	}
	return len(name) <= 63 && labelNameRe.MatchString(name)
}

func isLabelValue(s string) bool {
	return s == "" || (len(s) <= 63 && labelNameRe.MatchString(s))
}

const (
	labelNameRule = "at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
)

// fieldMessages says what each tag wants, never quoting the value.
var fieldMessages = map[string]string{
	"required":      "is required",
	"dnslabel":      "must be a DNS label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit",
	"dnssubdomain":  "must be a DNS subdomain (RFC 1123), as a Kubernetes node name is: at most 253 characters, labels of at most 63 lowercase letters, digits or '-' separated by dots, each starting and ending with a letter or digit",
	"hostlink":      "must be a host interface's name as the kernel allows it (1 to 15 bytes, no '/', ':', whitespace or control character, not '.' or '..'; VLANs and bonds such as bond0.100 are fine) and keepalived reads as it is (none of # ! \" { } $ \\, which it reads otherwise where k0s writes the name) or its MAC address as ip link prints it (lowercase hex pairs joined by ':'), which k0s looks up among the host's interfaces",
	"hostorip":      "must be a host name or an IP address",
	"ifname":        "must be an interface name: at most 15 characters matching ^[a-z0-9][-a-z0-9]*$",
	"netprefix":     "must be a network prefix such as 10.244.0.0/16 (no host bits set)",
	"prefix":        "must be a prefix such as 10.10.0.0/24 or 10.10.0.2/32",
	"hostprefix":    "must be a host address with its prefix length, such as 10.10.0.1/24",
	"ipaddr":        "must be an IP address",
	"wgkey":         "must be a WireGuard key: 32 bytes in base64 (wg genkey, wg pubkey)",
	"hostport":      "must be host:port with a port from 1 to 65535",
	"qualifiedname": "must be a Kubernetes qualified name: an optional DNS subdomain prefix and '/', then " + labelNameRule,
	"labelvalue":    "must be a Kubernetes label value: empty or " + labelNameRule,
	"vrrppass":      "must be " + VRRPPasswordRule,
}

func fieldMessage(fe fieldError) string {
	if fe.field == "peers" && (fe.tag == "required" || fe.tag == "min") {
		return "is required: WireGuard answers only the peers it knows, so nobody can open this tunnel"
	}
	if m, ok := fieldMessages[fe.tag]; ok {
		if fe.tag == "hostport" {
			m += bracketHint(fmt.Sprint(fe.value))
		}
		return m
	}
	switch fe.tag {
	case "oneof":
		choices := strings.ReplaceAll(fe.param, " ", ", ")
		if got := fmt.Sprint(fe.value); looksLikeEnumValue(got) {
			return fmt.Sprintf("must be one of %s (got %q)", choices, got)
		}
		return "must be one of " + choices + " (the value is not shown: it does not look like one)"
	case "eq":
		return "must be " + fe.param
	case "min":
		if fe.kind == reflect.Slice {
			return "must not be empty"
		}
		return "must be at least " + fe.param
	case "max":
		if fe.kind == reflect.String {
			return "must be at most " + fe.param + " characters"
		}
		return "must be at most " + fe.param
	}
	return "fails the " + fe.tag + " rule"
}

// checkFields runs the tag rules.
func checkFields(c *collector, cfg *Config) {
	for _, fe := range checkTags(cfg) {
		at := fe.path
		if fe.tag == "qualifiedname" && strings.HasPrefix(fe.path, "node.labels[") {
			at += keySuffix // a bad label key is placed at the key
		}
		c.errorAt(at, fe.path, "%s", fieldMessage(fe))
	}
}

// isDNSSubdomain is an RFC 1123 subdomain as a Kubernetes node name must be
// (IsDNS1123Subdomain: at most 253 characters), each label at most 63
// characters as RFC 1123 keeps from RFC 1035, which Kubernetes does not
// check: the hostname is the name's first label when the name is longer
// than the kernel's 64, and must then fit.
func isDNSSubdomain(s string) bool {
	if len(s) > 253 || s == "" {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if !isDNSLabel(label) {
			return false
		}
	}
	return true
}
