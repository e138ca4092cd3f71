package source

import "strings"

// grubSpecial are the characters GRUB's script language (grub.cfg, and the
// linux line in it) treats specially: blanks and its metacharacters
// { } | & $ ; < > split words, quotes and the backslash quote, $ expands a
// variable, * ? [ ] are wildcards once the regexp module is loaded, and a
// word starting with # is a comment.
const grubSpecial = " \t\n{}|&$;<>'\"\\*?[]#"

// grubQuote spells word so that GRUB hands it to the kernel unchanged: as
// it is when it holds nothing special, else in single quotes, inside which
// every character is literal; a single quote cannot stand inside them and
// is written '\” (close, an escaped quote, reopen). GRUB escapes \ ' and "
// again with a backslash in the line it builds for the kernel, which does
// not unescape them; the parameters the agent prints hold none of the three.
func grubQuote(word string) string {
	if word != "" && !strings.ContainsAny(word, grubSpecial) {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// grubScript is params quoted for GRUB's linux line (grubQuote), as one
// line an operator pastes onto it; line is them as the kernel gets them.
func grubScript(params []string, _ Boot) (script, line string, err error) {
	quoted := make([]string, len(params))
	for i, p := range params {
		quoted[i] = grubQuote(p)
	}
	return strings.Join(quoted, " ") + "\n", strings.Join(params, " "), nil
}
