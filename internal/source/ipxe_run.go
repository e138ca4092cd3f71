package source

import (
	"fmt"
	"slices"
	"strings"
)

// An iPXE script is read here as iPXE runs it (ipxe/ipxe at 0ab2277,
// src/image/script.c process_script, src/core/exec.c system, src/core/
// settings.c expand_settings, src/hci/commands/image_cmd.c), so the kernel
// line validate checks is the one the script boots. Whatever iPXE decides
// at boot (a fetch that fails and what runs then, a setting the network
// fills, a jump, a menu) is beyond a file, so the reader follows a grammar
// it can follow completely, by allow-list, and refuses the rest by line and
// command:
//
//   - a line ending in \ goes on in the next, joined without a blank
//     (a trailing CR dropped first); a :label before a command is skipped
//     (nothing jumps to it: goto is refused);
//   - a line is split on blanks (C's isspace), a word starting with # ends
//     it, && runs the next command only when this one succeeded, as the
//     next line does (a failed command ends the script), and ; and || are
//     refused, since they run the next command after a failure too;
//   - each word is expanded as expand_settings does, again and again
//     until no ${name} is left, from the settings the script set itself
//     (set NAME VALUE...): any other setting is known only at boot;
//   - kernel (imgselect, imgload) fetches an image and selects it, or
//     selects the image of that name already fetched; initrd (module,
//     imgfetch) fetches one; imgargs NAME replaces an image's arguments;
//     boot (chain, imgexec) runs the image named, or the selected one, and
//     ends the reading: a kernel does not return, and a boot that fails
//     ends the script;
//   - a script without boot, chain or imgexec boots nothing and is
//     refused.

// ipxeCommands are the commands the reader follows; any other is refused.
var ipxeCommands = map[string]string{
	"set":       "set",
	"echo":      "echo",
	"kernel":    "kernel",
	"imgselect": "kernel",
	"imgload":   "kernel",
	"initrd":    "initrd",
	"module":    "initrd",
	"imgfetch":  "initrd",
	"imgargs":   "imgargs",
	"boot":      "boot",
	"chain":     "boot",
	"imgexec":   "boot",
}

// ipxeSettings are the settings iPXE defines itself (each __setting of its
// source at 0ab2277): typed, or filled by DHCP and the hardware, so what
// ${name} gives is not what a set in the script wrote.
var ipxeSettings = strings.Fields(`active-scan asset board-serial buildarch busid busloc bustype
	cert chip cpumodel cpuvendor crosscert cwduri cwuri dhcp-server dmesg dns dns6 dnssl domain
	errno filename gateway gateway6 hostname hwaddr ifname initiator-iqn ip ip6 keep-san key
	keymap len6 linktype mac manufacturer memsize mtu netmask next-server ntp password peerdist
	peerhost platform priority privkey product reverse-password reverse-username root-path
	san-drive san-filename san-retries scriptlet serial skip-san-boot ssid static-routes syslog
	syslog6 syslogs sysmac trust unixtime user-class username uuid vendor-class version vram`)

// ipxeImage is an image the script fetched: its name (--name, else the
// last part of its URI's path) and its arguments (nil: none set).
type ipxeImage struct {
	name string
	args *string
	at   int // the line that set args
}

// ipxeRun is one reading of a script.
type ipxeRun struct {
	settings map[string]string
	images   []*ipxeImage
	selected *ipxeImage
}

// ipxeIsSpace is C's isspace, which iPXE splits words on.
func ipxeIsSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// isIPXEScript says whether data starts as iPXE's script_probe wants:
// #!ipxe (or #!gpxe) and a blank.
func isIPXEScript(data []byte) bool {
	return len(data) > len(IPXEHeader) && (string(data[:6]) == IPXEHeader || string(data[:6]) == "#!gpxe") && ipxeIsSpace(data[6])
}

// ipxeBoots is the kernel command line an iPXE script boots and the line
// that set it; ok is false when data is no iPXE script. The error names
// the line and the command the reader cannot follow.
func ipxeBoots(data []byte) (line string, at int, ok bool, err error) {
	if !isIPXEScript(data) {
		return "", 0, false, nil
	}
	r := &ipxeRun{settings: map[string]string{}}
	lines := strings.Split(string(data), "\n")
	var (
		pending string
		start   int
	)
	for i, l := range lines {
		if i == len(lines)-1 && l == "" && pending == "" {
			break // the newline that ends the last line
		}
		if pending == "" {
			start = i + 1
		}
		pending += l
		pending = strings.TrimSuffix(pending, "\r")
		if strings.HasSuffix(pending, `\`) {
			pending = strings.TrimSuffix(pending, `\`)
			if i == len(lines)-1 || (i == len(lines)-2 && lines[i+1] == "") {
				// Nothing follows to go on with, whether or not the file
				// ends in a line feed.
				return "", 0, true, fmt.Errorf("line %d ends in \\ at the end of the script, and iPXE fails such a script; end the command on its line", start)
			}
			continue
		}
		booted, err := r.line(pending, start)
		if err != nil {
			return "", 0, true, fmt.Errorf("line %d: %w", start, err)
		}
		pending = ""
		if booted != nil {
			if strings.ContainsAny(booted.name, "=\"'") {
				return "", 0, true, fmt.Errorf("line %d: the image booted is named %q, and iPXE on UEFI puts the name first on the kernel's command line, where it reads as a parameter; name it plainly (--name)", start, booted.name)
			}
			// iPXE on UEFI hands the kernel the image's name, then its
			// arguments (src/image/efi_image.c efi_image_cmdline): the
			// longer of the two lines it may get, measured whole.
			if booted.args == nil || *booted.args == "" {
				return booted.name, start, true, nil
			}
			return booted.name + " " + *booted.args, booted.at, true, nil
		}
	}
	return "", 0, true, fmt.Errorf("the script boots nothing: iPXE runs a kernel on boot (or chain, imgexec), and the script has none")
}

// line runs one line of the script; booted is the image it boots, if it
// boots one.
func (r *ipxeRun) line(text string, at int) (booted *ipxeImage, err error) {
	text = strings.TrimLeftFunc(text, func(c rune) bool { return c < 0x80 && ipxeIsSpace(byte(c)) })
	if strings.HasPrefix(text, ":") { // a label, then perhaps a command
		text = strings.TrimLeftFunc(text, func(c rune) bool { return c >= 0x80 || !ipxeIsSpace(byte(c)) })
	}
	words := ipxeSplit(text)
	for len(words) > 0 {
		n := len(words)
		last := true
		for i, w := range words {
			if strings.HasPrefix(w, "#") {
				n = i
				break
			}
			if w == "||" || w == ";" {
				return nil, fmt.Errorf("%s runs the next command when the one before fails too, and which one runs is decided at boot; put each command on a line of its own", w)
			}
			if w == "&&" {
				n, last = i, false
				break
			}
		}
		if booted, err := r.command(words[:n], at); booted != nil || err != nil {
			return booted, err
		}
		if last {
			return nil, nil
		}
		words = words[n+1:]
	}
	return nil, nil
}

// ipxeSplit splits a line into words as split_command does.
func ipxeSplit(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && ipxeIsSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !ipxeIsSpace(s[j]) {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// expand is word as expand_settings makes it, from the script's settings.
func (r *ipxeRun) expand(word string) (string, error) {
	for range 64 {
		start, end := -1, -1
		for i := 0; i < len(word); i++ {
			if word[i] == '$' && i+1 < len(word) && word[i+1] == '{' {
				start = i
			}
			if start >= 0 && word[i] == '}' {
				end = i
				break
			}
		}
		if end < 0 {
			return word, nil
		}
		name := word[start+2 : end]
		v, ok := r.settings[name]
		if !ipxeSettingName(name) {
			return "", fmt.Errorf("${%s}: iPXE reads a setting's name that starts with a digit, a dot or a sign as a number (parse_setting_tag), which the reader does not follow; name it with a letter first", name)
		}
		if !ok {
			return "", fmt.Errorf("${%s} is a setting the script does not set, so its value is known only at boot; write the value out", name)
		}
		word = word[:start] + v + word[end+1:]
	}
	// A guard: each round takes a } out of the word, and the script's
	// settings hold no ${...} whole, so the loop ends well before.
	return "", fmt.Errorf("a ${...} expands to another without end")
}

// command runs one command; booted is the image it boots.
func (r *ipxeRun) command(words []string, at int) (booted *ipxeImage, err error) {
	if len(words) == 0 {
		return nil, nil // iPXE's empty command, done
	}
	verb, ok := ipxeCommands[words[0]]
	switch {
	case strings.Contains(words[0], "${"):
		return nil, fmt.Errorf("the command's name is a setting to expand; write the command out")
	case !ok:
		return nil, fmt.Errorf("the command %s is not one the reader follows (%s); a script that boots the document uses kernel, initrd, imgargs, set, echo and boot", words[0], ipxeAllowed())
	case verb == "echo":
		return nil, nil // what it prints, and the settings it names, boot nothing
	}
	args := make([]string, len(words)-1)
	for i, w := range words[1:] {
		if args[i], err = r.expand(w); err != nil {
			return nil, fmt.Errorf("%s: %w", words[0], err)
		}
	}
	if verb == "set" {
		return nil, r.set(args)
	}
	name, args, err := ipxeOptions(words[0], verb, args)
	if err != nil {
		return nil, err
	}
	var img *ipxeImage
	switch {
	case len(args) == 0 && verb == "boot":
		if img = r.selected; img == nil {
			return nil, fmt.Errorf("%s runs the selected image, and no kernel line selected one", words[0])
		}
	case len(args) == 0:
		return nil, fmt.Errorf("%s names no image", words[0])
	case verb == "imgargs":
		if img = r.find(args[0]); img == nil {
			return nil, fmt.Errorf("imgargs names %s, an image the script did not fetch, which iPXE fetches then; name the kernel's image", args[0])
		}
		img.args = nil // image_clear_cmdline
	case verb == "initrd":
		img, err = r.fetch(args[0], name)
	default: // imgacquire: the image of that name, else the URI fetched
		if img = r.find(args[0]); img == nil {
			img, err = r.fetch(args[0], name)
		} else if name != "" {
			return nil, fmt.Errorf("%s renames the image %s, which the reader does not follow; give each image its name once", words[0], args[0])
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", words[0], err)
	}
	if len(args) > 1 {
		line := strings.Join(args[1:], " ") // concat_args
		img.args, img.at = &line, at
	}
	switch verb {
	case "kernel":
		r.selected = img
	case "boot":
		return img, nil
	}
	return nil, nil
}

// set is iPXE's set NAME VALUE...: the value is the words joined by a
// blank; none is the empty value.
func (r *ipxeRun) set(args []string) error {
	switch {
	case len(args) == 0:
		return fmt.Errorf("set names no setting")
	case strings.HasPrefix(args[0], "-") || strings.ContainsAny(args[0], "/:") || args[0] == "":
		return fmt.Errorf("set %s: the reader follows a setting of the script's own, named without a scope, a type or an option", args[0])
	case !ipxeSettingName(args[0]):
		return fmt.Errorf("set %s: iPXE reads a setting's name that starts with a digit, a dot or a sign as a number (parse_setting_tag: 200, 0xc8 and 0310 name one setting), which the reader does not follow; name it with a letter first", args[0])
	case slices.Contains(ipxeSettings, args[0]):
		return fmt.Errorf("set %s: iPXE defines %s itself (typed, or filled by DHCP), so the reader does not follow it; name the setting otherwise", args[0], args[0])
	}
	r.settings[args[0]] = strings.Join(args[1:], " ")
	return nil
}

// ipxeOptions reads the options before the image (image_cmd.c's
// imgsingle options; --replace for boot alone): name is --name's value.
func ipxeOptions(cmd, verb string, args []string) (name string, rest []string, err error) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case (a == "--name" || a == "-n" || a == "--timeout" || a == "-t") && len(args) > 1:
			if a == "--name" || a == "-n" {
				name = args[1]
			}
			args = args[2:]
		case a == "--autofree" || a == "-a" || a == "--quiet" || a == "-q" || (verb == "boot" && (a == "--replace" || a == "-r")):
			args = args[1:]
		default:
			return "", nil, fmt.Errorf("%s: the option %s is not one the reader follows; write options apart from their values (--name NAME)", cmd, a)
		}
	}
	if name != "" && verb == "imgargs" {
		return "", nil, fmt.Errorf("%s: --name renames an image, which the reader does not follow", cmd)
	}
	return name, args, nil
}

// find is the image named name, as find_image finds it.
func (r *ipxeRun) find(name string) *ipxeImage {
	for _, img := range r.images {
		if img.name == name {
			return img
		}
	}
	return nil
}

// fetch registers the image uri names, named name or after the last part
// of the URI's path (image_set_uri). Two images of one name are refused:
// which one a later command finds is not for the reader to guess.
func (r *ipxeRun) fetch(uri, name string) (*ipxeImage, error) {
	if name == "" {
		if strings.ContainsAny(uri, "%") {
			return nil, fmt.Errorf("the URI holds a %%-escape, which iPXE decodes in the image's name; name the image with --name")
		}
		name = ipxeImageName(uri)
	}
	if name == "" || r.find(name) != nil {
		return nil, fmt.Errorf("the image is named %q, as another is or none can be; give each image a name of its own with --name", name)
	}
	img := &ipxeImage{name: name}
	r.images = append(r.images, img)
	return img, nil
}

// ipxeAllowed names the commands the reader follows, sorted.
func ipxeAllowed() string {
	var names []string
	for name := range ipxeCommands {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// ipxeSettingName says iPXE takes name as a setting's name, not a number:
// parse_setting_tag (src/core/settings.c) reads a name made of strtoul's
// numbers and dots as a DHCP option's tag, and strtoul takes blanks, a
// sign, 0x and leading zeros; a name starting with a letter or _ it never
// reads as one.
func ipxeSettingName(name string) bool {
	return name != "" && (name[0] == '_' || (name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z'))
}

// ipxeImageName is the name iPXE gives an image fetched from uri, one
// without a %-escape: the last part of its path (image_set_uri).
func ipxeImageName(uri string) string {
	path := uri
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if scheme, rest, ok := strings.Cut(path, "://"); ok && !strings.ContainsAny(scheme, "/") {
		_, path, _ = strings.Cut(rest, "/")
	}
	return path[strings.LastIndexByte(path, '/')+1:]
}
