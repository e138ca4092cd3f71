package deptest

import "maps"

// The tiers of the agent, from the core out. Each package of the module is
// placed on one in Layout, and TestLayout holds it there.
var (
	// Pure is the core: the contract, what the agent knows of k0s, render,
	// the plan, the codecs and records as data, the cluster check, the
	// firewall spec. It reads no file and drives nothing: the I/O stage
	// reads and hands it what it read, and carries out what it decided.
	// validate runs it on a workstation.
	Pure = &Tier{
		Name: "pure",
		BadImports: map[string]string{
			"os":       "a pure package opens no file and reads no environment: the I/O stage reads and hands it what it read",
			"os/exec":  "a pure package runs no program",
			"net/http": "a pure package fetches nothing: fetch and secret/resolve do",
		},
		BadDeps: merge(driverReasons, map[string]string{
			"github.com/corium/corium-agent/internal/rootfs": "a pure package touches no file of the node: the I/O stage reads under the root (bootstrap/ondisk, status/store, firewall/guardfile, systemd/offline) and hands render what it read",
			"testing": testingReason,
		}),
	}
	// IO is the stage that performs I/O: sources and fetching, secret
	// resolution, the host's facts, the node's files, the run and its
	// executor, the readers of the records, the command.
	IO = &Tier{Name: "io", BadDeps: map[string]string{"testing": testingReason}}
	// Driver wraps one interface of the kernel or of systemd (netlink,
	// nftables, D-Bus, sd_notify), so that the rest reaches it through one
	// package a test can replace.
	Driver = &Tier{Name: "driver", BadDeps: map[string]string{"testing": testingReason}}
	// Equipment is what tests run on: helpers, fakes, the test programs
	// under test/. Nothing of the agent links it.
	Equipment = &Tier{Name: "equipment"}
)

const testingReason = "test equipment stays out of the agent's binary"

// driverReasons are the packages that reach outside the process, with why
// the pure core links none of them (Drivers lists them).
var driverReasons = map[string]string{
	"net/http":   "fetches over the network, which only fetch and secret/resolve do",
	"crypto/tls": "only a network client needs TLS, and validate runs on a workstation without one",
	"os/exec":    "runs other programs, which only the stage that performs I/O and the drivers do",
	"golang.zx2c4.com/wireguard/wgctrl/internal": "wgctrl's client drives WireGuard devices (its key type, wgtypes, is a leaf any package may link)",
	"github.com/mdlayher/netlink":                "netlink talks to the kernel's network stack: hostfacts/gather and apply do",
	"github.com/vishvananda/netlink":             "netlink talks to the kernel's network stack: hostfacts/gather and apply do",
	"github.com/google/nftables":                 "nftables programs the kernel's firewall: firewall/nft does",
	"github.com/godbus/dbus/v5":                  "D-Bus talks to the live systemd: systemd/bus does",
	"github.com/coreos/go-systemd/v22/dbus":      "D-Bus talks to the live systemd: systemd/bus does",
}

// Layout places every package of the module, by its path in the module. A
// package that moves is one line here; a new package fails TestLayout until
// it has its line.
var Layout = map[string]Placement{
	// The contract and what the agent knows of k0s.
	"internal/schema":           {Tier: Pure},
	"internal/schema/schemadoc": {Tier: Pure},
	"internal/k0s":              {Tier: Pure},
	"internal/k0s/config":       {Tier: Pure},
	"internal/k0s/rules":        {Tier: Pure},
	"internal/k0s/kubelet":      {Tier: Pure},
	"internal/finding":          {Tier: Pure},
	"internal/yamltext":         {Tier: Pure},
	"internal/secret":           {Tier: Pure},
	"internal/hostfacts":        {Tier: Pure},
	"internal/source":           {Tier: Pure},
	"internal/cluster":          {Tier: Pure},
	"internal/retry":            {Tier: Pure},
	"internal/shown":            {Tier: Pure},
	// Render, the plan it makes, and what it renders as data.
	"internal/bootstrap/render": {Tier: Pure},
	"internal/bootstrap/plan":   {Tier: Pure, Also: planLeaf},
	"internal/firewall":         {Tier: Pure},
	"internal/systemd":          {Tier: Pure},
	// The codecs and the records' encodings. The wg-quick codec is a leaf
	// as wgtypes is; its own test (wgquick's deps_test.go) allows the
	// standard library, wgtypes and secret only. The k0s.yaml codec is
	// one too (k0syaml's deps_test.go: the two YAML libraries and secret).
	"internal/status":  {Tier: Pure},
	"internal/wgquick": {Tier: Pure},
	"internal/k0syaml": {Tier: Pure},
	// The judge of the sockets that listen on the node, against the guard.
	"internal/status/listen": {Tier: Pure},

	// The stage that performs I/O.
	"cmd/corium-agent":            {Tier: IO},
	"internal/bootstrap":          {Tier: IO},
	"internal/bootstrap/apply":    {Tier: IO},
	"internal/bootstrap/ondisk":   {Tier: IO},
	"internal/fetch":              {Tier: IO},
	"internal/firewall/guardfile": {Tier: IO},
	"internal/rootfs":             {Tier: IO},
	"internal/schema/gen":         {Tier: IO},
	"internal/secret/resolve":     {Tier: IO, Also: resolverDrivers},
	"internal/source/chain":       {Tier: IO},
	"internal/status/listen/scan": {Tier: IO},
	"internal/status/report":      {Tier: IO},
	"internal/status/store":       {Tier: IO},
	"internal/systemd/offline":    {Tier: IO},

	// Drivers.
	"internal/firewall/nft":      {Tier: Driver},
	"internal/hostfacts/gather":  {Tier: Driver},
	"internal/hostfacts/nlroute": {Tier: Driver},
	"internal/systemd/bus":       {Tier: Driver},
	"internal/systemd/notify":    {Tier: Driver},

	// Test equipment.
	"internal/bootstrap/apply/applytest":   {Tier: Equipment},
	"internal/bootstrap/render/rendertest": {Tier: Equipment},
	"internal/source/sourcetest":           {Tier: Equipment},
	"internal/systemd/notify/notifytest":   {Tier: Equipment},
	"internal/systemd/systemdtest":         {Tier: Equipment},
	"internal/testutil":                    {Tier: Equipment},
	"internal/testutil/agentbin":           {Tier: Equipment},
	"internal/testutil/deptest":            {Tier: Equipment},
	"internal/testutil/fixture":            {Tier: Equipment, Also: fixtureDrivers},
	"internal/testutil/guest":              {Tier: Equipment},
	"internal/testutil/host":               {Tier: Equipment},
	"internal/testutil/netns":              {Tier: Equipment},
	"internal/testutil/tlsserver":          {Tier: Equipment},
	"internal/cluster/clustergen":          {Tier: Equipment},
	"internal/shown/showntest":             {Tier: Equipment},
	"test/agree":                           {Tier: Equipment},
	"test/boot":                            {Tier: Equipment},
	"test/ipxe":                            {Tier: Equipment},
	"test/boot/k0sstandin":                 {Tier: Equipment},
	"test/crash":                           {Tier: Equipment},
	"test/examples":                        {Tier: Equipment},
	"test/hostile":                         {Tier: Equipment},
	"test/image":                           {Tier: Equipment},
	"test/lab":                             {Tier: Equipment},
	"test/vm":                              {Tier: Equipment},
	"test/vm/guestd":                       {Tier: Equipment},
	"test/vm/secretd":                      {Tier: Equipment},
	"test/vm/wire":                         {Tier: Equipment},
}

var (
	// The plan is the leaf vocabulary of a run, shared by render, apply,
	// the run's record and status: nothing that only speaks of a run pulls
	// in the schema or its validator.
	planLeaf = map[string]string{
		"github.com/corium/corium-agent/internal/schema": "the plan is a leaf: nothing that only speaks of a run pulls in the schema",
		"github.com/go-playground/validator/v10":         "the plan is a leaf: nothing that only speaks of a run pulls in the validator",
	}
	// The resolver fetches url: secrets over https, and that is the one
	// driver it links.
	resolverDrivers = withoutKeys(driverReasons, "net/http", "crypto/tls")
	// Any test may import fixture, so it brings no driver into a test
	// binary that promises none.
	fixtureDrivers = driverReasons
)

func merge(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func withoutKeys(m map[string]string, drop ...string) map[string]string {
	out := maps.Clone(m)
	for _, k := range drop {
		delete(out, k)
	}
	return out
}
