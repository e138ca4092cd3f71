package chain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// Names of the sources, as provenance and status spell them.
const (
	NameFile      = source.FilePath
	NameCloudInit = "cloud-init"
	NameCmdline   = "cmdline"
	NameDefault   = DefaultPath
)

// Paths the chain reads, under the root, after source.FilePath.
const (
	CloudConfigPath = "/var/lib/cloud/instance/cloud-config.txt"
	CmdlinePath     = "/proc/cmdline"
	DefaultPath     = "/usr/share/corium/config.yaml"
)

// Outcome is what trying one source came to.
type Outcome string

const (
	Used   Outcome = "used"
	Absent Outcome = "absent"
	Failed Outcome = "failed"
	// Ignored is an earlier source holding the very document the kernel
	// command line pins: the pinned source runs it.
	Ignored Outcome = "ignored"
)

// Attempt is one source tried. Reason says why it was absent, what failed, or
// for a used command line where the document came from; it never holds a
// secret or a URL's query string.
type Attempt struct {
	Source  string  `json:"source"`
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason"`
}

// Result is the chain's answer. Source is "" when no source holds a corium
// block (the node stays unconfigured) or when a source failed.
type Result struct {
	Source string    `json:"source"`
	Data   []byte    `json:"-"`
	Tried  []Attempt `json:"tried"`
	// OnCmdline says the document itself is on the kernel command line
	// (corium.config=data:), where every user of the node can read it in
	// /proc/cmdline.
	OnCmdline bool `json:"onCmdline,omitempty"`
	// Tree is the document as read, for the schema to decode without
	// parsing it again; it knows whether the document is a cloud-config.
	Tree *schema.Tree `json:"-"`
	// Pin is the corium.config.sha256= that bound the chain to the command
	// line's document (see binding); "" when the line pins nothing.
	Pin string `json:"pin,omitempty"`
}

// Options says where to look.
type Options struct {
	// Root is the tree every source path is read under.
	Root rootfs.Root
	// ConfigFile, when set, replaces the chain: a path on the host (relative
	// to the working directory), not under Root, as tools hand it over.
	ConfigFile string
	// Fetch fetches corium.config= URLs; nil means fetch.New() when needed.
	Fetch *fetch.Client
	// Logger receives the provenance; nil means slog.Default().
	Logger *slog.Logger
}

// answer is what one source yields: a document, or the reason it is absent.
type answer struct {
	data      []byte
	tree      *schema.Tree
	absent    string
	ignored   string // why a source holding a block does not run (binding)
	detail    string // for a used source: where the document came from
	onCmdline bool
}

type step struct {
	name string
	try  func(ctx context.Context, o *Options, k *kernelLine) (answer, error)
}

var sources = []step{
	{NameFile, func(_ context.Context, o *Options, _ *kernelLine) (answer, error) {
		return readLocal(o.Root, source.FilePath, false)
	}},
	{NameCloudInit, func(_ context.Context, o *Options, _ *kernelLine) (answer, error) {
		return readLocal(o.Root, CloudConfigPath, true)
	}},
	{NameCmdline, tryCmdline},
	{NameDefault, func(_ context.Context, o *Options, _ *kernelLine) (answer, error) {
		return readLocal(o.Root, DefaultPath, false)
	}},
}

// Find runs the chain (or reads ConfigFile) and returns the document with its
// provenance. On failure the Result still lists every source tried, the
// failed one last.
func Find(ctx context.Context, opts Options) (*Result, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.ConfigFile != "" {
		return fromFlag(ctx, opts)
	}
	res := &Result{Tried: []Attempt{}}
	// The command line is read first, because a pin on it decides how every
	// source before it is read; a broken pin fails before any of them.
	k := readKernelLine(opts.Root)
	if k.params.Pinned && k.err != nil {
		res.record(opts.Logger, Attempt{Source: NameCmdline, Outcome: Failed, Reason: k.err.Error()})
		return res, fmt.Errorf("configuration source %s: %w (the chain stops at a broken source; fix or remove it)", NameCmdline, k.err)
	}
	bind := k.binding()
	if bind != nil {
		res.Pin = bind.pin
		opts.Logger.Info("the kernel command line pins the configuration; the node runs the pinned document or nothing", "pinned", bind.String())
	}
	for _, s := range sources {
		a, err := s.try(ctx, &opts, k)
		if err == nil && a.absent == "" && bind != nil && s.name != NameCmdline {
			a, err = bind.check(s.name, a)
		}
		var conflict *conflictError
		switch {
		case errors.As(err, &conflict):
			res.record(opts.Logger, Attempt{Source: s.name, Outcome: Failed, Reason: err.Error()})
			return res, fmt.Errorf("configuration source %s: %w", s.name, err)
		case err != nil:
			res.record(opts.Logger, Attempt{Source: s.name, Outcome: Failed, Reason: err.Error()})
			return res, fmt.Errorf("configuration source %s: %w (the chain stops at a broken source; fix or remove it)", s.name, err)
		case a.absent != "":
			res.record(opts.Logger, Attempt{Source: s.name, Outcome: Absent, Reason: a.absent})
		case a.ignored != "":
			res.record(opts.Logger, Attempt{Source: s.name, Outcome: Ignored, Reason: a.ignored})
		default:
			res.record(opts.Logger, Attempt{Source: s.name, Outcome: Used, Reason: a.detail})
			res.Source, res.Data, res.OnCmdline, res.Tree = s.name, a.data, a.onCmdline, a.tree
			return res, nil
		}
	}
	opts.Logger.Info("no configuration source holds a corium block; the node stays unconfigured")
	return res, nil
}

func (r *Result) record(log *slog.Logger, a Attempt) {
	r.Tried = append(r.Tried, a)
	level := slog.LevelInfo
	if a.Outcome == Failed {
		level = slog.LevelError
	}
	attrs := []any{"source", a.Source, "outcome", string(a.Outcome)}
	if a.Reason != "" {
		attrs = append(attrs, "reason", a.Reason)
	}
	log.Log(context.Background(), level, "configuration source", attrs...)
}
