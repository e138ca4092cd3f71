package plan

import "strings"

// Managed is the header every generated text file carries, in the comment
// syntax of its format.
func Managed(commentPrefix string) string {
	return strings.TrimSpace(commentPrefix) + " managed by corium-agent; changes are overwritten\n"
}
