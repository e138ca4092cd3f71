package source

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// ipxeModel is test equipment: iPXE's own flow, transcribed from its
// source (ipxe/ipxe at 0ab2277) without the reader's allow-list, for the
// commands that set an image's arguments: process_script's lines
// (continuations, a CR dropped, a label skipped), system's commands and
// command_terminator's || && ; and #, expand_settings, and image_cmd.c's
// imgfetch, imgselect, imgexec and imgargs, every fetch succeeding. It
// says what the kernel gets, or that it cannot say (known is false): a
// command it does not model, a setting the script did not set (iPXE's
// own, DHCP's, the hardware's).
type ipxeModel struct {
	settings map[string]string
	images   []*modelImage
	selected *modelImage
	booted   *modelImage
	unknown  bool
}

type modelImage struct {
	name    string
	cmdline *string
}

func modelBoot(script string) (line string, booted, known bool) {
	if !isIPXEScript([]byte(script)) {
		return "", false, true
	}
	m := &ipxeModel{settings: map[string]string{}}
	data := script
	var buf string
	for off := 0; off < len(data) && m.booted == nil && !m.unknown; {
		eol := strings.IndexByte(data[off:], '\n')
		frag := data[off:]
		if eol >= 0 {
			frag = data[off : off+eol]
		}
		buf += frag
		off += len(frag) + 1
		buf = strings.TrimSuffix(buf, "\r")
		if strings.HasSuffix(buf, `\`) {
			buf = strings.TrimSuffix(buf, `\`)
			continue
		}
		cmd := strings.TrimLeft(buf, " \t\n\v\f\r")
		if strings.HasPrefix(cmd, ":") {
			i := strings.IndexAny(cmd, " \t\n\v\f\r")
			if i < 0 {
				cmd = ""
			} else {
				cmd = cmd[i+1:]
			}
		}
		buf = ""
		if rc := m.system(cmd); rc != 0 {
			break // terminate_on_exit_or_failure
		}
	}
	if m.unknown {
		return "", false, false
	}
	if m.booted == nil {
		return "", false, true
	}
	// iPXE on UEFI hands the kernel the image's name first
	// (efi_image_cmdline).
	if m.booted.cmdline == nil || *m.booted.cmdline == "" {
		return m.booted.name, true, true
	}
	return m.booted.name + " " + *m.booted.cmdline, true, true
}

// system is exec.c's system: rc 0 is success.
func (m *ipxeModel) system(command string) int {
	tokens := ipxeSplit(command)
	process, rc := true, 0
	for {
		argc, next := len(tokens), ""
		for i, t := range tokens {
			if t[0] == '#' {
				argc = i
				break
			}
			if t == "||" || t == "&&" || t == ";" {
				argc, next = i, t
				break
			}
		}
		if process {
			argv := make([]string, argc)
			for i := range argc {
				argv[i] = m.expand(tokens[i])
			}
			rc = m.exec(argv)
			if m.booted != nil || m.unknown {
				return rc
			}
		}
		if next == "" {
			return rc
		}
		tokens = tokens[argc+1:]
		switch next {
		case "||":
			process = rc != 0
		case "&&":
			process = rc == 0
		default:
			process = true
		}
	}
}

func (m *ipxeModel) expand(s string) string {
	for range 1000 {
		start, end := -1, -1
		for i := 0; i < len(s); i++ {
			if s[i] == '$' && i+1 < len(s) && s[i+1] == '{' {
				start = i
			}
			if start >= 0 && s[i] == '}' {
				end = i
				break
			}
		}
		if end < 0 {
			return s
		}
		v, ok := m.settings[s[start+2:end]]
		if !ok {
			m.unknown = true
		}
		s = s[:start] + v + s[end+1:]
	}
	m.unknown = true
	return s
}

func (m *ipxeModel) find(name string) *modelImage {
	for _, img := range m.images {
		if img.name == name {
			return img
		}
	}
	return nil
}

// exec runs one command as image_cmd.c and nvo_cmd.c do.
func (m *ipxeModel) exec(argv []string) int {
	if len(argv) == 0 {
		return 0
	}
	switch argv[0] {
	case "echo":
		return 0
	case "set":
		if len(argv) < 2 || strings.HasPrefix(argv[1], "-") || strings.ContainsAny(argv[1], "/:") || slices.Contains(ipxeSettings, argv[1]) {
			m.unknown = true
			return 1
		}
		m.settings[argv[1]] = strings.Join(argv[2:], " ")
		return 0
	case "kernel", "imgselect", "imgload", "initrd", "module", "imgfetch", "imgargs", "boot", "chain", "imgexec":
	default:
		m.unknown = true
		return 1
	}
	args, name := argv[1:], ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "--name", "-n", "--timeout", "-t":
			if len(args) < 2 {
				m.unknown = true
				return 1
			}
			if args[0] == "--name" || args[0] == "-n" {
				name = args[1]
			}
			args = args[2:]
		case "--autofree", "-a", "--quiet", "-q", "--replace", "-r":
			args = args[1:]
		default:
			m.unknown = true
			return 1
		}
	}
	var img *modelImage
	switch {
	case len(args) == 0 && (argv[0] == "boot" || argv[0] == "chain" || argv[0] == "imgexec"):
		if img = m.selected; img == nil {
			return 0 // "No image selected", and rc still 0
		}
	case len(args) == 0:
		return 1
	case argv[0] == "initrd" || argv[0] == "module" || argv[0] == "imgfetch":
		img = m.download(args[0])
	default:
		if img = m.find(args[0]); img == nil {
			img = m.download(args[0])
		}
	}
	if img == nil {
		return 1
	}
	if argv[0] == "imgargs" {
		img.cmdline = nil
	}
	if name != "" {
		img.name = name
	}
	if len(args) > 1 {
		line := strings.Join(args[1:], " ")
		img.cmdline = &line
	}
	switch argv[0] {
	case "kernel", "imgselect", "imgload":
		m.selected = img
	case "boot", "chain", "imgexec":
		m.booted = img
	}
	return 0
}

// download registers the image uri names, named as image_set_uri names
// it: the last part of the URI's path (uri.c's parse_uri: the fragment
// and query cut off, a scheme and an authority skipped, %-escapes
// decoded), or of its opaque part.
func (m *ipxeModel) download(uri string) *modelImage {
	if i := strings.IndexAny(uri, "#?"); i >= 0 {
		uri = uri[:i]
	}
	p := uri
	if i := strings.IndexByte(uri, ':'); i > 0 && !strings.ContainsAny(uri[:i], "/") {
		p = uri[i+1:]
		if rest, ok := strings.CutPrefix(p, "//"); ok {
			_, p, _ = strings.Cut(rest, "/")
			p = "/" + p
		}
	}
	if d, err := url.PathUnescape(p); err == nil {
		p = d
	}
	img := &modelImage{name: p[strings.LastIndexByte(p, '/')+1:]}
	m.images = append(m.images, img)
	return img
}

// A script cmdline --ipxe prints, mutated any way, is either refused or
// read to exactly the line iPXE's own flow boots.
func FuzzIPXEReadsWhatIPXEBoots(f *testing.F) {
	params := strings.Fields(inlineParams(docCmdline))
	for _, boot := range []Boot{{Kernel: "vmlinuz", Initrd: "initrd.img"}, {Kernel: "http://192.0.2.1/b/vmlinuz", Initrd: "initrd.img", Append: "root=/dev/sda2 console=ttyS0"}} {
		script, _, err := ipxeScript(params, boot)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(script)
		f.Add(strings.Replace(script, "\nboot", "\nimgargs vmlinuz quiet\nboot", 1))
		f.Add(strings.Replace(script, "kernel ", "set x quiet\necho ok && kernel --name k ", 1) + "kernel \\\nvmlinuz ${x}\n")
		f.Add(strings.Replace(script, "boot\n", "boot || boot vmlinuz quiet\n", 1))
	}
	f.Fuzz(func(t *testing.T, script string) {
		line, at, ok, err := ipxeBoots([]byte(script))
		want, booted, known := modelBoot(script)
		switch {
		case !ok || err != nil:
			// refused, or no script
		case !known:
			t.Fatalf("read %q (line %d) where iPXE's flow depends on the boot", line, at)
		case !booted:
			t.Fatalf("read %q (line %d) where iPXE boots nothing", line, at)
		case line != want:
			t.Fatalf("read %q (line %d), iPXE boots %q", line, at, want)
		}
	})
}
