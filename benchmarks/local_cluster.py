"""The local Dask cluster the distributed benchmarks run on: two worker
processes of one thread each on the loopback address, as labenv's tests
use (tests/python/labenv_testing.py)."""

import contextlib


@contextlib.contextmanager
def two_workers():
    """A client of the cluster; both close when the block ends, also on an
    error."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        with distributed.Client(cluster, direct_to_workers=True) as client:
            yield client
