"""Network faults on one Linux machine: network namespaces, veth links between them, `tc netem`
delay and loss on a link.

    with Network("bg1a2b") as net:             # names unique per run; everything removed on exit
        p, r = net.namespace("p"), net.namespace("r")
        link = net.link(p, r)                  # a veth pair, each end with a /30 address
        link.impair(50, 5)                     # tc netem delay 50ms loss 5%, both ends' egress
        link.down(); link.up()                 # a partition, then the heal
        net.spawn(p, [...])                    # a process inside namespace p

For the partition tests and `bluegray bench partition` (bench/benchmarks/partition.py). It needs root,
`ip` (iproute2) and `tc`, and a kernel that lets this process make namespaces; `unavailable()` says
why not, so a caller can skip. Nothing is changed on the machine beyond the namespaces and links it
makes (an end in the root namespace is removed with its pair); `close()` removes them all, and is
called on leaving the `with` block, whatever happened inside.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from dataclasses import dataclass

ROOT = None
"""The namespace this process runs in (for `Network.link`)."""


class NetnsError(Exception):
    """An `ip` or `tc` command failed: its command line and what it printed."""


def run(*argv: str, namespace: str | None = None) -> str:
    """Run `argv` (in `namespace`, or here); its output, or NetnsError."""
    full = (["ip", "netns", "exec", namespace] if namespace else []) + list(argv)
    result = subprocess.run(full, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise NetnsError(f"{' '.join(full)}: {(result.stderr or result.stdout).strip()}")
    return result.stdout


def unavailable() -> str | None:
    """Why this machine cannot make network namespaces here (not root, no `ip` or `tc`, the kernel or
    a container refuses), or None when it can: a namespace is made and removed to find out."""
    if os.geteuid() != 0:
        return "not root"
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            return f"no `{tool}` on PATH (iproute2)"
    probe = f"bgprobe{secrets.token_hex(3)}"
    try:
        run("ip", "netns", "add", probe)
    except (NetnsError, OSError, subprocess.TimeoutExpired) as exc:
        return f"`ip netns add` fails: {exc}"
    try:
        run("ip", "link", "set", "lo", "up", namespace=probe)
    except (NetnsError, OSError, subprocess.TimeoutExpired) as exc:
        return f"a new namespace cannot be used: {exc}"
    finally:
        with contextlib.suppress(NetnsError, OSError, subprocess.TimeoutExpired):
            run("ip", "netns", "del", probe)
    return None


@dataclass
class Link:
    """A veth pair between namespaces `a` and `b` (None: the root one), with `a_addr` / `b_addr`."""

    a: str | None
    b: str | None
    a_dev: str
    b_dev: str
    a_addr: str
    b_addr: str

    def _ends(self) -> tuple[tuple[str | None, str], tuple[str | None, str]]:
        return (self.a, self.a_dev), (self.b, self.b_dev)

    def down(self) -> None:
        """Cut the link (both ends down): nothing crosses it, in either direction."""
        for ns, dev in self._ends():
            run("ip", "link", "set", dev, "down", namespace=ns)

    def up(self) -> None:
        """Bring both ends up again (their addresses and routes come back with them)."""
        for ns, dev in self._ends():
            run("ip", "link", "set", dev, "up", namespace=ns)

    def impair(self, delay_ms: int, loss_percent: float) -> str:
        """Delay and drop packets leaving both ends: `tc qdisc ... netem delay Dms loss L%`; on a
        kernel without sch_netem, only the loss, by an nftables rule (`numgen random`) if `nft` is
        installed. Returns what was applied, in words (for the figures)."""
        spec = ["delay", f"{delay_ms}ms", "loss", f"{loss_percent:g}%"]
        try:
            for ns, dev in self._ends():
                run("tc", "qdisc", "replace", "dev", dev, "root", "netem", *spec, namespace=ns)
            return f"tc netem {' '.join(spec)}"
        except NetnsError as exc:
            if "unknown" not in str(exc):
                raise
        why = "this kernel has no sch_netem"
        if not loss_percent:
            return f"none ({why})"
        if shutil.which("nft") is None:
            return f"none ({why}, and no `nft` for the loss)"
        for ns, dev in self._ends():
            run("nft", "add", "table", "inet", "bgfault", namespace=ns)
            hook = "{ type filter hook output priority 0; policy accept; }"
            run("nft", "add", "chain", "inet", "bgfault", "out", hook, namespace=ns)
            drop = ["numgen", "random", "mod", "1000", "<", str(round(loss_percent * 10)), "drop"]
            run("nft", "add", "rule", "inet", "bgfault", "out", "oifname", dev, *drop, namespace=ns)
        return f"loss {loss_percent:g}% by nftables ({why}: no delay)"


class Network:
    """Namespaces and links made for one run, all removed by `close()` (see the module documentation).

    `tag`: a short unique suffix (namespace and device names carry it; a device name has at most 15
    characters). Addresses are /30s of 10.X.Y.0/24, X and Y from the tag, one per link."""

    def __init__(self, tag: str | None = None) -> None:
        self.tag = tag or secrets.token_hex(3)
        if len(self.tag) > 8:
            raise ValueError("the tag names devices of at most 15 characters: 8 characters at most")
        digest = int.from_bytes(self.tag.encode(), "big")
        self._subnet = f"10.{100 + digest % 100}.{digest // 100 % 250}"
        self.namespaces: list[str] = []
        self.links: list[Link] = []
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> Network:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def namespace(self, name: str) -> str:
        """Make namespace `bg<name><tag>` with its loopback up; its name."""
        full = f"bg{name}{self.tag}"
        run("ip", "netns", "add", full)
        self.namespaces.append(full)
        run("ip", "link", "set", "lo", "up", namespace=full)
        return full

    def link(self, a: str | None, b: str | None) -> Link:
        """A veth pair from `a` to `b` (namespaces made here, or ROOT), addressed and up."""
        i = len(self.links)
        if i >= 63:
            raise ValueError("at most 63 links in one Network")
        a_dev, b_dev = f"bv{i}a{self.tag}", f"bv{i}b{self.tag}"
        a_addr, b_addr = f"{self._subnet}.{4 * i + 1}", f"{self._subnet}.{4 * i + 2}"
        run("ip", "link", "add", a_dev, "type", "veth", "peer", "name", b_dev)
        link = Link(a, b, a_dev, b_dev, a_addr, b_addr)
        self.links.append(link)
        try:
            for ns, dev, addr in ((a, a_dev, a_addr), (b, b_dev, b_addr)):
                if ns is not None:
                    run("ip", "link", "set", dev, "netns", ns)
                run("ip", "addr", "add", f"{addr}/30", "dev", dev, namespace=ns)
                run("ip", "link", "set", dev, "up", namespace=ns)
        except NetnsError:
            with contextlib.suppress(NetnsError, OSError, subprocess.TimeoutExpired):
                run("ip", "link", "del", a_dev)  # if it is still here: deleting one end deletes the pair
            raise
        return link

    def spawn(self, namespace: str | None, argv: list[str], **popen) -> subprocess.Popen:
        """Start `argv` inside `namespace` (stopped by `close()` if still running)."""
        full = (["ip", "netns", "exec", namespace] if namespace else []) + argv
        process = subprocess.Popen(full, stdin=subprocess.DEVNULL, start_new_session=True, **popen)
        self.processes.append(process)
        return process

    def close(self) -> None:
        """Kill what `spawn` started, delete every link and namespace made (each step tried even if
        one before failed)."""
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        self.processes.clear()
        for link in self.links:  # a root-namespace end would outlive its namespace's peer otherwise
            for ns, dev in link._ends():
                if ns is None:
                    with contextlib.suppress(NetnsError, OSError, subprocess.TimeoutExpired):
                        run("ip", "link", "del", dev)
        self.links.clear()
        for ns in self.namespaces:
            with contextlib.suppress(NetnsError, OSError, subprocess.TimeoutExpired):
                run("ip", "netns", "del", ns)
        self.namespaces.clear()
