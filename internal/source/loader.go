package source

import (
	"fmt"
	"slices"
	"strings"
)

// A boot loader's script is a way a document reaches a node: the script
// hands the kernel a command line, and that line carries the document
// inline. Each loader the agent knows is one Loader in loaders, and each
// reader of the shapes goes through this table: Unpack tries each loader's
// reader in turn, validate reads a directory's files named with its
// suffixes and names it in its help, and cmdline prints a script for the
// one its flag names. A new loader is a file of its own (its reader, its
// printer, its Loader) and an entry in loaders.

// Loader is one boot loader's script: how the agent finds the kernel's
// command line in one, and how it prints one carrying the parameters.
type Loader struct {
	// Name is cmdline's flag for the loader ("grub": --grub).
	Name string
	// Noun names the script in validate's help ("a GRUB entry").
	Noun string
	// Suffixes name the files of a directory validate reads as the
	// loader's script (".cfg").
	Suffixes []string
	// Usage is the help of cmdline's flag; About, when not "", a sentence
	// of cmdline's help on what it prints for the loader.
	Usage, About string
	// Boots says the script boots the kernel itself, so that Boot's
	// kernel, initrd and other parameters (cmdline's --kernel, --initrd,
	// --append) go with the loader.
	Boots bool

	// entry finds the kernel command line a script hands the kernel when
	// it names corium.config=: the line, the number of the script's line
	// it is on (0: the text is that line alone), ok false when the text is
	// no such script. An error says why the script's line cannot be
	// trusted to be the one the kernel gets.
	entry func(data []byte) (line string, at int, ok bool, err error)
	// via names the script's line in Delivery.Via ("GRUB linux": "line 2
	// (GRUB linux) corium.config"); undone starts Delivery.How when the
	// loader's reading of the line changed its words ("GRUB's quotes
	// undone, ").
	via, undone string
	// script is the script carrying params, then boot's other
	// parameters; line is the kernel command line it hands over.
	script func(params []string, boot Boot) (script, line string, err error)
}

// Boot is what a script that boots the kernel itself (Loader.Boots) names
// beside the agent's parameters.
type Boot struct {
	// Kernel and Initrd are the images' URIs.
	Kernel, Initrd string
	// Append is the boot's other kernel parameters (root=, console=, ...),
	// after the agent's; "" for none.
	Append string
}

// loaders are the boot loaders' scripts, in the order Unpack tries them.
var loaders = []Loader{grubLoader, ipxeLoader}

// Loaders are the boot loaders whose scripts the agent reads and prints.
func Loaders() []Loader { return slices.Clone(loaders) }

// Flag is cmdline's flag for the loader ("--grub").
func (l Loader) Flag() string { return "--" + l.Name }

// Script is the script that hands the kernel params (joined by blanks,
// after boot's when the loader boots the kernel itself), and line is the
// command line the kernel gets from it, for measuring. The error says why
// the loader would not hand the kernel those very words.
func (l Loader) Script(params []string, boot Boot) (script, line string, err error) {
	return l.script(params, boot)
}

// unpack reads the document a loader's script carries on its kernel
// line; ok is false when data is no such script.
func (l Loader) unpack(data []byte) (d *Delivery, ok bool, err error) {
	line, at, ok, err := l.entry(data)
	if err != nil || !ok {
		return nil, false, err
	}
	via, carrier := ParamConfig, lineOf(data)
	if at > 0 {
		via, carrier = fmt.Sprintf("line %d (%s) %s", at, l.via, ParamConfig), at
	}
	d, err = unpackCmdline(line, carrier, via, l.undone)
	return d, true, err
}

// unpackLoaders reads the document the first loader's script that data is
// carries; ok is false when data is no loader's script.
func unpackLoaders(data []byte) (*Delivery, bool, error) {
	for _, l := range loaders {
		if d, ok, err := l.unpack(data); err != nil || ok {
			return d, ok, err
		}
	}
	return nil, false, nil
}

// LoaderSuffixes are the suffixes of every loader's script, in the
// table's order.
func LoaderSuffixes() []string {
	var out []string
	for _, l := range loaders {
		out = append(out, l.Suffixes...)
	}
	return out
}

// booted is what a loader's entry says of the kernel line its reader found
// the script boots (line, set at line at; ok false: data is no such
// script): the line when it names corium.config=. A script the reader
// cannot follow (err), or whose booted line names no corium.config= where
// the script names it elsewhere, is refused when the script names
// corium.config= at all, and handed on as no script of the loader's
// otherwise (the schema then says it holds no document).
func booted(data []byte, loader, line string, at int, ok bool, err error) (string, int, bool, error) {
	mentions := strings.Contains(string(data), ParamConfig)
	_, named := parseCmdline(line).get(ParamConfig)
	if ok {
		// What the reader followed is the script's text; its consumer
		// reads its bytes, and a byte they read otherwise comes first.
		if bytesErr := scriptBytes(data); bytesErr != nil {
			err = bytesErr
		}
	}
	switch {
	case !ok:
		return "", 0, false, nil
	case err != nil && mentions:
		return "", 0, false, fmt.Errorf("%w; the script is refused, as validate checks only the kernel line it can prove %s boots: make it again with corium-agent cmdline --%s, or keep to the commands docs/pxe.md lists", err, loader, strings.ToLower(loader))
	case err != nil || (!named && !mentions):
		return "", 0, false, nil
	case !named:
		return "", 0, false, fmt.Errorf("the kernel line %s boots (line %d) does not name %s=, which the script names elsewhere; make it again with corium-agent cmdline --%s", loader, at, ParamConfig, strings.ToLower(loader))
	}
	return line, at, true, nil
}
