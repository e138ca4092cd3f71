package status

import (
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// Path is the status file, under the root.
const Path = "/run/corium/status.json"

// Outcome of a whole run.
type Outcome string

const (
	Provisioned  Outcome = "provisioned"   // first boot finished, marker written
	Converged    Outcome = "converged"     // an again run finished
	NothingToDo  Outcome = "nothing-to-do" // the marker was already there
	Unconfigured Outcome = "unconfigured"  // no source yielded a config
	Refused      Outcome = "refused"       // an again run asked for a change it cannot make
	Failed       Outcome = "failed"
)

// Status is one run of the agent.
type Status struct {
	Command    string    `json:"command"`
	Root       string    `json:"root"`
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	Outcome    Outcome   `json:"outcome"`
	// Error is the reason the run failed or refused; "" otherwise.
	Error       string       `json:"error,omitempty"`
	Provenance  *Provenance  `json:"provenance,omitempty"`
	Validation  *Validation  `json:"validation,omitempty"`
	NodeAddress *NodeAddress `json:"nodeAddress,omitempty"`
	Hostname    *Hostname    `json:"hostname,omitempty"`
	Steps       []Step       `json:"steps,omitempty"`
	// Refusals lists the fields an again run will not change, one per field.
	Refusals []string `json:"refusals,omitempty"`
	// Unfinished is the earlier run this one found unended (RunPath): it
	// began to change the node and was cut off; nil when there was none.
	Unfinished *Unfinished `json:"unfinished,omitempty"`
}

// Provenance is where the document came from.
type Provenance struct {
	// Source is the source used; "" when none yielded a document.
	Source string    `json:"source"`
	Tried  []Attempt `json:"tried"`
	// Pin is the corium.config.sha256= on the kernel command line, which
	// binds the node to the document it pins; "" when there is none.
	Pin string `json:"pin,omitempty"`
}

// SourceLine is the source for a person: which document ran ("none" when
// none did) and, when the kernel command line pinned it, that no other could.
func (p *Provenance) SourceLine() string {
	s := p.Source
	if s == "" {
		s = "none"
	}
	if p.Pin != "" {
		s += " (" + PinNote(p.Pin) + ")"
	}
	return s
}

// PinNote says what a pin on the kernel command line does.
func PinNote(pin string) string {
	return "the kernel command line pins sha256 " + pin + ": the node runs that document or nothing"
}

// Attempt is one source of the chain and what came of it.
type Attempt struct {
	Source  string `json:"source"`
	Outcome string `json:"outcome"` // used, absent, ignored, failed
	Reason  string `json:"reason,omitempty"`
}

// NodeAddress is the node-address decision.
type NodeAddress struct {
	// Address is the chosen address; "" when decided at boot.
	Address string `json:"address,omitempty"`
	// Second is the node's address of the other family in a dual-stack
	// cluster, registered beside Address; "" otherwise.
	Second string `json:"second,omitempty"`
	// How says how it was decided (for example "wireguard wg0 nodeAddress",
	// "default route source", "decided at boot").
	How string `json:"how"`
	// Candidates lists every candidate with why it was taken or rejected.
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Candidate is one address considered for the node address.
type Candidate struct {
	Interface string `json:"interface,omitempty"`
	Address   string `json:"address"`
	Taken     bool   `json:"taken"`
	Reason    string `json:"reason,omitempty"`
}

// Hostname is the hostname decision.
type Hostname struct {
	Name   string `json:"name,omitempty"`
	Source string `json:"source"`
}

// StepOutcome is what happened to one step.
type StepOutcome string

const (
	StepDone   StepOutcome = "done"
	StepFailed StepOutcome = "failed"
	StepNotRun StepOutcome = "not-run"
)

// Step is one stage of the run.
type Step struct {
	Name       string      `json:"name"`
	Outcome    StepOutcome `json:"outcome"`
	DurationMS int64       `json:"durationMs"`
	Files      []File      `json:"files,omitempty"`
	Actions    []Action    `json:"actions,omitempty"`
	Error      string      `json:"error,omitempty"`
}

// File is one file or link the step wrote, left alone or removed, as every
// report of a run shows it.
type File = plan.ShownFile

// Action is one live action and what came of it.
type Action struct {
	plan.ShownAction
	Outcome string `json:"outcome"` // done, skipped: WHY, failed
	Error   string `json:"error,omitempty"`
}
