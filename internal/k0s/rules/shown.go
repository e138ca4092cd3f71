package rules

import (
	"strings"

	"github.com/corium/corium-agent/internal/yamltext"
)

// What a problem may show of the document. The config checked here is the
// agent's ClusterConfig with the operator's k0s.patch merged in, and a patch
// may carry anything (a helm repository's password, kine's dataSource DSN),
// so a message names the field and the kind of value k0s wants, never the
// value. A key is shown only when it is one k0s knows or is shaped like a
// field name: a typo can turn a value into a key (`dataSource mysql://…`).

// hiddenKey stands for a key in a path that is not shown.
const hiddenKey = "<key>"

// shownKey is key as a path may print it.
func shownKey(key string) string {
	if yamltext.NameLike(key) {
		return key
	}
	return hiddenKey
}

// wanted says, for an operator, what to write in a field of Go type want
// (goKind's names, or a v1beta1 type name).
func wanted(want string) string {
	switch want {
	case "string":
		return "a string (quoted when YAML would read it as a number, a boolean or null, such as \"1.0\" or \"no\")"
	case "bool":
		return "true or false"
	case "int", "int32", "int64", "uint32":
		return "an integer, without quotes"
	case "[]string":
		return "a list of strings"
	case "map[string]string":
		return "a mapping of strings to strings"
	}
	if strings.HasPrefix(want, "[]") {
		return "a list of mappings"
	}
	return "a mapping"
}

// hiddenFlag stands for a flag name that is not shown.
const hiddenFlag = "<flag>"

// shownFlagName is a flag's name (without dashes) as a problem may print
// it: one k0s has, or one shaped like a name. A command line holds a join
// token, labels and taints, and a slip can put any of them where a flag's
// name goes.
func shownFlagName(name string) string {
	if knownFlag(name) || yamltext.NameLike(name) {
		return name
	}
	return hiddenFlag
}

// shownFlagArg is a malformed flag argument (---name, --=value) as a
// problem may print it: up to its '=', when the name after the dashes would
// be shown.
func shownFlagArg(arg string) string {
	head, _, _ := strings.Cut(arg, "=")
	if name := strings.TrimLeft(head, "-"); name != "" && shownFlagName(name) == name {
		return head
	}
	return "--" + hiddenFlag
}

// shownShorthand is a one-letter flag as a problem may print it.
func shownShorthand(ch byte) string {
	if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
		return string(ch)
	}
	return hiddenFlag
}

func knownFlag(name string) bool {
	for _, c := range []*command{installCmd, installControllerCmd, installWorkerCmd, controllerCmd, workerCmd} {
		if _, ok := c.flags[name]; ok {
			return true
		}
	}
	return false
}
