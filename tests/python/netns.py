"""Two "hosts" on this machine for labenv.distributed's tests: two network
namespaces joined by a virtual ethernet pair, so that what passes between
them crosses a real TCP link (with its own addresses, not loopback).

    with Hosts() as hosts:                     # needs root (CAP_NET_ADMIN)
        scheduler = hosts.spawn(0, [python, "-m", "distributed.cli.dask_scheduler", ...])
        hosts.address(1)                       # '10.201.7.2'

Hosts() raises Unavailable, saying why, where namespaces cannot be made.
"""

import os
import subprocess
import sys
import time


_INSIDE = "LABENV_NETNS_HOST"  # set in every process started in a host


class Unavailable(RuntimeError):
    """This machine (or this user) cannot make network namespaces."""


def _ip(*args):
    return subprocess.run(["ip"] + list(args), capture_output=True, text=True, timeout=30)


class Hosts:
    """Namespaces labenv-<pid>-0 and -1, at 10.201.<n>.1 and .2/24."""

    def __init__(self):
        tag = os.getpid() % 100000
        self.names = ["labenv-%d-0" % tag, "labenv-%d-1" % tag]
        self._links = ["lv%da" % tag, "lv%db" % tag]
        subnet = 1 + tag % 250
        self._addresses = ["10.201.%d.1" % subnet, "10.201.%d.2" % subnet]
        self._processes = []

    def address(self, host):
        return self._addresses[host]

    def __enter__(self):
        # A process started in a host must never make hosts of its own: a
        # script that a child imports by accident would make them without end.
        if os.environ.get(_INSIDE):
            raise Unavailable("already inside host %s" % os.environ[_INSIDE])
        made = _ip("netns", "add", self.names[0])
        if made.returncode != 0:
            raise Unavailable("ip netns add failed: " + made.stderr.strip())
        try:
            steps = [
                ("netns", "add", self.names[1]),
                ("link", "add", self._links[0], "type", "veth", "peer", "name", self._links[1]),
            ]
            for host in (0, 1):
                name, link = self.names[host], self._links[host]
                steps += [
                    ("link", "set", link, "netns", name),
                    ("-n", name, "addr", "add", self._addresses[host] + "/24", "dev", link),
                    ("-n", name, "link", "set", link, "up"),
                    ("-n", name, "link", "set", "lo", "up"),
                ]
            for step in steps:
                done = _ip(*step)
                if done.returncode != 0:
                    raise Unavailable("ip %s failed: %s" % (" ".join(step), done.stderr.strip()))
        except BaseException:
            self._remove()
            raise
        return self

    def _marked(self, host, kwargs):
        kwargs["env"] = dict(kwargs.get("env") or os.environ, **{_INSIDE: self.names[host]})
        return ["ip", "netns", "exec", self.names[host]]

    def spawn(self, host, command, **kwargs):
        """Starts `command` inside host `host`'s namespace."""
        process = subprocess.Popen(self._marked(host, kwargs) + list(command), **kwargs)
        self._processes.append(process)
        return process

    def run(self, host, command, **kwargs):
        return subprocess.run(self._marked(host, kwargs) + list(command), **kwargs)

    def environment(self):
        """This process's environment, with its import path for the children."""
        return dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))

    def start_dask(self, pin=False):
        """A Dask scheduler in host 0 and a worker in each host (one thread,
        no nanny; with `pin`, host h's worker on core h). The scheduler's
        address."""
        quiet = dict(env=self.environment(), stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
        scheduler = "tcp://%s:8786" % self.address(0)
        self.spawn(0, [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                       self.address(0), "--port", "8786", "--no-dashboard"], **quiet)
        time.sleep(1)
        for host in (0, 1):
            pinned = ["taskset", "-c", str(host)] if pin else []
            self.spawn(host, pinned + [sys.executable, "-m", "distributed.cli.dask_worker",
                                       scheduler, "--host", self.address(host), "--nworkers",
                                       "1", "--nthreads", "1", "--no-dashboard", "--no-nanny"],
                       **quiet)
        return scheduler

    def _remove(self):
        for process in self._processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
        for name in self.names:
            _ip("netns", "delete", name)  # takes its end of the pair with it

    def __exit__(self, *exc_info):
        self._remove()
