package vm

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The recipe pair's NICs; its network is its own (link), so it has c1's
// and w1's underlay addresses, which the page's recipe names.
const macRC1, macRW1 = "52:54:00:c0:00:21", "52:54:00:c0:00:22"

// recipePair is the cluster of TestVMCluster booted the other way ADR 6
// weighs: rc1 and rw1, each from a NoCloud seed whose user-data is the
// cloud-init recipe of docs/overlay.md (write_files with the wg-quick file
// and a k0s drop-in, runcmd enabling wg-quick@wg0 and installing and
// starting k0s), the same k0s stand-in on the disk, and no agent: the
// image's corium-agent.service is masked on these disks, since the recipe
// is what an operator writes instead of a corium: key, and an image with
// the agent's unit enabled would otherwise provision from the image's other
// sources. The keys and the join token are in the user-data, in cleartext,
// as the recipe has them.
type recipePair struct {
	c1, w1  *Machine
	keys    vmCluster
	secrets *Secrets
}

func newRecipePair(t *testing.T) *recipePair {
	t.Helper()
	r := &recipePair{keys: newCluster(t), secrets: &Secrets{}}
	r.secrets.Add(r.keys.secrets()...)
	blocks := recipeBlocks(t)
	for _, c := range []struct {
		m    **Machine
		name string
		unit string
		mac  string
		addr string
	}{
		{&r.c1, "rc1", "k0scontroller.service", macRC1, underlayC1},
		{&r.w1, "rw1", "k0sworker.service", macRW1, underlayW1},
	} {
		m := newMachine(t, c.name, newDisk(t, c.name, noAgent), c.mac, r.secrets)
		m.Seed = newSeed(t, map[string]string{
			"meta-data":      "instance-id: " + c.name + "-" + fixture.RandHex(8) + "\nlocal-hostname: " + c.name + "\n",
			"user-data":      fillRecipe(t, blocks[c.unit], recipeValues(r.keys)),
			"network-config": seedNetworkConfig(c.mac, c.addr),
		})
		*c.m = m
	}
	link(r.c1, r.w1)
	return r
}

// noAgent masks the agent's unit on a disk: the recipe runs without it.
func noAgent(s *staging) {
	s.Symlink("/dev/null", "/etc/systemd/system/corium-agent.service")
}
