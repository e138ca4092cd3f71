package status

// Where the records live, node paths under the root. The directory is 0700:
// the applied configuration names secrets' sources.
const (
	Dir         = "/var/lib/corium"
	AppliedPath = Dir + "/applied.yaml"
	// NodeAddressPath holds the node address the node joined with, so day
	// two can refuse to move it and status can compare it with the live one.
	NodeAddressPath = Dir + "/node-address"
	// DevicesPath holds what each overlay device must look like once up.
	DevicesPath = Dir + "/wireguard.json"
	// MarkerPath is written last: its presence means every other file and
	// action of the first boot is in place.
	MarkerPath = Dir + "/provisioned"
)
