package main

import (
	"context"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/schema"
)

// withSetFacts checks again, knowing the set, the documents whose own
// findings depend on it: a controller at another site, without ha, whose
// cluster.endpoint is the virtual IP the set's controllers share, is the
// documented two-site design (schema.SharedVirtualIPs), not an endpoint
// nobody holds. Only those files are read again; the rest stand.
func withSetFacts(ctx context.Context, files []string, reports []validateReport, c checks) []validateReport {
	nodes := make([]cluster.Node, len(reports))
	for i, r := range reports {
		nodes[i] = r.node
	}
	vips := cluster.SharedVIPs(nodes)
	if len(vips) == 0 {
		return reports
	}
	again := c
	again.opts = append(append([]schema.Option(nil), c.opts...), schema.SharedVirtualIPs(vips...))
	for i, r := range reports {
		if r.Error == "" && cluster.DialsSharedVIP(r.node, vips) {
			reports[i] = validateFile(ctx, files[i], again)
		}
	}
	return reports
}
