package source

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A grub.cfg is read here as GRUB runs it (coreos/grub at c6b9a0a, GRUB
// 2's script language: grub-core/script/yylex.l and execute.c, normal/
// menu.c, lib/cmdline.c), so the kernel line validate checks is the one an
// entry boots. GRUB runs the whole file first, building the menu, and an
// entry's commands later, when it is chosen: by default=, by fallback=, or
// by whoever is at the console. So every entry is read, and every entry
// naming corium.config= must carry the same document: then whichever boots,
// the node reads the document validate checked. The reader follows a
// grammar it can follow completely, by allow-list, and refuses the rest
// by line and command:
//
//   - words are split as GRUB's lexer splits them: blanks separate, \
//     escapes a character outside quotes, single quotes keep every
//     character, double quotes keep all but \$ \" \\ and $-expansions, a
//     word starting with # is a comment, ; ends a command; a line that
//     goes on in the next (a \ at its end, an open quote) and the
//     metacharacters | & < > and a { or } inside a word are refused;
//   - $name and ${name} are expanded from what the file set (set
//     name=value, name=value), at the top before any entry runs, then in
//     the entry in order; any other variable (GRUB's own: root, prefix,
//     chosen, ...) is known only at boot; unquoted, a value holding a blank
//     or none is refused (GRUB splits it into words);
//   - menuentry TITLE... { opens an entry and } closes it; in it, linux
//     (linuxefi, linux16) loads the kernel with the words after its path as
//     the line, the last one in the entry winning, and initrd, insmod,
//     search (whose variable becomes unknown), echo, set and export are
//     followed; anything else (if, for, source, configfile, load_env,
//     submenu, function calls) is refused;
//   - lines with no menuentry are read as one entry's, as they are pasted
//     into one;
//   - the kernel gets the words as grub_create_loader_cmdline joins them:
//     \ ' and " escaped with a backslash, a word holding a blank in double
//     quotes.

// grubVerbs are the commands the reader follows and what each is to it.
var grubVerbs = map[string]string{
	"linux": "linux", "linuxefi": "linux", "linux16": "linux",
	"initrd": "skip", "initrdefi": "skip", "initrd16": "skip",
	"insmod": "skip", "echo": "skip", "export": "skip",
	"set": "set", "search": "search", "menuentry": "menuentry",
}

// grubSetByMenu are variables the menu sets after the file ran, when an
// entry is chosen or a key pressed: what the file set is not what the
// entry reads.
var grubSetByMenu = []string{"chosen", "default", "fallback", "timeout", "timeout_style"}

var grubName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// grubPart is a piece of a word: literal text, or a variable to expand,
// split into words (unquoted) or not (in double quotes).
type grubPart struct {
	text   string
	isVar  bool
	quoted bool
}

// grubLex splits one line into commands of words, as GRUB's lexer does
// for the grammar the reader follows.
func grubLex(line string) ([][][]grubPart, error) {
	var (
		cmds  [][][]grubPart
		words [][]grubPart
		word  []grubPart
		inTok bool
	)
	lit := func(s string, q bool) {
		if n := len(word); n > 0 && !word[n-1].isVar {
			word[n-1].text += s
		} else {
			word = append(word, grubPart{text: s, quoted: q})
		}
		inTok = true
	}
	flush := func() {
		if inTok {
			words = append(words, word)
		}
		word, inTok = nil, false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inTok:
			flush()
			return append(cmds, words), nil
		case c == ';':
			flush()
			cmds, words = append(cmds, words), nil
		case c == '\\':
			if i+1 == len(line) {
				return nil, fmt.Errorf("a \\ at the end of the line goes on in the next; write the command on one line")
			}
			i++
			lit(line[i:i+1], true)
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("a single quote is not closed on its line; write the command on one line")
			}
			lit(line[i+1:i+1+end], true)
			i += end + 1
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				switch {
				case line[j] == '\\' && j+1 < len(line) && strings.IndexByte("$\"\\", line[j+1]) >= 0:
					j++
					lit(line[j:j+1], true)
				case line[j] == '$':
					name, n, err := grubVarName(line[j:])
					if err != nil {
						return nil, err
					}
					word, inTok = append(word, grubPart{text: name, isVar: true, quoted: true}), true
					j += n - 1
				default:
					lit(line[j:j+1], true)
				}
			}
			if j == len(line) {
				return nil, fmt.Errorf("a double quote is not closed on its line; write the command on one line")
			}
			lit("", true)
			i = j
		case c == '$':
			name, n, err := grubVarName(line[i:])
			if err != nil {
				return nil, err
			}
			word, inTok = append(word, grubPart{text: name, isVar: true}), true
			i += n - 1
		case strings.IndexByte("|&<>", c) >= 0:
			return nil, fmt.Errorf("%q is one of GRUB's metacharacters, which the reader does not follow; quote it", c)
		case (c == '{' || c == '}') && (inTok || i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t'):
			return nil, fmt.Errorf("%q inside a word is one of GRUB's metacharacters; quote it", c)
		case strings.IndexByte("*?[", c) >= 0:
			return nil, fmt.Errorf("%q is a wildcard GRUB expands to file names once its regexp module is loaded; quote it", c)
		default:
			lit(line[i:i+1], false)
		}
	}
	flush()
	return append(cmds, words), nil
}

// grubVarName reads the variable s starts with ($name or ${name}): its
// name and how many bytes it takes.
func grubVarName(s string) (string, int, error) {
	if strings.HasPrefix(s, "${") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0, fmt.Errorf("a ${ is not closed on its line")
		}
		return s[2:end], end + 1, nil
	}
	n := 1
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if n == 1 {
		return "", 0, fmt.Errorf("a $ that names no variable; quote it in single quotes")
	}
	return s[1:n], n, nil
}

// grubEnv is what the reader knows of GRUB's variables: a variable not
// in it is known only at boot.
type grubEnv map[string]string

// words are a command's words, expanded.
func (e grubEnv) words(parts [][]grubPart) ([]string, error) {
	out := make([]string, len(parts))
	for i, w := range parts {
		for _, p := range w {
			if !p.isVar {
				out[i] += p.text
				continue
			}
			v, ok := e[p.text]
			switch {
			case !ok || slices.Contains(grubSetByMenu, p.text):
				return nil, fmt.Errorf("$%s is a variable the file does not set (or the menu sets anew), so its value is known only at boot; write the value out", p.text)
			case !p.quoted && (v == "" || strings.ContainsAny(v, " \t\n")):
				return nil, fmt.Errorf("$%s is not quoted and its value is empty or holds a blank, which GRUB splits into words; put it in double quotes", p.text)
			}
			out[i] += v
		}
	}
	return out, nil
}

// grubEntryLine is the kernel line an entry boots and the line of the
// linux command that set it.
type grubEntryLine struct {
	line string
	at   int
}

// grubStmt is one command of the file and the line it is on.
type grubStmt struct {
	words [][]grubPart
	at    int
}

// grubBoots reads a grub.cfg's entries: the kernel line of each entry that
// loads a kernel, in the file's order; ok is false when the text holds no
// GRUB command the reader knows (no linux or menuentry line).
func grubBoots(text string) (entries []grubEntryLine, ok bool, err error) {
	var (
		top    []grubStmt
		bodies [][]grubStmt
		in     bool
	)
	lines := strings.Split(text, "\n")
	for _, l := range lines { // a line the lexer refuses counts too
		if f := strings.Fields(l); len(f) > 0 && (f[0] == "menuentry" || grubVerbs[f[0]] == "linux") {
			ok = true
		}
	}
	if !ok {
		return nil, false, nil
	}
	for i, l := range lines {
		cmds, lexErr := grubLex(strings.TrimSuffix(l, "\r"))
		for _, c := range cmds {
			if len(c) == 0 {
				continue
			}
			first := grubLiteral(c[0])
			switch {
			case lexErr != nil:
			case first == "}" && len(c) == 1 && in:
				in = false
			case first == "menuentry" && grubLiteral(c[len(c)-1]) == "{" && !in:
				in = true
				bodies = append(bodies, nil)
			case first == "menuentry":
				lexErr = fmt.Errorf("menuentry: the reader follows an entry written menuentry TITLE... { on one line, its commands, then } alone on a line, not nested")
			case in:
				bodies[len(bodies)-1] = append(bodies[len(bodies)-1], grubStmt{c, i + 1})
			default:
				top = append(top, grubStmt{c, i + 1})
			}
		}
		if lexErr != nil {
			err = fmt.Errorf("line %d: %w", i+1, lexErr)
			break
		}
	}
	if err == nil && in {
		err = fmt.Errorf("the last menu entry is not closed with }")
	}
	if err != nil {
		return nil, true, err
	}
	env := grubEnv{}
	if len(bodies) == 0 { // one entry's lines, to paste into one
		bodies, top = [][]grubStmt{top}, nil
	}
	if _, err := env.run(top, false); err != nil {
		return nil, true, err
	}
	for _, body := range bodies {
		local := grubEnv{}
		for k, v := range env {
			local[k] = v
		}
		e, err := local.run(body, true)
		if err != nil {
			return nil, true, err
		}
		if e != nil {
			entries = append(entries, *e)
		}
	}
	return entries, true, nil
}

// run runs statements in order; in an entry, linux sets the kernel line.
func (e grubEnv) run(stmts []grubStmt, entry bool) (*grubEntryLine, error) {
	var kernel *grubEntryLine
	for _, s := range stmts {
		if head := s.words[0][0]; !head.isVar && len(s.words) == 1 {
			if k, _, isSet := strings.Cut(head.text, "="); isSet && grubName.MatchString(k) {
				vs, err := e.words(s.words)
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", s.at, err)
				}
				_, e[k], _ = strings.Cut(vs[0], "=")
				continue
			}
		}
		name := grubLiteral(s.words[0])
		verb, known := grubVerbs[name]
		if !known || (verb == "linux" && !entry) {
			return nil, fmt.Errorf("line %d: the command %s is not one the reader follows here; a grub.cfg that boots the document uses set, menuentry and, in an entry, linux, initrd, insmod, search, echo and set", s.at, grubShown(name))
		}
		words, err := e.words(s.words[1:])
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", s.at, name, err)
		}
		switch verb {
		case "set":
			k, v, isSet := strings.Cut(strings.Join(words, " "), "=")
			if len(words) != 1 || !isSet || !grubName.MatchString(k) {
				return nil, fmt.Errorf("line %d: set: the reader follows set NAME=VALUE, one variable", s.at)
			}
			e[k] = v
		case "search":
			delete(e, "root")
			for _, w := range words {
				if v, ok := strings.CutPrefix(w, "--set="); ok {
					delete(e, v)
				}
			}
		case "linux":
			if len(words) == 0 {
				return nil, fmt.Errorf("line %d: %s names no kernel", s.at, name)
			}
			kernel = &grubEntryLine{line: grubKernelLine(words[1:]), at: s.at}
		}
	}
	return kernel, nil
}

// grubLiteral is a word with no variable in it, "" otherwise.
func grubLiteral(w []grubPart) string {
	var s strings.Builder
	for _, p := range w {
		if p.isVar {
			return ""
		}
		s.WriteString(p.text)
	}
	return s.String()
}

// grubShown names a command in an error: its name, or that it is built
// from a variable.
func grubShown(name string) string {
	if name == "" {
		return "built from a variable"
	}
	return name
}

// grubKernelLine joins words as grub_create_loader_cmdline does: \ ' and
// " escaped with a backslash, a word holding a blank in double quotes.
func grubKernelLine(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		w = strings.NewReplacer(`\`, `\\`, `'`, `\'`, `"`, `\"`).Replace(w)
		if strings.Contains(w, " ") {
			w = `"` + w + `"`
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// grubBooted is the kernel line a GRUB text boots, and the line of the
// linux command that sets it (0: the text is the line's words alone, as
// cmdline --grub prints them to paste onto one); ok is false when the text
// is no GRUB script. Entries naming corium.config= that carry different
// parameters are an error: which one boots is the menu's choice.
func grubBooted(text string) (line string, at int, ok bool, err error) {
	entries, ok, err := grubBoots(text)
	if !ok && len(strings.Fields(text)) > 0 && !strings.Contains(strings.TrimSpace(text), "\n") {
		cmds, err := grubLex(strings.TrimSpace(text))
		switch {
		case err != nil:
			return "", 0, true, err
		case len(cmds) != 1:
			return "", 0, true, errors.New("a ; ends GRUB's command, and the parameters are one command's words")
		}
		words, err := grubEnv{}.words(cmds[0])
		return grubKernelLine(words), 0, true, err
	}
	if !ok || err != nil {
		return "", 0, ok, err
	}
	var first *grubEntryLine
	for i, e := range entries {
		args := parseCmdline(e.line)
		if _, named := args.get(ParamConfig); !named {
			continue
		}
		if first == nil {
			first = &entries[i]
			continue
		}
		was := parseCmdline(first.line)
		for _, p := range []string{ParamConfig, ParamSHA256, ParamWait} {
			if args[p] != was[p] {
				return "", 0, true, fmt.Errorf("lines %d and %d: two GRUB entries give %s= different values, and which one boots is the menu's choice (default=, fallback=, or whoever is at the console); give every entry the same parameters", first.at, e.at, p)
			}
		}
	}
	switch {
	case first != nil && len(strings.Fields(text)) > 0 && !strings.Contains(strings.TrimSpace(text), "\n"):
		return first.line, 0, true, nil // the line is the text
	case first != nil:
		return first.line, first.at, true, nil
	case len(entries) > 0:
		return entries[0].line, entries[0].at, true, nil
	}
	return "", 0, true, nil
}
