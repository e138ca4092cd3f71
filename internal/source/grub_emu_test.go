package source

import (
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
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
	grubEmuN    = flag.Int("grubemu.n", 2048, "generated grub.cfg scripts the GRUB differential runs through the reader and grub-emu, besides its kept cases")
	grubEmuSeed = flag.Uint64("grubemu.seed", 1, "the seed of the GRUB differential's first generated script; script i has seed+i")
)

// grubEmuWorkers is how many grub-emu run at once, a pool the size of a
// 2-core machine.
const grubEmuWorkers = 2

// grubEmuPrelude goes before the script GRUB runs (the reader never sees
// it). grub-emu has no linux, linuxefi, linux16 or initrd commands, and a
// GRUB function runs only when no command has its name (execute.c's
// grub_script_execute_cmdline looks up grub_command_find first, then
// grub_script_function_find): so these functions stand in for them. The
// stand-in for linux prints its words, each between @@W< and >W@@ (GRUB
// prints some bytes otherwise: a tab as blanks, a byte past ASCII as ?),
// and compares them, byte for byte inside GRUB, with the words the reader
// read (corium_want, joined by @@W@@): all of them, the kernel first (ALL),
// and those after the kernel (ARGS). That comparison is the verdict; the
// printed words are for the failure message. Its variables are corium_*,
// which no script here uses. timeout=0 boots the default entry at once
// unless the script sets its own.
func grubEmuPrelude(want []string) string {
	return "set timeout=0\n" +
		"set corium_want='" + strings.ReplaceAll(grubEmuJoin(want), "'", `'\''`) + "'\n" +
		`function corium_linux {
  echo "@@CORIUM-LINUX-BEGIN"
  set corium_all=
  set corium_args=
  set corium_path=1
  for corium_w in "$@"; do
    echo "@@W<${corium_w}>W@@"
    set corium_all="${corium_all}@@W@@${corium_w}"
    if [ -n "$corium_path" ]; then set corium_path=; else set corium_args="${corium_args}@@W@@${corium_w}"; fi
  done
  if [ "$corium_all" = "$corium_want" ]; then echo "@@CORIUM-LINUX-ALL"; fi
  if [ "$corium_args" = "$corium_want" ]; then echo "@@CORIUM-LINUX-ARGS"; fi
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
	// all and args say its words are the ones asked about, byte for byte
	// (compared inside GRUB): all of them, or those after the kernel.
	all, args bool
}

// line is the kernel command line GRUB builds from the call's words after
// the kernel (grubCmdline), as printed.
func (c grubEmuCall) line() string {
	if len(c.words) == 0 {
		return ""
	}
	return grubCmdline(c.words[1:])
}

// full is the line the kernel gets: BOOT_IMAGE= and every word, the
// kernel's path first (grub-core/loader/i386/linux.c, pc/linux.c,
// efi/linux.c: LINUX_IMAGE, then grub_create_loader_cmdline of argc,
// argv), as printed.
func (c grubEmuCall) full() string {
	return "BOOT_IMAGE=" + grubCmdline(c.words)
}

// grubEmuMissing starts the path of a kernel the stand-in takes as missing:
// its linux fails to load it, as GRUB's fails on a file it cannot open,
// and GRUB goes on to the fallback entry.
const grubEmuMissing = "/missing/"

// grubEmuRun is what one run of grub-emu on a script says.
type grubEmuRun struct {
	booted bool        // a linux command ran before the boot GRUB attempts unattended
	call   grubEmuCall // the last such command: the kernel GRUB boots
	// fallback says the entry booting is a fallback entry: the default's
	// kernel was missing.
	fallback bool
	why      string // how the run ended
	out      string // GRUB's console, carriage returns dropped
	took     time.Duration
}

// GRUB's console, as the run reads it: the stand-in's output, and what the
// menu prints around an entry (normal/menu.c: notify_booting,
// notify_fallback, notify_failure, grub_wait_after_message; the menu's
// help and countdown; the command line's prompt when there is no menu).
var grubEmuEvents = regexp.MustCompile(`(?s)@@CORIUM-LINUX-BEGIN\n(.*?)@@CORIUM-LINUX-END\n` +
	"|  Booting `|  Falling back to `|Press any key to continue\\.\\.\\.|Failed to boot both default and fallback entries\\." +
	"|for a command-line\\.|executed automatically in|grub> ")

var grubEmuWord = regexp.MustCompile(`(?s)@@W<(.*?)>W@@\n`)

// grubEmuState is what GRUB's console shows so far.
type grubEmuState struct {
	run  grubEmuRun
	done bool // the console shows what GRUB boots unattended, or that it boots none
	// keys is how many messages GRUB waits on (for ten seconds, or a key)
	// it printed: each is answered with a key.
	keys int
	// menu says GRUB shows its menu before any entry ran, and countdown
	// that it counts down to its default entry (timeout= above 0); a menu
	// with no countdown waits for ever.
	menu, countdown bool
}

// grubEmuDecide reads GRUB's console so far. A linux command that ran
// loads the kernel (each loads, as no file is read here); GRUB boots what
// is loaded once an entry's commands end (grub_menu_execute_entry:
// "Implicit execution of boot, only if something is loaded"), loaded by the
// entry or before it, by the file's top level, which runs first. An entry
// ends where GRUB prints what follows it: the wait after its errors, the
// fallback entry it tries next, or its failure; or where grub-emu ended
// (ended), which it does going on to a fallback= past the last entry
// (grub_menu_execute_with_fallback hands notify_fallback a NULL entry).
func grubEmuDecide(out string, ended bool) grubEmuState {
	var (
		st       grubEmuState
		loaded   *grubEmuCall
		inEntry  bool
		fellBack bool
	)
	boots := func(why string) grubEmuState {
		st.run, st.done = grubEmuRun{booted: true, call: *loaded, fallback: fellBack, why: why}, true
		return st
	}
	for _, m := range grubEmuEvents.FindAllStringSubmatchIndex(out, -1) {
		ev := out[m[0]:m[1]]
		switch {
		case m[2] >= 0:
			body := out[m[2]:m[3]]
			call := grubEmuCall{all: strings.Contains(body, "@@CORIUM-LINUX-ALL\n"), args: strings.Contains(body, "@@CORIUM-LINUX-ARGS\n")}
			for _, w := range grubEmuWord.FindAllStringSubmatch(body, -1) {
				call.words = append(call.words, w[1])
			}
			// linux with no kernel, or a missing one, fails, and unloads
			// nothing.
			if len(call.words) > 0 && !strings.HasPrefix(call.words[0], grubEmuMissing) {
				loaded = &call
			}
		case strings.Contains(ev, "Booting") || strings.Contains(ev, "Falling back"):
			if inEntry && loaded != nil {
				return boots("an entry ended with a kernel loaded")
			}
			inEntry, fellBack = true, strings.Contains(ev, "Falling back")
		case strings.HasPrefix(ev, "Press any key"):
			if inEntry && loaded != nil {
				return boots("an entry ended, with errors, with a kernel loaded")
			}
			st.keys++
		case strings.HasPrefix(ev, "Failed to boot"):
			if loaded != nil {
				return boots("the entries ended with a kernel loaded")
			}
			st.run, st.done = grubEmuRun{why: "no entry GRUB ran loaded a kernel"}, true
			return st
		case ev == "grub> ":
			st.run, st.done = grubEmuRun{why: "GRUB has no menu entry and waits at its command line"}, true
			return st
		case strings.HasPrefix(ev, "for a command-line"):
			// The menu drawn again after the entry Enter chose: that entry
			// ended, and GRUB boots what is loaded.
			if st.menu && loaded != nil {
				return boots("the entry chosen at the menu ended with a kernel loaded")
			}
			st.menu = st.menu || !inEntry
		case strings.HasPrefix(ev, "executed automatically"):
			st.countdown = st.countdown || !inEntry
		}
	}
	switch {
	case !ended:
	case inEntry && loaded != nil:
		return boots("an entry ended with a kernel loaded, and grub-emu ended after it")
	default:
		st.run, st.done = grubEmuRun{why: "grub-emu ended before its console showed a kernel loaded"}, true
	}
	return st
}

// grubEmuRunCount and grubEmuRunTime measure the runs, for the log.
var (
	grubEmuRunCount atomic.Int64
	grubEmuRunTime  atomic.Int64
)

// grubEmu runs cfg in grub-emu, behind grubEmuPrelude with want as the
// words to compare, until its console shows what GRUB boots unattended,
// then ends it. A run takes some 50 milliseconds: grub-emu starts,
// runs the file and the default entry, and is killed as soon as the entry
// ends; a message GRUB waits on is answered with a key. Two things take
// longer: a fallback entry GRUB tries after one that loaded no kernel
// (notify_fallback sleeps 2.5 seconds first), and a menu with a timeout
// of its own, whose countdown is not waited for: cfg runs again, sourced,
// with timeout=0 after it, which boots as the countdown's end does
// (autoboot, with fallback). At a menu with no countdown, Enter is pressed
// after a second: it boots the default entry, as whoever is at the
// console would.
func grubEmu(t *testing.T, cfg string, want []string) grubEmuRun {
	t.Helper()
	host.RequireCommands(t, "grub-emu", "script", "stty")
	dir := t.TempDir()
	run, countdown := grubEmuOnce(t, dir, grubEmuPrelude(want)+cfg)
	if countdown {
		script := filepath.Join(dir, "script.cfg")
		if err := os.WriteFile(script, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		run, _ = grubEmuOnce(t, dir, grubEmuPrelude(want)+"source "+grubQuote(script)+"\nset timeout=0\n")
		run.why += ", after the countdown"
	}
	return run
}

// grubEmuOnce runs grub-emu once on the grub.cfg it writes in dir.
func grubEmuOnce(t *testing.T, dir, grubCfg string) (run grubEmuRun, countdown bool) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "grub.cfg"), []byte(grubCfg), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	// grub-emu wants a terminal; script gives it one, wide enough that
	// GRUB's console wraps no word.
	cmd := exec.Command("script", "-qfec", "stty cols 1000 rows 50; exec grub-emu -r host -d "+dir, "/dev/null")
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
		st       grubEmuState
		pressed  int
		menuSeen time.Time
		entered  bool
		stuck    bool
		deadline = time.After(20 * time.Second)
		tick     = time.NewTicker(50 * time.Millisecond)
	)
	defer tick.Stop()
loop:
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				st = grubEmuDecide(strings.ReplaceAll(string(out), "\r", ""), true)
				break loop
			}
			out = append(out, c...)
		case <-tick.C:
		case <-deadline:
			stuck = true
			break loop
		}
		st = grubEmuDecide(strings.ReplaceAll(string(out), "\r", ""), false)
		if st.done || st.countdown {
			break
		}
		for ; pressed < st.keys; pressed++ {
			if _, err := stdin.Write([]byte("\r")); err != nil {
				t.Errorf("a key for grub-emu: %v", err)
			}
		}
		switch {
		case !st.menu:
		case menuSeen.IsZero():
			menuSeen = time.Now()
		case time.Since(menuSeen) > time.Second && !entered:
			// No countdown after the menu is drawn: GRUB waits for
			// whoever is at the console, and Enter boots the default
			// entry, which the reader reads as the one that boots.
			if _, err := stdin.Write([]byte("\r")); err != nil {
				t.Errorf("Enter for grub-emu: %v", err)
			}
			entered = true
		case time.Since(menuSeen) > 3*time.Second:
			st.run, st.done = grubEmuRun{why: "GRUB waits at its menu, and Enter booted nothing"}, true
			break loop
		}
	}
	grubEmuEnd(cmd)
	for range chunks { // until script's end closes the pipe
	}
	_ = cmd.Wait()
	run = st.run
	run.out = strings.ReplaceAll(string(out), "\r", "")
	run.took = time.Since(start)
	grubEmuRunCount.Add(1)
	grubEmuRunTime.Add(int64(run.took))
	if stuck {
		t.Fatalf("grub-emu still runs after 20s; its console:\n%s", grubEmuConsole(run.out))
	}
	return run, st.countdown && !st.done
}

// grubEmuEnd ends a run: grub-emu (script's child, by its id) first,
// then script, which ends with it (or is killed after a second).
func grubEmuEnd(cmd *exec.Cmd) {
	pid := cmd.Process.Pid
	if children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err == nil {
		for _, f := range strings.Fields(string(children)) {
			if child, err := strconv.Atoi(f); err == nil {
				_ = syscall.Kill(child, syscall.SIGKILL)
			}
		}
	}
	time.AfterFunc(time.Second, func() { _ = cmd.Process.Kill() })
}

// grubEmuConsole is GRUB's console for a failure message: its terminal's
// escapes and the menu's frame dropped, the last 3000 bytes.
func grubEmuConsole(out string) string {
	out = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]").ReplaceAllString(out, "")
	out = regexp.MustCompile("[━┃┏┓┗┛ ]{8,}").ReplaceAllString(out, " ")
	if len(out) > 3000 {
		out = "..." + out[len(out)-3000:]
	}
	return out
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
// it, or reads the very line the kernel gets from the linux command GRUB
// boots unattended: the same words (compared inside GRUB, byte for byte),
// joined as GRUB joins them; with BOOT_IMAGE= and the kernel's path first
// when the reader's line starts so. It returns "" when they agree, else
// what each says, and GRUB's run: grub-emu runs only when the reader does
// not refuse the script, or always.
func grubEmuCheck(t *testing.T, cfg string, always bool) (mismatch string, run *grubEmuRun) {
	t.Helper()
	line, at, ok, err := grubLoader.entry([]byte(cfg))
	mentions := strings.Contains(cfg, ParamConfig)
	refused := err != nil || (!ok && !mentions) // refused, or no script of GRUB's and no document
	if refused && !always {
		return "", nil
	}
	var (
		want  []string
		image bool
	)
	if ok {
		var rest string
		rest, image = strings.CutPrefix(line, "BOOT_IMAGE=")
		want = grubCmdlineWords(rest)
	}
	// A word GRUB reads never holds a NUL or a carriage return (its
	// lines end at a NUL, and it drops every carriage return): such a word
	// differs from GRUB's whatever GRUB reads, and is not handed to it.
	impossible := slices.ContainsFunc(want, func(w string) bool { return strings.ContainsAny(w, "\x00\r") })
	asked := want
	if impossible {
		asked = nil
	}
	r := grubEmu(t, cfg, asked)
	run = &r
	said := fmt.Sprintf("the reader reads (line %d) %q", at, line)
	if !ok {
		said = "the reader says it is no GRUB script (Unpack hands the text on as a document)"
	}
	grub := "GRUB boots no linux (" + run.why + ")"
	if run.booted {
		grub = fmt.Sprintf("GRUB boots %q (words as its console prints them: %q)", run.call.full(), run.call.words)
	}
	same, joined := run.call.args, grubCmdline(want)
	if image {
		same, joined = run.call.all, "BOOT_IMAGE="+grubCmdline(want)
	}
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
	case !run.booted && strings.Contains(cfg, grubEmuMissing):
		// Missing kernels may leave none to boot, which no reader of the
		// script can know.
		return "", run
	case !run.booted:
		return grub + "; " + said, run
	case run.fallback:
		// The default entry's kernel was missing (grubEmuMissing), which
		// the reader cannot know: it holds every entry the menu may boot
		// unattended to the same parameters, so those are compared.
		was, got := parseCmdline(line), parseCmdline(run.call.full())
		for _, p := range []string{ParamConfig, ParamSHA256, ParamWait} {
			if was[p] != got[p] {
				return grub + ", a fallback entry, as the default's kernel is missing; " + said + ": " + p + "= differs", run
			}
		}
		return "", run
	case impossible:
		return grub + "; " + said + ", with a NUL or a carriage return in a word, which no word GRUB reads holds", run
	case !same:
		return grub + "; " + said + ": the words differ", run
	case joined != line:
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

// The kept cases: the shapes the issue names, and those the generator
// found, each as a fixed script.
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
		// Found by the generator. GRUB's grammar (grub-core/script/parser.y)
		// has no empty command: a ; must end one (delimiters1), and a block
		// holds one at least (commands1). A menuentry it cannot parse is no
		// entry: the ones after it move up a number.
		{"a ; that ends no command drops the entry carrying the document",
			"set timeout=0\nmenuentry 'corium node' {\n  ; echo Loading\n  linux /vmlinuz " + a + "\n}\nmenuentry 'rescue' {\n  " + rescue + "\n}\n",
			"root=/dev/sda1 single", true},
		{"a ; after a ; drops the entry",
			"set timeout=0\nmenuentry 'corium node' {\n  echo Loading;; linux /vmlinuz " + a + "\n}\n",
			"", false},
		{"an entry with no command is none, and default=1 names the next but one",
			"set timeout=0\nset default=1\nmenuentry 'memtest' {\n}\n" + entry("corium node", a) + "menuentry 'rescue' {\n  " + rescue + "\n}\n",
			"root=/dev/sda1 single", true},
		// A kernel that is missing (grubEmuMissing) has GRUB boot the
		// fallback entry, in what the default entry left: the variables it
		// set.
		{"the default's kernel is missing and the fallback carries the same document",
			"set timeout=0\nset fallback=1\nmenuentry 'corium node' {\n  linux " + grubEmuMissing + "vmlinuz " + a + "\n}\n" + entry("fallback", a),
			"root=/dev/sda1 " + lineA, true},
		{"the default's kernel is missing and the variables it set change the fallback's document",
			"set timeout=0\nset fallback=1\nset pin=" + sha(docCmdline) + "\nset cfg='corium.config=data:;base64," + b64 + "'\n" +
				"menuentry 'corium node' {\n  set pin=" + sha(docOther) + "\n  set cfg='corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(docOther)) + "'\n  linux " + grubEmuMissing + "vmlinuz " + a + "\n}\n" +
				"menuentry 'fallback' {\n  linux /vmlinuz corium.config.sha256=$pin \"$cfg\"\n}\n",
			lineB, true},
		// GRUB joins the kernel's path into the line after BOOT_IMAGE= as
		// it joins every word: one holding a space in double quotes.
		{"a kernel's path holding a space",
			"set timeout=0\nmenuentry 'corium node' {\n  linux '/boot/vmlinuz 6.1' " + a + "\n}\n",
			lineA, true},
		// A timeout that is no number, or -1, has the menu wait for a key:
		// Enter boots the default entry.
		{"a menu that waits for a key",
			"set timeout=-1\n" + entry("corium node", a),
			"root=/dev/sda1 " + lineA, true},
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
				t.Errorf("GRUB boots %v %q (%s), want %v %q\nscript %q\nconsole:\n%s", run.booted, run.call.line(), run.why, tc.boots, tc.grub, tc.cfg, grubEmuConsole(run.out))
			}
		})
	}
}

// The oracle itself, on what GRUB was seen to do: the words it hands
// linux joined as the kernel gets them, the comparison inside GRUB seeing
// bytes its console prints otherwise, a kernel loaded by the file's top
// level booting after a default entry that loads none, a countdown not
// waited for, no boot where GRUB has no menu, the default where it waits
// at its menu and Enter is pressed, and a kernel loaded before grub-emu
// crashes.
func TestGRUBEmuOracle(t *testing.T) {
	t.Parallel()
	line, booted := grubEmuBoots(t, "menuentry 'x' {\n  linux /vmlinuz 'a b' 'c\"d' 'e\\f' \"g'h\" '' x\n}\n")
	if want := `"a b" c\"d e\\f g\'h  x`; !booted || line != want {
		t.Errorf("GRUB boots %v %q, want %q", booted, line, want)
	}
	cfg := "menuentry 'x' {\n  linux /vmlinuz 'a\tb' 'c\x80d'\n}\n"
	if run := grubEmu(t, cfg, []string{"/vmlinuz", "a\tb", "c\x80d"}); !run.booted || !run.call.all || run.call.args {
		t.Errorf("the words with a tab and a byte past ASCII: %+v", run.call)
	}
	if run := grubEmu(t, cfg, []string{"a        b", "c?d"}); !run.booted || run.call.all || run.call.args {
		t.Errorf("the words as printed are not the words: %+v", run.call)
	}
	for _, tc := range []struct {
		name, cfg, line string
		booted          bool
	}{
		{"a kernel the top level loads", "linux /vmlinuz top\nmenuentry 'x' {\n  echo no kernel\n}\n", "top", true},
		{"a countdown", "set timeout=5\nmenuentry 'x' {\n  linux /vmlinuz counted\n}\n", "counted", true},
		{"no menu", "linux /vmlinuz top\n", "", false},
		{"a menu with no timeout, where Enter boots the default", "set timeout=x\nmenuentry 'x' {\n  linux /vmlinuz waits\n}\n", "waits", true},
		{"a fallback past the last entry, where grub-emu crashes", "set fallback=1\nmenuentry 'x' {\n  linux /vmlinuz before\n}\n", "before", true},
	} {
		if line, booted := grubEmuBoots(t, tc.cfg); booted != tc.booted || line != tc.line {
			t.Errorf("%s: GRUB boots %v %q, want %v %q", tc.name, booted, line, tc.booted, tc.line)
		}
	}
}

// The generator: a grub.cfg built from a seed, as grub-mkconfig and
// operators write them (a menu of one to three entries, each a linux line
// carrying a document, another line or none, set default= by number,
// title or --id or not at all, timeout, fallback, echo, insmod, initrd,
// variables set and used), then mutated: commands (a linux line
// duplicated, dropped, doubled with another document, closed with }, made
// a comment, continued on the next line, moved to the top; an echo { line,
// a ; and a second command, an entry's } dropped, a kernel missing with a
// fallback= to another entry), the menu
// (entries reordered, duplicated or retitled, default= and fallback=
// changed), tokens (a quote, a brace, ;, \, #, $ inserted, dropped or
// replaced) and bytes: every other script has one byte replaced or
// inserted, the seed choosing which (seed/2 mod 256), so that 512 seeds in
// a row go through all 256 values.

// grubGenDocs are the documents the scripts carry.
var grubGenDocs = []string{docCmdline, docOther}

type grubGenEntry struct {
	title, id string
	head      string   // the menuentry line
	body      []string // its commands, unindented
	open      bool     // its } dropped
}

type grubGenScript struct {
	top, tail []string // commands before and after the entries
	entries   []grubGenEntry
	indent    string
}

func (s *grubGenScript) text() string {
	var b strings.Builder
	for _, l := range s.top {
		b.WriteString(l + "\n")
	}
	for _, e := range s.entries {
		b.WriteString(e.head + "\n")
		for _, l := range e.body {
			b.WriteString(s.indent + l + "\n")
		}
		if !e.open {
			b.WriteString("}\n")
		}
	}
	for _, l := range s.tail {
		b.WriteString(l + "\n")
	}
	return b.String()
}

type grubGen struct {
	r *rand.Rand
	// aside draws what was added to the generator later, so that the
	// scripts of seeds reported before stay as they were.
	aside *rand.Rand
	ops   []string
	extra bool // the file sets extra=
}

func grubPick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// grubGenerate is the script of a seed and the mutations made to it.
func grubGenerate(seed uint64) (cfg string, ops []string) {
	g := &grubGen{r: rand.New(rand.NewPCG(seed, 0x677275622d656d75)), aside: rand.New(rand.NewPCG(seed, 0x6173696465))}
	s := g.script()
	for range g.r.IntN(3) {
		switch g.r.IntN(8) {
		case 0, 1, 2:
			g.command(s)
		case 3, 4:
			g.menu(s)
		}
	}
	cfg = s.text()
	for range g.r.IntN(3) {
		if g.r.IntN(8) < 3 {
			cfg = g.token(cfg)
		}
	}
	if seed%2 == 0 {
		cfg = g.byteAt(cfg, byte(seed/2))
	}
	return cfg, g.ops
}

// params are a document's parameters, spelled one of the ways GRUB reads
// them; a variable they use is set in set (the top or the entry).
func (g *grubGen) params(doc int, set *[]string) string {
	d := grubGenDocs[doc]
	b64 := base64.StdEncoding.EncodeToString([]byte(d))
	pin, data := "corium.config.sha256="+sha(d), "corium.config=data:;base64,"+b64
	switch g.r.IntN(7) {
	case 0, 1:
		return pin + " '" + data + "'" // as cmdline --grub prints them
	case 2:
		return `"` + data + `" ` + pin
	case 3:
		return `corium.config=data:\;base64,` + b64 + " " + pin
	case 4:
		*set = append(*set, "set cfg='"+data+"'")
		return pin + ` "$cfg"`
	case 5:
		*set = append(*set, "cfg='"+data+"'")
		return pin + " ${cfg}"
	default:
		*set = append(*set, "set pin="+sha(d))
		return "corium.config.sha256=$pin '" + data + "'"
	}
}

// linux is a linux line: the document doc's parameters (-1: none) among
// other words.
func (g *grubGen) linux(doc int, set *[]string) string {
	words := []string{grubPick(g.r, "linux", "linux", "linux", "linux", "linux", "linuxefi", "linux16"), grubPick(g.r, "/vmlinuz", "/boot/vmlinuz-6.1.0-13-amd64")}
	if g.aside.IntN(40) == 0 {
		words[1] = "'/boot/vmlinuz 6.1'"
	}
	for _, w := range []string{"root=/dev/sda1", "ro", "console=ttyS0,115200n8"} {
		if g.r.IntN(2) == 0 {
			words = append(words, w)
		}
	}
	switch {
	case doc >= 0:
		words = append(words, g.params(doc, set))
	default:
		words = append(words, grubPick(g.r, "single", "systemd.unit=rescue.target", "quiet splash"))
	}
	if g.r.IntN(4) == 0 {
		if g.extra {
			words = append(words, grubPick(g.r, "$extra", `"${extra}"`))
		} else {
			words = append(words, "quiet")
		}
	}
	return strings.Join(words, " ")
}

var (
	grubGenTitles = []string{"corium node", "rescue", "Debian GNU/Linux", "recovery mode"}
	grubGenIDs    = []string{"corium", "rescue", "debian-gnulinux", "recovery"}
)

// entry is entry i of the menu, loading a kernel with the document doc's
// parameters (-1: with none, -2: no kernel).
func (g *grubGen) entry(i, doc int, s *grubGenScript) grubGenEntry {
	e := grubGenEntry{title: grubGenTitles[i], id: grubGenIDs[i]}
	head := []string{"menuentry", grubPick(g.r, "'"+e.title+"'", `"`+e.title+`"`)}
	if g.r.IntN(3) == 0 {
		head = append(head, "--class", "gnu-linux", "--class", "os")
	}
	if g.r.IntN(4) > 0 {
		head = append(head, grubPick(g.r, "--id "+e.id, "--id '"+e.id+"'", "--id="+e.id))
	} else {
		e.id = ""
	}
	e.head = strings.Join(append(head, "{"), " ")
	if g.r.IntN(3) == 0 {
		e.body = append(e.body, "insmod "+grubPick(g.r, "gzio", "part_gpt", "ext2"))
	}
	if g.r.IntN(2) == 0 {
		e.body = append(e.body, grubPick(g.r, "echo 'Loading Linux ...'", "echo Loading"))
	}
	if g.r.IntN(30) == 0 {
		e.body = append(e.body, `echo "Loading $chosen"`)
	}
	if g.r.IntN(4) == 0 {
		e.body = append(e.body, "set gfxpayload=keep")
	}
	set := &s.top
	if g.r.IntN(2) == 0 {
		set = &e.body
	}
	if doc == -2 {
		e.body = append(e.body, "echo 'memtest'")
	} else {
		e.body = append(e.body, g.linux(doc, set))
	}
	if g.r.IntN(2) == 0 {
		e.body = append(e.body, "initrd /initrd.img")
	}
	return e
}

// defaultTo is a default= naming entry i (a number, its title or --id),
// or none at all (when i is 0), or one past the last entry, or another.
func (g *grubGen) defaultTo(s *grubGenScript, i int) string {
	e := s.entries[i]
	switch g.r.IntN(12) {
	case 0, 1, 2:
		if i == 0 {
			return ""
		}
		return "set default=" + strconv.Itoa(i)
	case 3, 4:
		return "set default=" + strconv.Itoa(i)
	case 5, 6, 7:
		return "set default='" + e.title + "'"
	case 8, 9:
		if e.id != "" {
			return "default=" + e.id
		}
		return "set default=\"" + e.title + "\""
	case 10:
		return "set default=" + strconv.Itoa(len(s.entries))
	}
	return "set default=" + grubPick(g.r, "'no such entry'", "0", "1")
}

func (g *grubGen) script() *grubGenScript {
	s := &grubGenScript{indent: grubPick(g.r, "  ", "\t", "    ")}
	if g.r.IntN(3) == 0 {
		s.top = append(s.top, "insmod part_gpt")
	}
	if g.r.IntN(10) < 7 {
		s.top = append(s.top, "set timeout=0")
	}
	if g.extra = g.r.IntN(3) == 0; g.extra {
		s.top = append(s.top, "set extra=quiet")
	}
	if g.r.IntN(4) == 0 {
		s.top = append(s.top, "echo 'GRUB loading'")
	}
	// One entry carries the document; each other the same one, none, or
	// the other, or loads no kernel.
	n, main := 1+g.r.IntN(3), grubPick(g.r, 0, 0, 0, 1)
	carrier := g.r.IntN(n)
	for i := range n {
		doc := main
		if i != carrier {
			doc = grubPick(g.r, main, main, main, -1, -1, 1-main, -2)
		}
		s.entries = append(s.entries, g.entry(i, doc, s))
	}
	target := carrier
	if g.r.IntN(3) == 0 {
		target = g.r.IntN(n)
	}
	if d := g.defaultTo(s, target); d != "" {
		if g.r.IntN(4) == 0 {
			s.tail = append(s.tail, d) // GRUB reads it after the whole file
		} else {
			s.top = append(s.top, d)
		}
	}
	if g.r.IntN(10) == 0 {
		s.top = append(s.top, "set fallback="+strconv.Itoa(g.r.IntN(len(s.entries)+1)))
	}
	return s
}

// linuxAt is an entry holding a linux line and its index, -1 when none.
func (g *grubGen) linuxAt(s *grubGenScript) (*grubGenEntry, int) {
	var at [][2]int
	for i, e := range s.entries {
		for j, l := range e.body {
			if strings.HasPrefix(l, "linux") {
				at = append(at, [2]int{i, j})
			}
		}
	}
	if len(at) == 0 {
		return nil, -1
	}
	p := grubPick(g.r, at...)
	return &s.entries[p[0]], p[1]
}

// command mutates a command of the script.
func (g *grubGen) command(s *grubGenScript) {
	e, j := g.linuxAt(s)
	anyEntry := &s.entries[g.r.IntN(len(s.entries))]
	insert := func(body []string, l string) []string {
		return slices.Insert(body, g.r.IntN(len(body)+1), l)
	}
	switch op := g.r.IntN(11); {
	case e == nil || op == 0:
		g.ops = append(g.ops, "an echo { line")
		if g.r.IntN(2) == 0 {
			s.top = insert(s.top, "echo {")
		} else {
			anyEntry.body = insert(anyEntry.body, "echo {")
		}
	case op == 1:
		g.ops = append(g.ops, "a linux line duplicated")
		e.body = slices.Insert(e.body, j, e.body[j])
	case op == 2:
		g.ops = append(g.ops, "a linux line dropped")
		e.body = slices.Delete(e.body, j, j+1)
	case op == 3:
		g.ops = append(g.ops, "a second linux line, another document")
		e.body = slices.Insert(e.body, j+g.r.IntN(2), g.linux(g.r.IntN(2), &e.body))
	case op == 4:
		g.ops = append(g.ops, "a } at the end of a linux line")
		e.body[j] += " }"
	case op == 5:
		g.ops = append(g.ops, "; and a second linux after a command")
		at := g.r.IntN(len(e.body))
		e.body[at] += "; " + g.linux(g.r.IntN(2), &s.top)
	case op == 6:
		g.ops = append(g.ops, "a linux line at the top")
		s.top = append(s.top, g.linux(g.r.IntN(2), &s.top))
	case op == 7:
		g.ops = append(g.ops, "an entry's } dropped")
		anyEntry.open = true
	case op == 8:
		g.ops = append(g.ops, "a line made a comment")
		e.body[j] = "# " + e.body[j]
		e.body = insert(e.body, g.linux(g.r.IntN(2), &e.body))
	case op == 9 && len(s.entries) > 1:
		g.ops = append(g.ops, "a kernel missing, and fallback= set to another entry")
		for _, k := range []string{"/boot/vmlinuz-6.1.0-13-amd64", "/vmlinuz"} {
			e.body[j] = strings.Replace(e.body[j], " "+k+" ", " "+grubEmuMissing+"vmlinuz ", 1)
		}
		other := g.r.IntN(len(s.entries) - 1)
		if &s.entries[other] == e {
			other = len(s.entries) - 1
		}
		s.top = slices.DeleteFunc(s.top, func(l string) bool { return strings.HasPrefix(l, "set fallback=") })
		s.top = append(s.top, "set fallback="+strconv.Itoa(other))
	default:
		g.ops = append(g.ops, "a linux line continued on the next")
		if k := strings.LastIndexByte(e.body[j], ' '); k > 0 {
			e.body[j] = e.body[j][:k] + " \\\n" + s.indent + e.body[j][k+1:]
		}
	}
}

// menu mutates the menu: its entries' order and names, default=, fallback=.
func (g *grubGen) menu(s *grubGenScript) {
	drop := func(prefix string) {
		s.top = slices.DeleteFunc(s.top, func(l string) bool { return strings.HasPrefix(l, prefix) })
		s.tail = slices.DeleteFunc(s.tail, func(l string) bool { return strings.HasPrefix(l, prefix) })
	}
	switch g.r.IntN(5) {
	case 0:
		g.ops = append(g.ops, "entries reordered")
		g.r.Shuffle(len(s.entries), func(i, j int) { s.entries[i], s.entries[j] = s.entries[j], s.entries[i] })
	case 1:
		g.ops = append(g.ops, "default= changed")
		drop("set default=")
		drop("default=")
		if d := g.defaultTo(s, g.r.IntN(len(s.entries))); d != "" {
			s.top = append(s.top, d)
		}
	case 2:
		g.ops = append(g.ops, "fallback= set")
		drop("set fallback=")
		s.top = append(s.top, "set fallback="+grubPick(g.r, strconv.Itoa(g.r.IntN(len(s.entries)+1)), "'"+grubPick(g.r, grubGenTitles...)+"'", "\"0 1\""))
	case 3:
		g.ops = append(g.ops, "an entry duplicated")
		i := g.r.IntN(len(s.entries))
		e := s.entries[i]
		e.body = slices.Clone(e.body)
		s.entries = slices.Insert(s.entries, i+1, e)
	default:
		g.ops = append(g.ops, "an entry retitled")
		e := &s.entries[g.r.IntN(len(s.entries))]
		t := grubPick(g.r, grubGenTitles...)
		e.head = strings.Replace(e.head, e.title, t, 1)
		e.title = t
	}
}

// grubGenTokens are what token mutations insert.
var grubGenTokens = []string{"'", `"`, "{", "}", ";", `\`, "#", "$", "${", " ", "\t", "\n", "'\\''", "$extra", "${cfg}", " {", "} "}

// token inserts, drops or replaces a token of GRUB's language: anywhere,
// or on a linux line.
func (g *grubGen) token(cfg string) string {
	lo, hi := 0, len(cfg)
	if i := strings.Index(cfg, "linux"); i >= 0 && g.r.IntN(2) == 0 {
		lo, hi = i, i+strings.IndexByte(cfg[i:], '\n')
	}
	at := lo + g.r.IntN(hi-lo+1)
	tok := grubPick(g.r, grubGenTokens...)
	var special []int
	for i := lo; i < hi; i++ {
		if strings.IndexByte(`'"{};\#$ `, cfg[i]) >= 0 {
			special = append(special, i)
		}
	}
	switch op := g.r.IntN(3); {
	case op == 0 || len(special) == 0:
		g.ops = append(g.ops, fmt.Sprintf("%q inserted at %d", tok, at))
		return cfg[:at] + tok + cfg[at:]
	case op == 1:
		i := grubPick(g.r, special...)
		g.ops = append(g.ops, fmt.Sprintf("%q at %d dropped", cfg[i], i))
		return cfg[:i] + cfg[i+1:]
	default:
		i := grubPick(g.r, special...)
		g.ops = append(g.ops, fmt.Sprintf("%q at %d replaced with %q", cfg[i], i, tok))
		return cfg[:i] + tok + cfg[i+1:]
	}
}

// byteAt replaces the byte at a place chosen from the seed with v, or
// inserts v there.
func (g *grubGen) byteAt(cfg string, v byte) string {
	at := g.r.IntN(len(cfg) + 1)
	if at < len(cfg) && g.r.IntN(2) == 0 {
		g.ops = append(g.ops, fmt.Sprintf("byte %d (%q) replaced with %q", at, cfg[at], v))
		return cfg[:at] + string([]byte{v}) + cfg[at+1:]
	}
	g.ops = append(g.ops, fmt.Sprintf("%q inserted at byte %d", v, at))
	return cfg[:at] + string([]byte{v}) + cfg[at:]
}

// Generated scripts, each held to GRUB: -grubemu.n of them from
// -grubemu.seed on. A failure names the seed, which alone makes the
// script again (-grubemu.seed=S -grubemu.n=1).
func TestGRUBEmuGenerated(t *testing.T) {
	host.RequireCommands(t, "grub-emu", "script", "stty")
	var (
		start    = time.Now()
		runs0    = grubEmuRunCount.Load()
		time0    = grubEmuRunTime.Load()
		refused  atomic.Int64
		failed   atomic.Int64
		workers  = make(chan struct{}, grubEmuWorkers)
		first, n = *grubEmuSeed, *grubEmuN
	)
	t.Run("seed", func(t *testing.T) {
		for i := range uint64(n) {
			seed := first + i
			t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
				t.Parallel()
				cfg, ops := grubGenerate(seed)
				workers <- struct{}{}
				defer func() { <-workers }()
				mismatch, run := grubEmuCheck(t, cfg, false)
				if run == nil {
					refused.Add(1)
				}
				if mismatch != "" {
					failed.Add(1)
					t.Errorf("seed %d (-grubemu.seed=%d -grubemu.n=1), mutations %q:\n%s\nscript %q", seed, seed, ops, mismatch, cfg)
				}
			})
		}
	})
	runs, took := grubEmuRunCount.Load()-runs0, time.Duration(grubEmuRunTime.Load()-time0)
	avg := time.Duration(0)
	if runs > 0 {
		avg = took / time.Duration(runs)
	}
	t.Logf("%d scripts from seed %d in %v: %d refused by the reader, %d held to grub-emu (%d runs, %v each on average), %d disagreeing", n, first, time.Since(start).Round(time.Millisecond), refused.Load(), int64(n)-refused.Load(), runs, avg.Round(time.Millisecond), failed.Load())
}
