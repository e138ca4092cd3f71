#!/usr/bin/python3
"""Times validating a fleet: one corium-agent call over every node's file
against Ignition's validator run once per file, as a fleet repository's CI
runs it, and cloud-init's schema check on a sample of the cloud-configs.

The rounds alternate (one agent call, then one pass of ignition-validate
over every file), so load on the machine hits both alike; the figure per
tool is the median over the rounds. cloud-init schema takes about a second a
file, so it runs on SAMPLE files and the sum for the fleet is projected from
their median.

usage: fleet.py DIR ROUNDS SAMPLE AGENT IGNITION PYTHON CLOUD_INIT
"""
import glob
import os
import statistics
import subprocess
import sys
import time

TARGET = 0.2  # one agent call may take at most this share of the summed runs


def timed(argv):
    start = time.perf_counter_ns()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if proc.returncode != 0:
        sys.exit("%s exited %d: %s" % (" ".join(argv[:3]), proc.returncode,
                                        proc.stderr.decode(errors="replace")[:500]))
    return elapsed


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__.strip().splitlines()[-1])
    d, rounds, sample, agent, ignition, python, cloud_init = sys.argv[1:]
    rounds, sample = int(rounds), int(sample)
    corium = sorted(glob.glob(os.path.join(d, "*.corium.yaml")))
    ign = sorted(glob.glob(os.path.join(d, "*.ignition.json")))
    cc = sorted(glob.glob(os.path.join(d, "*.cloud-config.yaml")))
    if not corium or len(corium) != len(ign) or len(cc) != len(ign):
        sys.exit("fleet: %d corium, %d ignition, %d cloud-config files in %s" % (len(corium), len(ign), len(cc), d))
    one = [agent, "validate", "--strict"] + corium
    cluster = [agent, "validate", "--strict", "--cluster"] + corium
    timed(one), timed(cluster)  # warm the page cache, and check they pass
    for f in ign:
        timed([ignition, f])
    calls, clusters, passes = [], [], []
    for _ in range(rounds):
        calls.append(timed(one))
        clusters.append(timed(cluster))
        passes.append(sum(timed([ignition, f]) for f in ign))
    step = max(1, len(cc) // sample)
    per_file = [timed([python, cloud_init, "schema", "-c", f]) for f in cc[::step][:sample]]
    n = len(corium)
    agent_ms, cluster_ms, ign_ms = statistics.median(calls), statistics.median(clusters), statistics.median(passes)
    ci_ms = statistics.median(per_file) * n
    print("%-44s %12s %12s" % ("", "wall ms", "per file ms"))
    print("%-44s %12.1f %12.2f" % ("corium-agent validate, one call", agent_ms, agent_ms / n))
    print("%-44s %12.1f %12.2f" % ("corium-agent validate --cluster, one call", cluster_ms, cluster_ms / n))
    print("%-44s %12.1f %12.2f" % ("ignition-validate, one run a file, summed", ign_ms, ign_ms / n))
    print("%-44s %12.1f %12.2f" % ("cloud-init schema, projected from %d" % len(per_file), ci_ms, ci_ms / n))
    ratio = agent_ms / ign_ms
    print()
    print("ratio corium-agent / ignition-validate: %.3f (target at most %.1f: %s)"
          % (ratio, TARGET, "met" if ratio <= TARGET else "NOT met"))
    print("ratio corium-agent / cloud-init schema: %.4f" % (agent_ms / ci_ms))
    print("ratio corium-agent --cluster / ignition-validate: %.3f" % (cluster_ms / ign_ms))
    print("\n(%d files; median of %d alternating rounds; cloud-init on %d files)" % (n, rounds, len(per_file)))


if __name__ == "__main__":
    main()
