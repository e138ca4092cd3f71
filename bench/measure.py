#!/usr/bin/python3
"""Runs validators on the same configurations, alternately, and prints a table.

Wall time is taken here around each run (perf_counter, the tools' stdout and
stderr discarded). Peak RSS comes from separate runs under GNU time (%M): a
child forked from this Python process would inherit Python's own high-water
mark, so RSS is never read from wait4 here.

usage: measure.py RUNS SIZES TOOL=CMD... (CMD uses {size}; SIZES is "10,200")
"""
import statistics
import subprocess
import sys
import tempfile
import time

RSS_RUNS = 5


def run_timed(argv):
    start = time.perf_counter_ns()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if proc.returncode != 0:
        sys.exit("%s exited %d: %s" % (" ".join(argv), proc.returncode,
                                        proc.stderr.decode(errors="replace")[:500]))
    return elapsed


def peak_rss_kb(argv):
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return int(out.read().split()[-1])


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    runs = int(sys.argv[1])
    sizes = [int(s) for s in sys.argv[2].split(",")]
    tools = [a.split("=", 1) for a in sys.argv[3:]]
    names = [t[0] for t in tools]
    results = {}
    for size in sizes:
        argvs = {name: cmd.format(size=size).split() for name, cmd in tools}
        for argv in argvs.values():  # warm the page cache, check it passes
            run_timed(argv)
        times = {name: [] for name in names}
        for _ in range(runs):  # alternate, so drift hits every tool alike
            for name in names:
                times[name].append(run_timed(argvs[name]))
        for name in names:
            rss = max(peak_rss_kb(argvs[name]) for _ in range(RSS_RUNS))
            results[(size, name)] = (statistics.median(times[name]), rss)

    print("%-8s %-12s %12s %12s" % ("peers", "tool", "median ms", "max RSS MB"))
    for size in sizes:
        for name in names:
            ms, rss = results[(size, name)]
            print("%-8d %-12s %12.2f %12.1f" % (size, name, ms, rss / 1024))
    base = names[0]
    print()
    print("%-8s %-24s %12s %12s %14s" % ("peers", "ratio", "time", "RSS", "times faster"))
    for size in sizes:
        ms0, rss0 = results[(size, base)]
        for name in names[1:]:
            ms, rss = results[(size, name)]
            print("%-8d %-24s %11.3fx %11.3fx %13.1fx" % (
                size, base + "/" + name, ms0 / ms, rss0 / rss, ms / ms0))
    print()
    for name in names[1:]:  # the ratio the targets are stated in, one line a peer
        print("%s/%s median wall time: %s" % (base, name, ", ".join(
            "%.2fx at %d peers" % (results[(size, base)][0] / results[(size, name)][0], size)
            for size in sizes)))
    print("\n(%d alternating runs per tool and size; RSS is the max of %d runs under GNU time)"
          % (runs, RSS_RUNS))


if __name__ == "__main__":
    main()
