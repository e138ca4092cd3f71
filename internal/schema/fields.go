package schema

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/secret"
)

// Field rules are validator/v10 tags on the types; this file registers the
// project's own tags and turns validator's errors into findings at the
// document's paths.

var (
	dnsLabelRe  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	ifnameRe    = regexp.MustCompile(`^[a-z0-9][-a-z0-9]*$`)
	labelNameRe = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	subdomainRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

var (
	validateOnce sync.Once
	validate     *validator.Validate
)

func fieldValidator() *validator.Validate {
	validateOnce.Do(func() {
		v := validator.New(validator.WithRequiredStructEnabled())
		v.RegisterTagNameFunc(yamlName)
		// Tags see a secret's text; messages for them never quote it.
		v.RegisterCustomTypeFunc(func(f reflect.Value) any {
			return f.Interface().(secret.Value).Reveal()
		}, secret.Value{})
		for tag, fn := range map[string]func(string) bool{
			"dnslabel":      isDNSLabel,
			"hostorip":      isHostOrIP,
			"ifname":        isIfname,
			"netprefix":     isNetPrefix,
			"prefix":        isPrefix,
			"hostprefix":    isHostPrefix,
			"ipaddr":        isIPAddr,
			"wgkey":         isWGKey,
			"hostport":      isHostPort,
			"qualifiedname": isQualifiedName,
			"labelvalue":    isLabelValue,
		} {
			if err := v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
				return fn(fl.Field().String())
			}); err != nil {
				panic(err)
			}
		}
		validate = v
	})
	return validate
}

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

// isWGKey accepts only the canonical spelling: Go's base64 ignores stray
// bits after the last byte, wg refuses them, and wg-quick would fail at boot.
func isWGKey(s string) bool {
	k, err := wgtypes.ParseKey(s)
	return err == nil && k.String() == s
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
}

func fieldMessage(fe validator.FieldError) string {
	if fe.Field() == "peers" && (fe.Tag() == "required" || fe.Tag() == "min") {
		return "is required: WireGuard answers only the peers it knows, so nobody can open this tunnel"
	}
	if m, ok := fieldMessages[fe.Tag()]; ok {
		return m
	}
	kind := fe.Kind()
	switch fe.Tag() {
	case "oneof":
		return fmt.Sprintf("must be one of %s (got %q)", strings.ReplaceAll(fe.Param(), " ", ", "), fmt.Sprint(fe.Value()))
	case "eq":
		return "must be " + fe.Param()
	case "min":
		if kind == reflect.Slice {
			return "must not be empty"
		}
		return "must be at least " + fe.Param()
	case "max":
		if kind == reflect.String {
			return "must be at most " + fe.Param() + " characters"
		}
		return "must be at most " + fe.Param()
	}
	return "fails the " + fe.Tag() + " rule"
}

// checkFields runs the tag rules.
func checkFields(c *collector, cfg *Config) {
	err := fieldValidator().Struct(cfg)
	var errs validator.ValidationErrors
	if !errors.As(err, &errs) {
		return
	}
	for _, fe := range errs {
		path := documentPath(fe.Namespace())
		at := path
		if fe.Tag() == "qualifiedname" && strings.HasPrefix(path, "node.labels[") {
			at += keySuffix // a bad label key is placed at the key
		}
		c.errorAt(at, path, "%s", fieldMessage(fe))
	}
}

// documentPath turns validator's namespace (Config.node.labels[app]) into the
// document's spelling (node.labels["app"]).
func documentPath(ns string) string {
	_, path, _ := strings.Cut(ns, ".")
	const labels = "node.labels["
	if strings.HasPrefix(path, labels) && strings.HasSuffix(path, "]") {
		return mapKeyPath("node.labels", path[len(labels):len(path)-1])
	}
	return path
}
