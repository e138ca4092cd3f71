#!/usr/bin/python3
"""Writes equivalent node configurations for the peer benchmark.

One overlay interface (wg0) with N peers and the k0s ordering on it, said
three ways: a corium config, a #cloud-config using cloud-init's wireguard
module and write_files, and an Ignition v3 config with the same file and
units. Keys are random but well formed, so every validator sees the same
amount of real work. Deterministic for a given N (seeded), so runs compare.

With "fleet", the same three ways for each of NODES nodes of one cluster,
each stating its own publicKey and reading its private key from a file, so
the corium documents are also one cluster for validate --cluster (a
worker's key is random: no validator derives it). The nodes' addresses are
on the overlay, so every two of them must reach each other through it: the
first PEERS nodes are hubs, each peered with every node, and every other
node peers with the hubs, each hub's entry holding a share of the others'
addresses, which the hub hands on (one hop). A ring of nearest neighbours
would not do: validate --cluster finds the nodes past the neighbours
unreached.

With "again", a corium config of N peers (corium-N.yaml) and the same node
on an again run (corium-N-again.yaml): every 50th peer's endpoint on another
port and 10 peers more, what plan --again diffs.

With "cluster", the fleet's corium documents only, for validate --cluster's
memory and time (HUBS at least NODES: a full mesh).

usage: gen.py OUTDIR N [N...]
       gen.py fleet OUTDIR NODES PEERS
       gen.py cluster OUTDIR NODES HUBS
       gen.py again OUTDIR N
"""
import base64
import ipaddress
import json
import os
import random
import sys
import urllib.parse

UNIT = "k0scontroller.service"


def dropin(unit):
    return "/etc/systemd/system/%s.d/10-corium-wireguard.conf" % unit


def key(rng):
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(32))).decode()


def peers(rng, n):
    for i in range(n):
        yield {
            "publicKey": key(rng),
            "endpoint": "198.51.100.%d:%d" % (i % 250 + 1, 51820 + i // 250),
            "allowedIPs": ["10.10.%d.%d/32" % (i // 250, i % 250 + 2)],
            "persistentKeepalive": 25,
        }


def wg_quick(private, ps, address="10.10.255.1/16"):
    lines = ["[Interface]", "Address = " + address, "ListenPort = 51820",
             "PrivateKey = " + private]
    for p in ps:
        lines += ["", "[Peer]", "PublicKey = " + p["publicKey"],
                  "Endpoint = " + p["endpoint"],
                  "AllowedIPs = " + ", ".join(p["allowedIPs"]),
                  "PersistentKeepalive = %d" % p["persistentKeepalive"]]
    return "\n".join(lines) + "\n"


DROPIN_TEXT = ("[Unit]\nAfter=wg-quick@wg0.service\n"
               "Requires=wg-quick@wg0.service\n")


def corium(private, ps):
    out = ["role: controller+worker", "node:", "  name: bench-node",
           "wireguard:", "  - name: wg0", "    address: 10.10.255.1/16",
           "    listenPort: 51820", "    nodeAddress: true",
           "    privateKey: " + private, "    peers:"]
    for p in ps:
        out += ["      - publicKey: " + p["publicKey"],
                "        endpoint: " + p["endpoint"],
                "        allowedIPs: [%s]" % ", ".join(p["allowedIPs"]),
                "        persistentKeepalive: %d" % p["persistentKeepalive"]]
    return "\n".join(out) + "\n"


def block(text, indent):
    pad = " " * indent
    return "\n".join(pad + line if line else "" for line in text.splitlines())


def cloud_config(private, ps, host="bench-node", address="10.10.255.1/16", unit=UNIT):
    return ("#cloud-config\n"
            "hostname: " + host + "\n"
            "wireguard:\n"
            "  interfaces:\n"
            "    - name: wg0\n"
            "      config_path: /etc/wireguard/wg0.conf\n"
            "      content: |\n" + block(wg_quick(private, ps, address), 8) + "\n"
            "write_files:\n"
            "  - path: " + dropin(unit) + "\n"
            "    permissions: '0644'\n"
            "    content: |\n" + block(DROPIN_TEXT, 6) + "\n")


def ignition(private, ps, host="bench-node", address="10.10.255.1/16", unit=UNIT):
    data = "data:," + urllib.parse.quote(wg_quick(private, ps, address), safe="")
    cfg = {
        "ignition": {"version": "3.3.0"},
        "storage": {
            "files": [
                {"path": "/etc/hostname", "mode": 0o644,
                 "contents": {"source": "data:," + host + "%0A"}},
                {"path": "/etc/wireguard/wg0.conf", "mode": 0o600,
                 "contents": {"source": data}},
            ]
        },
        "systemd": {
            "units": [
                {"name": "wg-quick@wg0.service", "enabled": True},
                {"name": unit, "dropins": [
                    {"name": os.path.basename(dropin(unit)), "contents": DROPIN_TEXT}]},
            ]
        },
    }
    return json.dumps(cfg, indent=2) + "\n"


def fleet(outdir, nodes, npeers, formats=("corium.yaml", "ignition.json", "cloud-config.yaml")):
    """Writes node-NNN.{corium.yaml,ignition.json,cloud-config.yaml}, or
    the formats named. With PEERS at least NODES every node is a hub: a
    full mesh."""
    rng = random.Random(nodes * 1000 + npeers)
    privates = [key(rng) for _ in range(nodes)]
    publics = [key(rng) for _ in range(nodes)]
    hubs = min(npeers, nodes)
    if nodes - hubs > 254 * hubs or (hubs > 254 and nodes > hubs):
        sys.exit("fleet: %d nodes do not fit %d hubs' blocks of 254" % (nodes, hubs))
    # Hubs at 10.20.255.x (a full mesh past 254 nodes on to 10.20.254.x
    # and down); the other nodes in one /24 block per hub, whose hub they
    # reach them through.
    block = lambda i: (i - hubs) % hubs
    addr = lambda i: ("10.20.%d.%d" % (255 - i // 254, i % 254 + 1) if i < hubs
                      else "10.20.%d.%d" % (block(i), (i - hubs) // hubs + 1))
    underlay = lambda i: "198.18.%d.%d" % (i // 250, i % 250 + 1)

    def held(i, h):
        """What node i's entry for hub h holds: the hub, and h's block
        (without i itself when it is i's own block)."""
        own = [addr(h) + "/32"]
        if i < hubs:
            return own
        net = ipaddress.ip_network("10.20.%d.0/24" % h)
        if block(i) != h:
            return own + [str(net)]
        rest = net.address_exclude(ipaddress.ip_network(addr(i) + "/32"))
        return own + [str(n) for n in sorted(rest)]

    for i in range(nodes):
        peers_of = [j for j in range(nodes) if j != i] if i < hubs else range(hubs)
        ps = [{"publicKey": publics[j], "endpoint": underlay(j) + ":51820",
               "allowedIPs": [addr(j) + "/32"] if i < hubs else held(i, j),
               "persistentKeepalive": 25} for j in peers_of]
        role = "controller+worker" if i == 0 else "controller" if i < 3 else "worker"
        unit = "k0sworker.service" if role == "worker" else UNIT
        host = "node-%03d" % i
        out = ["role: " + role, "cluster:", "  name: fleet"]
        if i > 0:
            out += ["join:", "  tokenFrom: {file: /etc/corium/join-token}"]
        out += ["node:", "  name: " + host, "wireguard:", "  - name: wg0",
                "    address: %s/16" % addr(i), "    listenPort: 51820",
                "    nodeAddress: true",
                "    privateKeyFrom: {file: /etc/corium/wg0.key}",
                "    publicKey: " + publics[i], "    peers:"]
        for p in ps:
            out += ["      - publicKey: " + p["publicKey"],
                    "        endpoint: " + p["endpoint"],
                    "        allowedIPs: [%s]" % ", ".join(p["allowedIPs"]),
                    "        persistentKeepalive: %d" % p["persistentKeepalive"]]
        texts = (("corium.yaml", lambda: "\n".join(out) + "\n"),
                 ("ignition.json", lambda: ignition(privates[i], ps, host, addr(i) + "/16", unit)),
                 ("cloud-config.yaml", lambda: cloud_config(privates[i], ps, host, addr(i) + "/16", unit)))
        for ext, text in texts:
            if ext in formats:
                with open(os.path.join(outdir, "%s.%s" % (host, ext)), "w") as f:
                    f.write(text())


def again(outdir, n):
    """Writes corium-N.yaml and corium-N-again.yaml."""
    rng = random.Random(n)
    private = key(rng)
    ps = list(peers(rng, n + 10))
    def move(p):
        host, port = p["endpoint"].rsplit(":", 1)
        return dict(p, endpoint="%s:%d" % (host, int(port) + 10000))
    moved = [move(p) if i % 50 == 0 else p for i, p in enumerate(ps)]
    for name, text in (("corium-%d" % n, corium(private, ps[:n])),
                       ("corium-%d-again" % n, corium(private, moved))):
        with open(os.path.join(outdir, name + ".yaml"), "w") as f:
            f.write(text)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "again":
        os.makedirs(sys.argv[2], exist_ok=True)
        again(sys.argv[2], int(sys.argv[3]))
        return
    if len(sys.argv) == 5 and sys.argv[1] == "fleet":
        os.makedirs(sys.argv[2], exist_ok=True)
        fleet(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    if len(sys.argv) == 5 and sys.argv[1] == "cluster":
        os.makedirs(sys.argv[2], exist_ok=True)
        fleet(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), formats=("corium.yaml",))
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for n in map(int, sys.argv[2:]):
        rng = random.Random(n)
        private = key(rng)
        ps = list(peers(rng, n))
        for name, text in (("corium", corium(private, ps)),
                           ("cloud-config", cloud_config(private, ps)),
                           ("ignition", ignition(private, ps))):
            ext = "json" if name == "ignition" else "yaml"
            with open(os.path.join(outdir, "%s-%d.%s" % (name, n, ext)), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
