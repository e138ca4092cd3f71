package source

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
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
			if len(words) == 0 {
				// GRUB's grammar wants a command before each ;, and a
				// script that breaks it loses the whole entry, which
				// moves every later entry up a number.
				return nil, fmt.Errorf("a ; with no command before it, which GRUB's grammar refuses: it drops the whole entry; remove it")
			}
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

// grubEntryLine is the kernel line an entry boots, the line of the linux
// command that set it, and the kernel's path, which GRUB puts before the
// line as BOOT_IMAGE= (grub-core/loader/i386/linux.c, LINUX_IMAGE).
type grubEntryLine struct {
	line  string
	at    int
	image string
}

// grubMenuEntry is one menuentry: its title and --id, and the kernel line
// it boots (nil: it loads no kernel).
type grubMenuEntry struct {
	title, id string
	at        int
	kernel    *grubEntryLine
	// sets says the entry sets or clears a variable, which the next entry
	// GRUB runs after it (a fallback) reads.
	sets bool
}

// grubSets says a statement sets or clears a variable: set, NAME=VALUE,
// or search's --set.
func grubSets(st grubStmt) bool {
	switch name := grubLiteral(st.words[0]); {
	case name == "set" || name == "search":
		return true
	case len(st.words) == 1 && !st.words[0][0].isVar:
		k, _, isSet := strings.Cut(st.words[0][0].text, "=")
		return isSet && grubName.MatchString(k)
	}
	return false
}

// grubStmt is one command of the file and the line it is on.
type grubStmt struct {
	words [][]grubPart
	at    int
}

// grubBoots reads a grub.cfg's entries in the file's order, and what the
// file sets before any entry runs (default= and fallback= among it); ok is
// false when the text holds no GRUB command the reader knows (no linux or
// menuentry line). Lines with no menuentry are one entry's.
func grubBoots(text string) (entries []grubMenuEntry, env grubEnv, ok bool, err error) {
	var (
		top    []grubStmt
		bodies [][]grubStmt
		heads  []grubStmt
		in     bool
	)
	lines := strings.Split(text, "\n")
	for _, l := range lines { // a line the lexer refuses counts too
		if f := strings.Fields(l); len(f) > 0 && (f[0] == "menuentry" || grubVerbs[f[0]] == "linux") {
			ok = true
		}
	}
	if !ok {
		return nil, nil, false, nil
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
			case grubBraceAt(c) >= 0 && !(first == "menuentry" && grubBraceAt(c) == len(c)-1 && grubBrace(c[len(c)-1]) == "{") && !(len(c) == 1 && grubBrace(c[0]) == "}"):
				// GRUB takes a { or } word as a block's, wherever it stands:
				// a } on a linux line closes the entry, and a { after a
				// command opens a block the command takes as an argument.
				lexErr = fmt.Errorf("a { or } outside quotes opens or closes a block wherever it stands; the reader follows { at the end of a menuentry line and } alone on a line, and any other in quotes")
			case first == "}" && len(c) == 1 && in && len(bodies[len(bodies)-1]) == 0:
				// GRUB's grammar wants a command in a block: it drops an
				// entry without one, and the later entries move up a number.
				lexErr = fmt.Errorf("the entry opened on line %d runs no command, and GRUB drops it, so the entries after it take other numbers; give it a command or remove it", heads[len(heads)-1].at)
			case first == "}" && len(c) == 1 && in:
				in = false
			case first == "menuentry" && grubBrace(c[len(c)-1]) == "{" && !in:
				in = true
				bodies = append(bodies, nil)
				heads = append(heads, grubStmt{c[1 : len(c)-1], i + 1})
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
		return nil, nil, true, err
	}
	env = grubEnv{}
	if len(bodies) == 0 { // one entry's lines, to paste into one
		bodies, top, heads = [][]grubStmt{top}, nil, []grubStmt{{}}
	}
	if _, err := env.run(top, false); err != nil {
		return nil, nil, true, err
	}
	for i, body := range bodies {
		me := grubMenuEntry{at: heads[i].at}
		if me.title, me.id, err = env.menuentry(heads[i]); err != nil {
			return nil, nil, true, err
		}
		local := grubEnv{}
		for k, v := range env {
			local[k] = v
		}
		if me.kernel, err = local.run(body, true); err != nil {
			return nil, nil, true, err
		}
		for _, st := range body {
			me.sets = me.sets || grubSets(st)
		}
		entries = append(entries, me)
	}
	return entries, env, true, nil
}

// grubBrace is the word when it is a { or } outside quotes, "" otherwise.
func grubBrace(w []grubPart) string {
	if len(w) == 1 && !w[0].isVar && !w[0].quoted && (w[0].text == "{" || w[0].text == "}") {
		return w[0].text
	}
	return ""
}

// grubBraceAt is the index of a command's first { or } word outside
// quotes, -1 when it has none.
func grubBraceAt(c [][]grubPart) int {
	for i, w := range c {
		if grubBrace(w) != "" {
			return i
		}
	}
	return -1
}

// menuentry reads a menuentry's words between its name and its {: the
// title (its first word that is no option) and --id's value, expanded
// from what the file set. The options taking a value are those of
// grub-core/commands/menuentry.c's options table.
func (e grubEnv) menuentry(head grubStmt) (title, id string, err error) {
	if head.at == 0 {
		return "", "", nil // no menuentry: the lines are one entry's
	}
	words, err := e.words(head.words)
	if err != nil {
		return "", "", fmt.Errorf("line %d: menuentry: %w", head.at, err)
	}
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "--id" || w == "--class" || w == "--users" || w == "--hotkey" || w == "--source":
			if i+1 == len(words) {
				return "", "", fmt.Errorf("line %d: menuentry: %s takes a value", head.at, w)
			}
			if w == "--id" {
				id = words[i+1]
			}
			i++
		case strings.HasPrefix(w, "--id="):
			id = strings.TrimPrefix(w, "--id=")
		case strings.HasPrefix(w, "-"):
		case title == "":
			title = w
		}
	}
	return title, id, nil
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
			switch {
			case len(words) == 0:
				return nil, fmt.Errorf("line %d: %s names no kernel", s.at, name)
			case kernel != nil:
				// Each loads a kernel, and one that fails to load leaves
				// the one before: which boots is decided at boot.
				return nil, fmt.Errorf("line %d: a second %s in the entry (the first is on line %d); GRUB boots the last kernel that loads, so keep one linux line an entry", s.at, name, kernel.at)
			}
			kernel = &grubEntryLine{line: grubKernelLine(words[1:]), at: s.at, image: words[0]}
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
// is no GRUB script. The line starts with BOOT_IMAGE=, as GRUB hands it
// the kernel. Entries naming corium.config= that carry different
// parameters are an error: which one boots is the menu's choice; and so is
// an entry GRUB boots unattended (grubUnattended) that does not name it.
func grubBooted(text string) (line string, at int, ok bool, err error) {
	entries, env, ok, err := grubBoots(text)
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
	for _, me := range entries {
		if me.kernel == nil {
			continue
		}
		args := parseCmdline(me.kernel.line)
		if _, named := args.get(ParamConfig); !named {
			continue
		}
		if first == nil {
			first = me.kernel
			continue
		}
		was := parseCmdline(first.line)
		for _, p := range []string{ParamConfig, ParamSHA256, ParamWait} {
			if args[p] != was[p] {
				return "", 0, true, fmt.Errorf("lines %d and %d: two GRUB entries give %s= different values, and which one boots is the menu's choice (default=, fallback=, or whoever is at the console); give every entry the same parameters", first.at, me.kernel.at, p)
			}
		}
	}
	unattended, err := grubUnattended(entries, env)
	if err != nil || first == nil {
		// Without the document anywhere, the script is no concern of the
		// agent's (booted hands it on); with it, an entry that cannot be
		// told is refused.
		if first == nil && len(entries) > 0 && entries[0].kernel != nil {
			return grubWithImage(entries[0].kernel), entries[0].kernel.at, true, nil
		}
		return "", 0, true, err
	}
	for n, i := range unattended {
		me := entries[i]
		if n+1 < len(unattended) && me.sets {
			// GRUB runs a fallback in what the entry before it left
			// (grub_menu_execute_with_fallback), not in the file's.
			return "", 0, true, fmt.Errorf("line %d: the entry GRUB falls back from (%s) sets variables, which the fallback entry then sees; set them before the entries", me.at, grubEntryName(me, i))
		}
		if me.kernel == nil {
			return "", 0, true, fmt.Errorf("the entry GRUB boots unattended (%s) loads no kernel, so GRUB goes on to another or stops at the menu; make the default entry the one that boots the document", grubEntryName(me, i))
		}
		if _, named := parseCmdline(me.kernel.line).get(ParamConfig); !named {
			return "", 0, true, fmt.Errorf("line %d: the entry GRUB boots unattended (%s) does not name %s=, so the node boots without the document validate checked; make the entry carrying the document the default (set default=), or give it the same parameters", me.kernel.at, grubEntryName(me, i), ParamConfig)
		}
	}
	boots := entries[unattended[0]].kernel
	if len(strings.Fields(text)) > 0 && !strings.Contains(strings.TrimSpace(text), "\n") {
		return grubWithImage(boots), 0, true, nil // the line is the text
	}
	return grubWithImage(boots), boots.at, true, nil
}

// grubWithImage is the line GRUB hands the kernel: BOOT_IMAGE= and the
// kernel's path first (grub-core/loader/i386/linux.c grub_cmd_linux), so
// that it is measured whole against the kernel's limit; GRUB drops what no
// longer fits without a word (grub_create_loader_cmdline).
func grubWithImage(k *grubEntryLine) string {
	if k.image == "" {
		return k.line
	}
	image := "BOOT_IMAGE=" + grubKernelLine([]string{k.image}) // joined as every word
	if k.line == "" {
		return image
	}
	return image + " " + k.line
}

// grubEntryName names an entry in an error.
func grubEntryName(me grubMenuEntry, i int) string {
	if me.title == "" {
		return fmt.Sprintf("entry %d", i)
	}
	return fmt.Sprintf("entry %d, %q", i, me.title)
}

// grubUnattended are the entries GRUB boots with nobody at the console,
// by index: the one default= names (the first when it is not set), then
// each fallback= names (grub-core/normal/menu.c get_entry_number,
// grub_menu_execute_with_fallback). The reader follows default= and
// fallback= naming an entry by its number, its title or its --id exactly;
// anything else (a number past the last entry, which GRUB reads as the
// first, a submenu's path, a name two entries share) is refused.
func grubUnattended(entries []grubMenuEntry, env grubEnv) ([]int, error) {
	def, set := env["default"], true
	if _, set = env["default"]; !set {
		def = "0"
	}
	out := []int{}
	for n, names := range [][]string{{def}, strings.Fields(env["fallback"])} {
		for _, name := range names {
			i, err := grubEntryIndex(entries, name)
			if err != nil {
				return nil, fmt.Errorf("%s=%s: %w", []string{"default", "fallback"}[n], name, err)
			}
			out = append(out, i)
		}
	}
	return out, nil
}

// grubEntryIndex is the entry name names as get_entry_number finds it.
func grubEntryIndex(entries []grubMenuEntry, name string) (int, error) {
	if grubDecimal.MatchString(name) {
		i, err := strconv.Atoi(name)
		if err != nil || i >= len(entries) {
			return 0, fmt.Errorf("names entry %s, and the file has %d: GRUB then boots the first; name an entry that is there", name, len(entries))
		}
		return i, nil
	}
	if name == "" || strings.ContainsAny(name, ">") || (name[0] >= '0' && name[0] <= '9') {
		return 0, errors.New("the reader follows an entry's number, title or --id here, not a submenu's path or a value GRUB reads as a number; name the entry plainly")
	}
	found := -1
	for i, me := range entries {
		if me.title == name || me.id == name {
			if found >= 0 {
				return 0, fmt.Errorf("names entries %d and %d alike; give each entry a title or --id of its own", found, i)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, errors.New("names no entry of the file, and GRUB then boots the first; name an entry that is there")
	}
	return found, nil
}

var grubDecimal = regexp.MustCompile(`^(0|[1-9][0-9]{0,8})$`)
