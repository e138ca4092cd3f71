#!/usr/bin/env bash
# make bench: corium-agent validate against cloud-init's and Ignition's
# validators on equivalent configurations (10, 200 and 2,000 WireGuard peers),
# a fleet (500 node documents of 10 peers: one validate call against one
# ignition-validate run a file), then binary size and peak RSS of validate
# and apply --root, and plan --again on a root applied with 6,000 peers,
# and validate --cluster's peak RSS and time per peer entry on a full mesh
# and a hub-and-spoke set, failing when the peak is over its bound.
#
# Not part of the test suite: figures depend on the machine. Installs the peer
# tools when missing. BENCH_RUNS (default 31) sets the runs per tool and size.
# BENCH_ONLY runs only the sections it names, comma-separated: validate,
# fleet, binary, apply, again, cluster, boot (BENCH_ONLY=validate is the quick
# comparison with ignition-validate). BENCH_PEERS names the validators
# validate is compared with (default ignition,cloud-init).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${BENCH_RUNS:-31}
APPLY_RUNS=${BENCH_APPLY_RUNS:-11}
AGAIN_RUNS=${BENCH_AGAIN_RUNS:-5}
AGAIN_PEERS=${BENCH_AGAIN_PEERS:-6000}
SIZES=${BENCH_SIZES:-10,200,2000}
FLEET_NODES=${BENCH_FLEET_NODES:-500}
FLEET_PEERS=${BENCH_FLEET_PEERS:-10}
FLEET_ROUNDS=${BENCH_FLEET_ROUNDS:-5}
FLEET_SAMPLE=${BENCH_FLEET_SAMPLE:-10}
CLUSTER_RUNS=${BENCH_CLUSTER_RUNS:-3}
ONLY=${BENCH_ONLY:-}
PEERS=${BENCH_PEERS:-ignition,cloud-init}
PY=/usr/bin/python3 # cloud-init's own interpreter, never a pyenv shim

# section says whether BENCH_ONLY asks for the section named.
section() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }
for s in ${ONLY//,/ }; do
	case $s in
	validate | fleet | binary | apply | again | cluster | boot) ;;
	*) echo "BENCH_ONLY: no section $s (validate, fleet, binary, apply, again, cluster, boot)" >&2; exit 2 ;;
	esac
done
for p in ${PEERS//,/ }; do
	case $p in
	ignition | cloud-init) ;;
	*) echo "BENCH_PEERS: no validator $p (ignition, cloud-init)" >&2; exit 2 ;;
	esac
done

apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "$@" >/dev/null; }
}

# peers says whether a section that runs compares with the peer tools.
peers() { section validate || section fleet; }

missing=()
[ -x /usr/bin/time ] || missing+=(time)
[ -x "$PY" ] || missing+=(python3)
if peers; then
	[ -x /usr/bin/cloud-init ] || missing+=(cloud-init)
	command -v ignition-validate >/dev/null || missing+=(ignition)
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing ${missing[*]}" >&2
	apt_install "${missing[@]}" || true
fi
IGNITION=$(command -v ignition-validate || true)
if [ -z "$IGNITION" ] && peers; then
	# No Debian package here: build Ignition's validator from its Go module.
	echo "building ignition-validate from github.com/coreos/ignition/v2" >&2
	GOBIN=$PWD/bench/.tools CGO_ENABLED=0 go install github.com/coreos/ignition/v2/validate@latest
	IGNITION=$PWD/bench/.tools/validate
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

CGO_ENABLED=0 go build -trimpath -o "$work/corium-agent" ./cmd/corium-agent
AGENT=$work/corium-agent
"$PY" bench/gen.py "$work/configs" ${SIZES//,/ }

echo "== machine: $(nproc) cores, $(uname -r); $(go version | cut -d' ' -f3); load average $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on an idle machine)"
peers && echo "== peers: $("$IGNITION" --version 2>&1 | head -1); cloud-init $("$PY" /usr/bin/cloud-init --version 2>&1 | awk '{print $2}')"

if section validate; then
	echo
	echo "== validate (median wall time, peak RSS)"
	tools=("corium=$AGENT validate $work/configs/corium-{size}.yaml")
	[[ ",$PEERS," == *",ignition,"* ]] && tools+=("ignition=$IGNITION $work/configs/ignition-{size}.json")
	[[ ",$PEERS," == *",cloud-init,"* ]] && tools+=("cloud-init=$PY /usr/bin/cloud-init schema -c $work/configs/cloud-config-{size}.yaml")
	"$PY" bench/measure.py "$RUNS" "$SIZES" "${tools[@]}"
fi

if section fleet; then
	echo
	echo "== a fleet: $FLEET_NODES node documents of $FLEET_PEERS peers each, one validate call against one ignition-validate run a file"
	"$PY" bench/gen.py fleet "$work/fleet" "$FLEET_NODES" "$FLEET_PEERS"
	"$PY" bench/fleet.py "$work/fleet" "$FLEET_ROUNDS" "$FLEET_SAMPLE" "$AGENT" "$IGNITION" "$PY" /usr/bin/cloud-init
fi

if section binary; then
	echo
	echo "== corium-agent binary"
	size=$(stat -c %s "$AGENT")
	echo "size: $size bytes ($((size / 1024 / 1024)) MiB), CGO_ENABLED=0 -trimpath, not stripped"
	/usr/bin/time -f %M -o "$work/rss" "$AGENT" version >/dev/null
	echo "peak RSS of a run that does nothing (corium-agent version): $(awk '{printf "%.1f", $1 / 1024}' "$work/rss") MB"
fi

if section apply; then
	echo
	echo "== apply --root (first boot into an empty root; median of $APPLY_RUNS, peak RSS the max)"
	printf '%-8s %10s %12s\n' peers "wall ms" "max RSS MB"
	for n in ${SIZES//,/ }; do
		: >"$work/apply.tsv"
		for _ in $(seq "$APPLY_RUNS"); do
			root=$(mktemp -d "$work/root.XXXX")
			start=$(date +%s%N)
			/usr/bin/time -f %M -o "$work/rss" "$AGENT" apply --root "$root" --config "$work/configs/corium-$n.yaml" >"$work/apply.out" 2>&1 ||
				{ echo "apply --root failed at $n peers:" >&2; cat "$work/apply.out" >&2; exit 1; }
			end=$(date +%s%N)
			echo "$(((end - start) / 1000)) $(tail -1 "$work/rss")" >>"$work/apply.tsv"
			rm -rf "$root"
		done
		sort -n "$work/apply.tsv" | awk -v n="$n" '{ t[NR] = $1; if ($2 > m) m = $2 }
			END { printf "%-8s %10.2f %12.1f\n", n, t[int((NR + 1) / 2)] / 1000, m / 1024 }'
	done
fi

if section again; then
	echo
	echo "== plan --again on a root applied with $AGAIN_PEERS peers: the same document, then a changed one (every 50th endpoint moved, 10 peers more); median of $AGAIN_RUNS, peak RSS the max"
	"$PY" bench/gen.py again "$work/again" "$AGAIN_PEERS"
	root=$(mktemp -d "$work/root.XXXX")
	"$AGENT" apply --root "$root" --config "$work/again/corium-$AGAIN_PEERS.yaml" >"$work/apply.out" 2>&1 ||
		{ echo "apply --root failed at $AGAIN_PEERS peers:" >&2; cat "$work/apply.out" >&2; exit 1; }
	printf '%-10s %10s %12s %11s\n' document "wall ms" "max RSS MB" "diff lines"
	for doc in same:corium-$AGAIN_PEERS changed:corium-$AGAIN_PEERS-again; do
		: >"$work/again.tsv"
		for _ in $(seq "$AGAIN_RUNS"); do
			start=$(date +%s%N)
			/usr/bin/time -f %M -o "$work/rss" "$AGENT" plan --again --root "$root" --config "$work/again/${doc#*:}.yaml" >"$work/plan.out" 2>&1 ||
				{ echo "plan --again failed on the ${doc%%:*} document:" >&2; tail -20 "$work/plan.out" >&2; exit 1; }
			end=$(date +%s%N)
			echo "$(((end - start) / 1000)) $(tail -1 "$work/rss")" >>"$work/again.tsv"
		done
		changed=$(grep -c '^      [-+] ' "$work/plan.out" || true)
		sort -n "$work/again.tsv" | awk -v d="${doc%%:*}" -v c="$changed" '{ t[NR] = $1; if ($2 > m) m = $2 }
			END { printf "%-10s %10.2f %12.1f %11d\n", d, t[int((NR + 1) / 2)] / 1000, m / 1024, c }'
	done
	rm -rf "$root"
fi

if section cluster; then
	echo
	echo "== validate --cluster: peak RSS (the max), wall and CPU time (user+sys; medians of $CLUSTER_RUNS) over a full mesh and a hub-and-spoke set (gen.py cluster), two sizes each"
	# name nodes hubs bound-MB: a full mesh has every node a hub; the hub
	# sets have 10 hubs peered with every node, the rest with the hubs. The
	# bound is the set's peak RSS target; none is set for the smaller sizes.
	printf '%-10s %12s %10s %10s %12s %14s %14s\n' set "peer entries" "wall ms" "CPU ms" "max RSS MB" "wall us/entry" "CPU us/entry"
	over=0
	for spec in mesh-250:250:250:- mesh-500:500:500:256 hub-500:500:10:- hub-2000:2000:10:128; do
		IFS=: read -r name nodes hubs bound <<<"$spec"
		dir=$work/cluster/$name
		"$PY" bench/gen.py cluster "$dir" "$nodes" "$hubs"
		entries=$(cat "$dir"/*.yaml | grep -c '^      - publicKey: ')
		"$AGENT" validate --strict --cluster "$dir" >"$work/cluster.out" 2>&1 ||
			{ echo "validate --cluster failed on $name:" >&2; tail -20 "$work/cluster.out" >&2; exit 1; }
		: >"$work/cluster.tsv"
		for _ in $(seq "$CLUSTER_RUNS"); do
			start=$(date +%s%N)
			/usr/bin/time -f '%M %U %S' -o "$work/rss" "$AGENT" validate --strict --cluster "$dir" >/dev/null
			end=$(date +%s%N)
			echo "$(((end - start) / 1000)) $(tail -1 "$work/rss")" >>"$work/cluster.tsv"
		done
		cpu=$(awk '{ print ($3 + $4) * 1e6 }' "$work/cluster.tsv" | sort -n | awk '{ c[NR] = $1 } END { print c[int((NR + 1) / 2)] }')
		line=$(sort -n "$work/cluster.tsv" | awk -v n="$name" -v e="$entries" -v b="$bound" -v c="$cpu" '{ t[NR] = $1; if ($2 > m) m = $2 }
			END { w = t[int((NR + 1) / 2)]; mb = m / 1024
				printf "%-10s %12d %10.1f %10.1f %12.1f %14.2f %14.2f", n, e, w / 1000, c / 1000, mb, w / e, c / e
				if (b != "-") printf "  (bound %d MB: %s)", b, mb <= b ? "met" : "NOT met" }')
		echo "$line"
		[[ $line == *"NOT met"* ]] && over=1
		rm -rf "$dir"
	done
	echo "(linear in peer entries: the time per entry stays about the same from a shape's smaller size to its larger; CPU time is the steadier figure on a busy machine)"
	if [ "$over" -ne 0 ]; then
		echo "validate --cluster's peak RSS is over its bound (above)" >&2
		exit 1
	fi
fi

if section boot; then
	echo
	echo "== first boot in a booted node: the agent against the floor (bench/boot-floor.sh), median of 5 boots each"
	if [ "$(id -u)" -ne 0 ]; then
		echo "skipped: booting a node (systemd-nspawn, network namespaces) needs root"
	else
		go test -run '^$' -bench BootFirstBoot -benchtime=5x ./test/boot/ |
			awk '/^BenchmarkBootFirstBoot/ { for (i = 3; i < NF; i += 2) printf "%-22s %s\n", $(i + 1), $i }'
	fi
fi
