package schema

import (
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// The field rules are validator/v10 tags on the types, checked by validator
// itself: its own rules (required, min, max, oneof, dive, keys...) and the
// project's named ones (stringRules), with field names in the document's
// yaml spelling.

// fieldError is one failed tag on one value.
type fieldError struct {
	path  string
	field string // the field's yaml name
	tag   string
	param string
	kind  reflect.Kind
	// value is what oneof quotes; never a secret's text.
	value any
}

// stringRules are the project's named rules; fieldMessages says what each
// wants.
var stringRules = map[string]func(string) bool{
	"dnslabel":      isDNSLabel,
	"dnssubdomain":  isDNSSubdomain,
	"hostlink":      isHostLink,
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
	"vrrppass":      VRRPPassword,
}

// fieldValidator is validator configured as the tags expect: yaml names, a
// secret checked as its text, the named rules registered. A tag validator
// does not know panics at its first use, which every test that validates a
// document reaches.
var fieldValidator = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(yamlName)
	v.RegisterCustomTypeFunc(func(f reflect.Value) any {
		return f.Interface().(secret.Value).Reveal()
	}, secret.Value{})
	for tag, rule := range stringRules {
		if err := v.RegisterValidation(tag, func(fl validator.FieldLevel) bool { return rule(fl.Field().String()) }); err != nil {
			panic("schema: registering " + tag + ": " + err.Error())
		}
	}
	return v
})

// checkTags runs the field rules on cfg.
func checkTags(cfg *Config) []fieldError {
	var errs validator.ValidationErrors
	if !errors.As(fieldValidator().Struct(cfg), &errs) {
		return nil
	}
	out := make([]fieldError, 0, len(errs))
	for _, fe := range errs {
		name, _, _ := strings.Cut(fe.Field(), "[")
		e := fieldError{path: documentPath(fe.Namespace()), field: name, tag: fe.Tag(), param: fe.Param(), kind: fe.Kind()}
		if fe.Tag() == "oneof" || fe.Tag() == "hostport" {
			e.value = fe.Value() // no secret field has a oneof, nor is an endpoint
		}
		out = append(out, e)
	}
	return out
}

// documentPath turns validator's namespace (Config.node.labels[app]) into
// the document's field path (node.labels["app"]): the type name goes, and a
// free-form map key is quoted, so dots and slashes in it are not nesting.
func documentPath(namespace string) string {
	_, path, _ := strings.Cut(namespace, ".")
	for _, m := range mapFields() {
		if rest, ok := strings.CutPrefix(path, m+"["); ok && strings.HasSuffix(rest, "]") {
			return finding.Path(m).Key(rest[:len(rest)-1]).String()
		}
	}
	return path
}

// mapFields are the paths of the free-form maps that have field rules.
var mapFields = sync.OnceValue(func() []string {
	var out []string
	var walk func(t reflect.Type, path finding.Path)
	walk = func(t reflect.Type, path finding.Path) {
		for i := range t.NumField() {
			f := t.Field(i)
			name := yamlName(f)
			if name == "" {
				continue
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			p := path.Field(name)
			switch {
			case ft.Kind() == reflect.Map && f.Tag.Get("validate") != "":
				out = append(out, p.String())
			case ft.Kind() == reflect.Struct && ft != valueType && ft != sourceType:
				walk(ft, p)
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	return out
})
