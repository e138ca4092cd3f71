package rules

import (
	"errors"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The value syntaxes k0s's rules use, each as the library k0s calls has it
// at the versions k0s v1.36.3+k0s.0 pins (go.mod): govalidator
// v0.0.0-20230301143203-a9d515a09cc2, k8s.io/apimachinery v0.36.3,
// distribution/reference v0.6.0, helm v3.21.3.

// isIP is govalidator.IsIP.
func isIP(s string) bool { return net.ParseIP(s) != nil }

// The expressions here compile on first use: the agent links this package
// for every run, but most never check a k0s.patch, and the bounded
// repetitions k0s's expressions use compile to one copy per count.
var dnsNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-zA-Z0-9_]{1}[a-zA-Z0-9_-]{0,62}){1}(\.[a-zA-Z0-9_]{1}[a-zA-Z0-9_-]{0,62})*[\._]?$`)
})

// isDNSName is govalidator.IsDNSName: not an IP, at most 255 characters
// besides the dots, labels of letters, digits, '_' and '-'.
func isDNSName(s string) bool {
	if s == "" || len(strings.ReplaceAll(s, ".", "")) > 255 {
		return false
	}
	return !isIP(s) && dnsNameRe().MatchString(s)
}

// portProblem is validation.IsValidPortNum's message, "" for a valid port.
func portProblem(p int64) string {
	if p >= 1 && p <= 65535 {
		return ""
	}
	return "must be between 1 and 65535, inclusive"
}

var dns1123LabelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) })

// dns1123LabelProblem is validation.IsDNS1123Label's message, "" when valid.
func dns1123LabelProblem(s string) string {
	var msgs []string
	if len(s) > 63 {
		msgs = append(msgs, "must be no more than 63 characters")
	}
	if !dns1123LabelRe().MatchString(s) {
		msgs = append(msgs, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
	}
	return strings.Join(msgs, ", ")
}

var releaseNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
})

// releaseNameProblem is helm's chartutil.ValidateReleaseName.
func releaseNameProblem(s string) string {
	if s == "" {
		return "no name provided"
	}
	if len(s) > 53 || !releaseNameRe().MatchString(s) {
		return "invalid release name, must match regex " + releaseNameRe().String() + " and the length must not be longer than 53"
	}
	return ""
}

// imageVersionRe is images.go:42: a tag, optionally with a digest.
var imageVersionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[\w][\w.-]{0,127}(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,})?$`)
})

// parseHostPort is k0s's internal/pkg/net.ParseHostPort
// (internal/pkg/net/hostport.go:37): host:port with a host that is an IP or
// a DNS name and a port from 1 to 65535.
func parseHostPort(s string) error {
	if _, err := netip.ParseAddr(s); err == nil {
		return errors.New("missing port in address")
	}
	host, portStr, err := net.SplitHostPort(s)
	if err != nil {
		// An AddrError's text quotes the address: only its reason is kept.
		var addrErr *net.AddrError
		if !errors.As(err, &addrErr) {
			return errors.New("not a host:port")
		}
		if addrErr.Err == "missing port in address" {
			if _, ok := unwrapIPv6Literal(addrErr.Addr); !ok {
				if err := validateHost(addrErr.Addr); err != nil {
					return err
				}
			}
		}
		return errors.New(addrErr.Err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		// k0s's messages quote the port; these say the same without it.
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("port is out of range")
		}
		return errors.New("port is not a positive number")
	}
	if _, ok := unwrapIPv6Literal(host); ok {
		return nil
	}
	if err := validateHost(host); err != nil {
		return err
	}
	if port == 0 {
		return errors.New("port is zero")
	}
	return nil
}

func unwrapIPv6Literal(host string) (string, bool) {
	if n := len(host); n > 2 && host[0] == '[' && host[n-1] == ']' {
		if a, err := netip.ParseAddr(host[1 : n-1]); err == nil && a.Is6() {
			return host[1 : n-1], true
		}
	}
	return host, false
}

func validateHost(host string) error {
	if isDNSName(host) {
		return nil
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	return errors.New("host is neither an IP address nor a DNS name")
}
