package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/wgquick"
)

// conf is the last run's wg-quick file of interface name as wgquick.Parse
// reads it; found is false when there is none, and err says why a file on
// disk cannot be read.
func (p *Previous) conf(name string) (f wgquick.File, found bool, err error) {
	if p == nil {
		return wgquick.File{}, false, nil
	}
	data, found := p.Confs[name]
	if !found {
		return wgquick.File{}, false, nil
	}
	f, err = wgquick.Parse(data)
	return f, true, err
}

// checkPrevious refuses to build on a last run's file of an interface cfg
// names that wg and wg-quick read differently: what the running interface
// is cannot be told, so neither its MTU nor its peers can be compared. A
// file that neither reads is no such question: the interface is restarted
// from the new file, as any change it cannot compare.
func checkPrevious(cfg *schema.Config, prev *Previous) error {
	for i, wg := range cfg.WireGuard {
		_, _, err := prev.conf(wg.Name)
		if d := (*wgquick.DisagreeError)(nil); errors.As(err, &d) {
			return fmt.Errorf("wireguard[%d]: the last run's %s: %w", i, WireGuardConfPath(wg.Name), err)
		}
	}
	return nil
}

// managedConf says whether the last run's file of name carries the
// managed-by header. A file that does not parse is not known to be the
// agent's, and is left alone as a foreign one.
func (p *Previous) managedConf(name string) bool {
	f, found, err := p.conf(name)
	return found && err == nil && strings.HasPrefix(f.Header, plan.Managed("#"))
}
