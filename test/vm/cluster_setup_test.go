package vm

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// requireVM skips (or, under CI, fails) a test that cannot boot machines.
func requireVM(t testing.TB) {
	t.Helper()
	host.RequireRoot(t, "qemu-system-x86_64", "mke2fs", "mkfs.vfat", "mcopy", "mount", "systemctl", "systemd-nspawn", "debootstrap", "swtpm")
}

// twoNodes is the cluster: c1, a controller+worker PXE-booted by iPXE and
// configured from the kernel command line its iPXE script carries, and w1, a worker configured by cloud-init from a
// NoCloud seed disk, on one private network, each with its WireGuard key
// (and w1 its join token) as SMBIOS credentials.
type twoNodes struct {
	c1, w1  *Machine
	keys    vmCluster
	secrets *Secrets
	// started runs after both machines are started, before either is
	// waited for: what QEMU was handed still exists then.
	started func()
	// sealed is w1's secrets sealed to its TPM at enrolment, nil when w1
	// is handed them in cleartext.
	sealed *sealedSecrets
}

// nodesOption changes the pair newTwoNodes makes, for one test: the
// defaults are TestVMCluster's.
type nodesOption struct {
	c1Disk, w1Disk func(*staging) // more files on the machine's disk
	// w1Join is the join: block of w1's user-data (indented as under
	// corium:); "" takes the token from the joinCredential credential.
	w1Join        string
	w1Credentials map[string]string // more SMBIOS credentials for w1
}

func newTwoNodes(t *testing.T, opts ...nodesOption) *twoNodes {
	t.Helper()
	var opt nodesOption
	for _, o := range opts {
		opt = o
	}
	n := &twoNodes{keys: newCluster(t), secrets: &Secrets{}}
	n.secrets.Add(n.keys.secrets()...)

	staged := noMetadata(macC1, underlayC1)
	n.c1 = newMachine(t, "c1", newDisk(t, "c1", func(s *staging) {
		staged(s)
		pxeNICUnmanaged(s)
		if opt.c1Disk != nil {
			opt.c1Disk(s)
		}
	}), macC1, n.secrets)
	n.c1.netBoot([]byte(controllerConfig(n.keys)))
	n.c1.Credentials[wgCredential] = n.keys.c1Key.String()

	// w1's network comes from its seed, as cloud-init renders it.
	n.w1 = newMachine(t, "w1", newDisk(t, "w1", func(s *staging) {
		withSealedDropIn(s)
		if opt.w1Disk != nil {
			opt.w1Disk(s)
		}
	}), macW1, n.secrets)
	join := opt.w1Join
	if join == "" {
		join = credentialJoin
		n.w1.Credentials[joinCredential] = n.keys.joinToken
	}
	n.w1.Seed = newSeed(t, map[string]string{
		"meta-data":      "instance-id: w1-" + fixture.RandHex(8) + "\nlocal-hostname: w1\n",
		"user-data":      workerUserDataJoin(n.keys, join),
		"network-config": workerNetworkConfig(),
	})
	n.w1.Credentials[wgCredential] = n.keys.w1Key.String()
	for name, value := range opt.w1Credentials {
		n.w1.Credentials[name] = value
	}
	link(n.c1, n.w1)
	return n
}

// boot starts both machines together and waits for both.
func (n *twoNodes) boot(extraC1, extraW1 []string) {
	n.start(extraC1, extraW1)
	n.wait()
}

func (n *twoNodes) start(extraC1, extraW1 []string) {
	n.c1.Start(extraC1...)
	n.w1.Start(extraW1...)
	if n.started != nil {
		n.started()
	}
}

func (n *twoNodes) wait() {
	n.c1.WaitBooted()
	n.w1.WaitBooted()
}

func (n *twoNodes) poweroff() {
	n.c1.Poweroff()
	n.w1.Poweroff()
}
