package source

import (
	"encoding/base64"
	"flag"
	"fmt"
	_ "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	_ "sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// The GRUB reader held to GRUB's own script engine (design/testing.md,
// "Holding a reader to the program it imitates"): grub-emu, Debian's
// package, runs each script and says which kernel line the entry it boots
// unattended hands to linux; the reader must refuse the script or read
// exactly that line. `grub-emu --version` here prints
//
//	grub-emu (GRUB) 2.06-13+deb12u2
//
// The scripts are kept cases (the shapes of the issue, fixed) and
// generated ones: a menu built from a seed, then mutated at the level of
// bytes, tokens, commands and the menu. -grubemu.n and -grubemu.seed make
// a soak of it.

var (
	grubEmuN    = flag.Int("grubemu.n", 300, "generated grub.cfg scripts the GRUB differential runs through the reader and grub-emu, besides its kept cases")
	grubEmuSeed = flag.Uint64("grubemu.seed", 1, "the seed of the GRUB differential's first generated script; script i has seed+i")
)

// grubEmuWorkers is how many grub-emu run at once: each is one process,
// mostly waiting on its terminal, so two fit a 2-core machine.
const grubEmuWorkers = 2

// grubEmuPrelude goes before the script GRUB runs (the reader never sees
// it). grub-emu has no linux, linuxefi, linux16 or initrd commands, and a
// GRUB function runs only when no command has its name (execute.c's
// grub_script_execute_cmdline looks up grub_command_find first, then
// grub_script_function_find): so these functions stand in for them. The
// stand-in for linux prints its words, each between @@W< and >W@@ (the
// console wraps and GRUB prints some bytes otherwise: a tab as blanks, a
// byte past ASCII as ?), and compares the words after the kernel, byte for
// byte inside GRUB, with the ones the reader read (corium_want, joined by
// @@W@@): that comparison is the verdict, the printed words are for the
// failure message. Its variables are corium_*, which no script here uses.
// timeout=0 boots the default entry at once unless the script sets its own.
func grubEmuPrelude(want []string) string {
	return "set timeout=0\n" +
		"set corium_want='" + strings.ReplaceAll(grubEmuJoin(want), "'", `'\''`) + "'\n" +
		`function corium_linux {
  echo "@@CORIUM-LINUX-BEGIN"
  set corium_got=
  set corium_path=1
  for corium_w in "$@"; do
    echo "@@W<${corium_w}>W@@"
    if [ -n "$corium_path" ]; then set corium_path=; else set corium_got="${corium_got}@@W@@${corium_w}"; fi
  done
  if [ "$corium_got" = "$corium_want" ]; then echo "@@CORIUM-LINUX-SAME"; else echo "@@CORIUM-LINUX-DIFF"; fi
  echo "@@CORIUM-LINUX-END"
}
function linux { corium_linux "$@"; }
function linuxefi { corium_linux "$@"; }
function linux16 { corium_linux "$@"; }
function initrd { true; }
function initrdefi { true; }
function initrd16 { true; }
`
}

func grubEmuJoin(words []string) string {
	var s strings.Builder
	for _, w := range words {
		s.WriteString("@@W@@" + w)
	}
	return s.String()
}

// grubEmuCall is one linux (linuxefi, linux16) command GRUB ran.
type grubEmuCall struct {
	// words are its words as GRUB's console printed them, the kernel
	// first.
	words []string
	// same says the words after the kernel are the ones asked about, byte
	// for byte (compared inside GRUB).
	same bool
}

// line is the kernel command line GRUB builds from the call's words
// (grubCmdline), as printed.
func (c grubEmuCall) line() string {
	if len(c.words) == 0 {
		return ""
	}
	return grubCmdline(c.words[1:])
}

// grubEmuRun is what one run of grub-emu on a script says.
type grubEmuRun struct {
	booted bool        // a linux command ran before the boot GRUB attempts unattended
	call   grubEmuCall // the last such command: the kernel GRUB boots
	why    string      // how the run ended
	out    string      // GRUB's console, carriage returns dropped
	took   time.Duration
}

// GRUB's console, as the run reads it: the stand-in's output, and what the
// menu prints around an entry (normal/menu.c: notify_booting,
// notify_fallback, notify_failure, grub_wait_after_message; the menu's
// help and countdown; the command line's prompt when there is no menu).
var grubEmuEvents = regexp.MustCompile(`(?s)@@CORIUM-LINUX-BEGIN\n(.*?)@@CORIUM-LINUX-(SAME|DIFF)\n@@CORIUM-LINUX-END\n` +
	"|  Booting `|  Falling back to `|Press any key to continue\\.\\.\\.|Failed to boot both default and fallback entries\\." +
	"|for a command-line\\.|executed automatically in|grub> ")

var grubEmuWord = regexp.MustCompile(`(?s)@@W<(.*?)>W@@\n`)

// grubEmuDecide reads GRUB's console so far: done when it shows which
// kernel line GRUB boots unattended, or that it boots none; keys is how
// many key presses the console has asked for (a message GRUB waits on for
// ten seconds, a menu counting down to its default entry, which Enter
// boots at once); menu says GRUB shows its menu, which counts down or
// waits for ever.
//
// A linux command that ran loads the kernel (each loads, as no file is
// read here); GRUB boots what is loaded once an entry's commands end
// (grub_menu_execute_entry: "Implicit execution of boot, only if something
// is loaded"), its own or loaded before it (by the file's top level, which
// runs first). An entry ends where GRUB prints what follows it: the wait
// after its errors, the fallback entry it tries next, or its failure.
func grubEmuDecide(out string) (run grubEmuRun, done bool, keys int, menu, countdown bool) {
	var (
		loaded  *grubEmuCall
		inEntry bool
	)
	for _, m := range grubEmuEvents.FindAllStringSubmatchIndex(out, -1) {
		ev := out[m[0]:m[1]]
		switch {
		case m[2] >= 0:
			call := grubEmuCall{same: out[m[4]:m[5]] == "SAME"}
			for _, w := range grubEmuWord.FindAllStringSubmatch(out[m[2]:m[3]], -1) {
				call.words = append(call.words, w[1])
			}
			if len(call.words) > 0 { // linux with no kernel loads none
				loaded = &call
			}
		case strings.Contains(ev, "Booting") || strings.Contains(ev, "Falling back"):
			if inEntry && loaded != nil {
				return grubEmuRun{booted: true, call: *loaded, why: "an entry ended with a kernel loaded"}, true, keys, menu, countdown
			}
			inEntry = true
		case strings.HasPrefix(ev, "Press any key"):
			if inEntry && loaded != nil {
				return grubEmuRun{booted: true, call: *loaded, why: "an entry ended (with errors) with a kernel loaded"}, true, keys, menu, countdown
			}
			keys++
		case strings.HasPrefix(ev, "Failed to boot"):
			if loaded != nil {
				return grubEmuRun{booted: true, call: *loaded, why: "the entries ended with a kernel loaded"}, true, keys, menu, countdown
			}
			return grubEmuRun{why: "no entry GRUB ran loaded a kernel"}, true, keys, menu, countdown
		case ev == "grub> ":
			return grubEmuRun{why: "GRUB has no menu entry and waits at its command line"}, true, keys, menu, countdown
		case strings.HasPrefix(ev, "for a command-line"):
			if !inEntry {
				menu = true
			}
		case strings.HasPrefix(ev, "executed automatically"):
			if !inEntry && !countdown {
				countdown = true
				keys++
			}
		}
	}
	return grubEmuRun{}, false, keys, menu, countdown
}

// grubEmuRunCount and grubEmuRunTime measure the runs, for the log.
var (
	grubEmuRunCount atomic.Int64
	grubEmuRunTime  atomic.Int64
)

// grubEmu runs cfg in grub-emu (behind grubEmuPrelude, with want as the
// words to compare) until its console shows what GRUB boots unattended,
// then ends it. A run takes about a tenth of a second: grub-emu starts,
// runs the file and the default entry, and is killed as soon as the entry
// ends; a message GRUB waits on is answered with a key. A run still going
// after 20 seconds fails the test.
func grubEmu(t *testing.T, cfg string, want []string) grubEmuRun {
	t.Helper()
	host.RequireCommands(t, "grub-emu", "script", "stty")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "grub.cfg"), []byte(grubEmuPrelude(want)+cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	// grub-emu wants a terminal; script gives it one, wide enough that
	// GRUB's console does not wrap the words.
	cmd := exec.Command("script", "-qfec", "stty cols 4000 rows 50; exec grub-emu -r host -d "+dir, "/dev/null")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := stdout.Read(buf)
			if n > 0 {
				chunks <- buf[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	var (
		out      []byte
		run      grubEmuRun
		done     bool
		pressed  int
		menuSeen time.Time
		deadline = time.After(20 * time.Second)
		tick     = time.NewTicker(50 * time.Millisecond)
	)
	defer tick.Stop()
loop:
	for !done {
		select {
		case c, ok := <-chunks:
			if !ok {
				run.why = "grub-emu ended before its console showed what boots"
				break loop
			}
			out = append(out, c...)
		case <-tick.C:
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("grub-emu still runs after 20s; its console:\n%s", strings.ReplaceAll(string(out), "\r", ""))
		}
		text := strings.ReplaceAll(string(out), "\r", "")
		var keys int
		var menu, countdown bool
		run, done, keys, menu, countdown = grubEmuDecide(text)
		for ; pressed < keys; pressed++ {
			if _, err := stdin.Write([]byte("\r")); err != nil {
				t.Fatalf("a key for grub-emu: %v", err)
			}
		}
		switch {
		case done || !menu || countdown:
		case menuSeen.IsZero():
			menuSeen = time.Now()
		case time.Since(menuSeen) > time.Second: // a menu with no countdown waits for ever
			run, done = grubEmuRun{why: "GRUB waits at its menu with no timeout"}, true
		}
	}
	_ = cmd.Process.Kill()
	for range chunks { // until script's end closes the pipe
	}
	_ = cmd.Wait()
	run.out = strings.ReplaceAll(string(out), "\r", "")
	run.took = time.Since(start)
	grubEmuRunCount.Add(1)
	grubEmuRunTime.Add(int64(run.took))
	return run
}

// grubEmuBoots is the kernel command line the entry GRUB boots unattended
// hands to linux (the words after the kernel, joined as GRUB joins them
// for the kernel), as GRUB's console prints them; booted is false when no
// linux runs before GRUB's boot.
func grubEmuBoots(t *testing.T, cfg string) (line string, booted bool) {
	t.Helper()
	run := grubEmu(t, cfg, nil)
	return run.call.line(), run.booted
}

// grubCmdline joins words into the kernel's command line as GRUB does
// (grub-core/lib/cmdline.c, grub_create_loader_cmdline): \ ' and "
// escaped with a backslash, a word holding a space (a space only) in
// double quotes, one space between words.
func grubCmdline(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		space := strings.Contains(w, " ")
		if space {
			b.WriteByte('"')
		}
		for j := 0; j < len(w); j++ {
			if w[j] == '\\' || w[j] == '\'' || w[j] == '"' {
				b.WriteByte('\\')
			}
			b.WriteByte(w[j])
		}
		if space {
			b.WriteByte('"')
		}
	}
	return b.String()
}

// grubCmdlineWords undoes grubCmdline: the words a line GRUB built is
// made of ("" is no words).
func grubCmdlineWords(line string) []string {
	if line == "" {
		return nil
	}
	var (
		words []string
		cur   strings.Builder
		quote bool
	)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case c == '"':
			quote = !quote
		case c == ' ' && !quote:
			words = append(words, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(words, cur.String())
}

// grubEmuCheck holds the reader to GRUB on one script: the reader refuses
// it, or reads the very words after the kernel of the linux command GRUB
// boots unattended, joined as GRUB joins them. It returns "" when they
// agree, else what each says, and GRUB's run: grub-emu runs only when the
// reader does not refuse the script, or always.
func grubEmuCheck(t *testing.T, cfg string, always bool) (mismatch string, run *grubEmuRun) {
	t.Helper()
	line, at, ok, err := grubLoader.entry([]byte(cfg))
	mentions := strings.Contains(cfg, ParamConfig)
	refused := err != nil || (!ok && !mentions) // refused, or no script of GRUB's and no document
	if refused && !always {
		return "", nil
	}
	var want []string
	if ok {
		want = grubCmdlineWords(line)
	}
	r := grubEmu(t, cfg, want)
	run = &r
	said := fmt.Sprintf("the reader reads (line %d) %q", at, line)
	if !ok {
		said = "the reader says it is no GRUB script (Unpack hands the text on as a document)"
	}
	grub := "GRUB boots no linux (" + run.why + ")"
	if run.booted {
		grub = fmt.Sprintf("GRUB boots linux %q with the line %q (as its console prints the words: %q)", run.call.words[0], run.call.line(), run.call.words[1:])
	}
	impossible := slices.ContainsFunc(want, func(w string) bool { return strings.ContainsAny(w, "\x00\r") })
	switch {
	case refused:
		return "", run
	case !ok && run.booted && strings.Contains(run.call.line(), ParamConfig+"="):
		return grub + "; " + said, run
	case !ok:
		return "", run
	case at == 0:
		// The reader documents a text of one line as the words to paste
		// onto a linux line (grubBooted), which GRUB never runs as it
		// stands: no comparison.
		return "", run
	case !run.booted:
		return grub + "; " + said, run
	case impossible:
		return grub + "; " + said + ", with a NUL or a carriage return in a word, which no word GRUB reads holds", run
	case !run.call.same:
		return grub + "; " + said + ": the words differ", run
	case grubCmdline(want) != line:
		return grub + "; " + said + ": the same words, joined otherwise than GRUB joins them", run
	}
	return "", run
}

// grubEmuCase is a kept case: a script, and the line GRUB boots from it
// (none: boots is false), which the test checks too, so that the oracle
// is held to what GRUB was seen to do.
type grubEmuCase struct {
	name, cfg string
	grub      string
	boots     bool
}

// The kept cases: the shapes the issue names, each as a fixed script.
func grubEmuKept() []grubEmuCase {
	a, b := grubParams(docCmdline), grubParams(docOther)
	// The lines GRUB builds from them: the quotes undone.
	lineA, lineB := strings.ReplaceAll(a, "'", ""), strings.ReplaceAll(b, "'", "")
	// b with no single quote in it, for a string GRUB reads across lines.
	bDouble := "corium.config.sha256=" + sha(docOther) + ` "corium.config=data:;base64,` + base64.StdEncoding.EncodeToString([]byte(docOther)) + `"`
	b64 := base64.StdEncoding.EncodeToString([]byte(docCmdline))
	rescue := "linux /vmlinuz root=/dev/sda1 single"
	return []grubEmuCase{
		{"a NUL in an echo line swallows the next line, which boots another document",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + a + "\n  echo 'Loading\x00'\n  linux /vmlinuz " + bDouble + "\n  echo 'done\x00'\n}\n",
			lineA, true},
		{"a NUL in an echo line hides a second command on it",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + a + "\n  echo Loading\x00; linux /vmlinuz " + b + "\n}\n",
			lineA, true},
		{"a carriage return GRUB drops makes a comment of the rest of the line",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + a + " \r# " + b + "\n}\n",
			lineA, true},
		{"a carriage return GRUB drops from a word",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz corium.config.sha256=" + sha(docCmdline) + " 'corium.config=data:;base64," + b64[:8] + "\r" + b64[8:] + "'\n}\n",
			lineA, true},
		{"a carriage return GRUB drops before a backslash's newline",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + a + " \\\r\n  " + b + "\n}\n",
			lineA + " " + lineB, true},
		{"a } ends the entry on its linux line and echo { swallows the pinned line",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + b + " }\n  echo {\n  linux /vmlinuz " + a + "\n}\n",
			lineB, true},
		{"two linux lines in one entry",
			"set timeout=0\nmenuentry 'corium node' {\n  linux /vmlinuz " + b + "\n  linux /vmlinuz " + a + "\n  initrd /initrd.img\n}\n",
			lineA, true},
		{"set default=1 boots an entry without the document",
			"set timeout=0\nset default=1\n" + entry("corium node", a) + "menuentry 'rescue' {\n  " + rescue + "\n}\n",
			"root=/dev/sda1 single", true},
		{"set default=TITLE boots an entry without the document",
			"set timeout=0\nset default='rescue'\n" + entry("corium node", a) + "menuentry 'rescue' {\n  " + rescue + "\n}\n",
			"root=/dev/sda1 single", true},
		{"set default=ID boots an entry without the document",
			"set timeout=0\nset default=rescue-id\n" + entry("corium node", a) + "menuentry 'rescue' --id rescue-id {\n  " + rescue + "\n}\n",
			"root=/dev/sda1 single", true},
		{"the first entry, without the document, boots when no default is set",
			"set timeout=0\nmenuentry 'rescue' {\n  " + rescue + "\n}\n" + entry("corium node", a),
			"root=/dev/sda1 single", true},
		{"the default entry loads no kernel: nothing boots",
			"set timeout=0\nmenuentry 'memtest' {\n  echo no kernel here\n}\n" + entry("corium node", a),
			"", false},
		{"the default entry loads no kernel and fallback boots the document",
			"set timeout=0\nset fallback=1\nmenuentry 'memtest' {\n  echo no kernel here\n}\n" + entry("corium node", a),
			"root=/dev/sda1 " + lineA, true},
		{"set default beyond the entries boots the first",
			"set timeout=0\nset default=7\n" + entry("corium node", a) + entry("other", b),
			"root=/dev/sda1 " + lineA, true},
		{"set default=1 between two documents",
			"set timeout=0\nset default=1\n" + entry("corium node", a) + entry("other", b),
			"root=/dev/sda1 " + lineB, true},
	}
}

// The kept cases, each held to GRUB, and GRUB to what it was seen to boot.
func TestGRUBEmuKept(t *testing.T) {
	for _, tc := range grubEmuKept() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mismatch, run := grubEmuCheck(t, tc.cfg, true)
			if mismatch != "" {
				t.Errorf("%s\nscript %q", mismatch, tc.cfg)
			}
			if run.booted != tc.boots || run.call.line() != tc.grub {
				t.Errorf("GRUB boots %v %q (%s), want %v %q\nscript %q\nconsole:\n%s", run.booted, run.call.line(), run.why, tc.boots, tc.grub, tc.cfg, run.out)
			}
		})
	}
}
