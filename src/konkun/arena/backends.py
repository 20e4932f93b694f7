"""Where the arena's sets are played: in this process, on every local core, or on Ray.

Every backend takes the same :class:`~konkun.arena.runner.Job` list (plain data) and
yields :class:`~konkun.arena.runner.JobResult` objects as they finish, in any order.

- ``serial``: here, one after another (tests, debugging);
- ``local`` (the default): a pool of *spawned* worker processes, one per core;
- ``ray``: Ray tasks, on a cluster (``address``, or ``RAY_ADDRESS``) or, without one, on a
  private single-node Ray started on this machine (bound to 127.0.0.1) and stopped after;
  needs the optional extra ``konkun[ray]``. (Ray 2.60 no longer has ``local_mode``; the
  tests use the private single-node Ray.)
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from konkun.arena.runner import Job, JobResult, run_job
from konkun.errors import InvalidRuleError

BACKENDS = ("local", "serial", "ray")
"""The backend names the command line accepts."""


def default_workers() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_jobs(jobs: Sequence[Job], backend: str = "local", workers: int | None = None,
             ray_address: str | None = None) -> Iterator[JobResult]:
    """Play ``jobs`` on ``backend``; yield each result as it is done."""
    if backend == "serial":
        return (run_job(job) for job in jobs)
    if backend == "local":
        return _run_local(jobs, workers or default_workers())
    if backend == "ray":
        return _run_ray(jobs, workers, ray_address)
    raise InvalidRuleError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")


def _run_local(jobs: Sequence[Job], workers: int) -> Iterator[JobResult]:
    if workers <= 1 or len(jobs) <= 1:
        yield from (run_job(job) for job in jobs)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        pending: set[Future[JobResult]] = set()
        queue = iter(jobs)
        window = 4 * workers
        for job in queue:
            pending.add(pool.submit(run_job, job))
            if len(pending) >= window:
                break
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    following = next(queue, None)
                    if following is not None:
                        pending.add(pool.submit(run_job, following))
        finally:
            for future in pending:
                future.cancel()


def _run_ray(jobs: Sequence[Job], workers: int | None,
             address: str | None) -> Iterator[JobResult]:
    try:
        import ray
    except ImportError:
        raise InvalidRuleError(
            "backend 'ray' needs Ray: pip install 'konkun[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address or os.environ.get("RAY_ADDRESS"):
            options["address"] = address or os.environ["RAY_ADDRESS"]
        else:  # a private single-node Ray on this machine, bound to the loopback
            options["_node_ip_address"] = "127.0.0.1"
            options["num_cpus"] = workers or default_workers()
        ray.init(**options)
    try:
        remote = ray.remote(run_job)
        refs = [remote.remote(job) for job in jobs]
        while refs:
            done, refs = ray.wait(refs, num_returns=1)
            for ref in done:
                result: JobResult = ray.get(ref)
                yield result
    finally:
        if started_here:
            ray.shutdown()
