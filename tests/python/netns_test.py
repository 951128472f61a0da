"""labenv.distributed between two "hosts": network namespaces joined by a
virtual ethernet pair (tests/python/netns.py), a scheduler and a worker in
one, a worker in the other. Every frame from the far worker crosses a
real TCP link. Needs root: elsewhere it is skipped, saying why."""

import json
import os
import subprocess
import sys

import pytest

import netns
from labenv_testing import HERE


def test_two_hosts_step_roll_out_and_lose_a_worker():
    try:
        hosts = netns.Hosts().__enter__()
    except netns.Unavailable as why:
        pytest.skip("no network namespaces here: %s" % why)
    try:
        scheduler = hosts.start_dask()
        learner = hosts.run(0, [sys.executable, os.path.join(HERE, "netns_learner.py"),
                                scheduler, hosts.address(1)],
                            env=hosts.environment(), capture_output=True, text=True,
                            timeout=240)
        assert learner.returncode == 0, learner.stderr[-3000:]
        report = json.loads(learner.stdout.strip().splitlines()[-1])
        print(report)
    finally:
        hosts.__exit__(None, None, None)
    assert report["far_shard"], report
    assert report["steps_equal_local"], report
    assert report["shards_sharing_batches"] == [False, False], report  # every row over TCP
    assert report["fragments_equal_local"] and report["shared"] == [], report
    assert "were lost" in report["lost"] and report["lost_seconds"] < 30, report
    # Nothing left: the namespaces are gone.
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert not any(name in listed for name in hosts.names)
