"""The Dask scheduler a render uses: which one (``--scheduler``, else
$EXPLAINER_SCHEDULER), checked before anything runs (:func:`address`), and the client
connected to it, or to a LocalCluster started here for ``local`` (:func:`connect`).
What the render does on it is in production/cluster.py.

An address names one of Dask's comms, each tried with a real scheduler and workers:
tcp:// (also a bare HOST:PORT) and ws://, and tls:// and wss:// with Dask's own TLS
settings (the CA and this machine's certificate and key). Anything else is one line
naming it and what is taken (a UsageError, exit status 2): ucx:// (UCX is not
installed), inproc:// (a scheduler in this very process), another scheme, no
HOST:PORT, a port out of range, TLS without its settings.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from production.errors import UsageError

#: the environment variable read when --scheduler is not given
ENV = "EXPLAINER_SCHEDULER"

#: the Dask comms a scheduler's address may name (each tried with a real cluster): plain,
#: and over TLS with Dask's TLS settings (:func:`_check_tls`); inproc:// reaches only a
#: scheduler in this process, and ucx:// needs UCX, which the project does not install
PLAIN, SECURE = ("tcp", "ws"), ("tls", "wss")
#: what --scheduler takes, said by every refusal
TAKES = ("give tcp://HOST:PORT (or HOST:PORT), ws://HOST:PORT, tls:// or wss://HOST:PORT "
         "with Dask's TLS settings, or 'local'")
#: HOST:PORT: a name or IPv4 address, or an IPv6 address in brackets
_HOST_PORT = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9_.-]*|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})")
#: Dask's TLS settings as environment variables (distributed.comm.tls in its config)
TLS_SETTINGS = ("DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY")


def address(given: str | None) -> str | None:
    """The scheduler to use: ``--scheduler``, else $EXPLAINER_SCHEDULER, else None (the
    local worker processes). An address this render cannot use (a comm that does not
    work here, no HOST:PORT, TLS without its settings) is a UsageError naming it and
    what is taken, before anything is done."""
    name = "--scheduler" if given is not None else f"${ENV}"
    chosen = given if given is not None else os.environ.get(ENV) or None
    if chosen is None:
        return None
    chosen = chosen.strip()
    if not chosen:
        raise UsageError(f"{name}: empty; {TAKES}")
    if chosen == "local":
        return chosen
    scheme, separator, rest = chosen.partition("://")
    if not separator:
        scheme, rest = "tcp", chosen
    if "@" in rest.split("/")[0]:  # user:password@host: never printed back, never taken
        raise UsageError(f"{name} {scheme}://{rest.split('@', 1)[1]}: a user name or password "
                         f"in a scheduler address is not taken (Dask's TLS settings "
                         f"authenticate); give HOST:PORT alone")
    if scheme not in PLAIN + SECURE:
        raise UsageError(f"{name} {chosen}: {scheme}:// is not a scheduler address this "
                         f"render can use; {TAKES}")
    port = _HOST_PORT.fullmatch(rest)
    if port is None or not 1 <= int(port.group(1)) <= 65535:
        raise UsageError(f"{name} {chosen}: not a scheduler address (no HOST:PORT with a "
                         f"port from 1 to 65535); {TAKES}")
    if scheme in SECURE:
        _check_tls(f"{name} {chosen}", scheme)
    return chosen


def _check_tls(what: str, scheme: str) -> None:
    """A UsageError unless Dask's TLS settings give this process what it needs to reach a
    scheduler over TLS: a CA certificate, its own certificate and key (or a security
    loader that gives them, in Dask's configuration)."""
    import dask
    from distributed.security import Security

    if dask.config.get("distributed.client.security-loader", None):
        return
    try:
        context = Security().get_connection_args("client")["ssl_context"]
    except (OSError, ValueError) as error:  # a file missing or not a certificate
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise UsageError(f"{what}: Dask's TLS settings ({', '.join(TLS_SETTINGS)}) cannot "
                         f"be used: {first[:160]}; {TAKES}") from None
    if context is None:
        raise UsageError(f"{what}: {scheme}:// needs Dask's TLS settings, which are not set "
                         f"({', '.join(TLS_SETTINGS)}); {TAKES}")


#: how long a render tries to reach a scheduler before it says it cannot (seconds)
CONNECT_SECONDS = 10


def connect(where: str, workers: int) -> tuple[Any, Any]:
    """A Dask client for ``where`` (an address, or "local": a LocalCluster of ``workers``
    processes, one thread each, on this machine) and the cluster it started, if any."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--scheduler needs dask and distributed: run `./run video` (or "
                         "pip install -e .) to install the project's packages") from None
    for name in ("distributed", "tornado"):  # its progress is ours to show; errors still say
        logging.getLogger(name).setLevel(logging.ERROR)
    if where == "local":
        import dask

        # A quieter cluster on a machine whose cores draw: Dask's housekeeping (a tick
        # every 20 ms in each of its processes, system and memory monitors) takes time
        # the workers would draw in. Its workers take this configuration from here.
        dask.config.set(QUIET)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=50)
        return Client(cluster), cluster
    try:
        return Client(where, timeout=f"{CONNECT_SECONDS}s"), None
    except (OSError, TimeoutError, ValueError) as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise UsageError(f"--scheduler {where}: cannot reach a Dask scheduler there "
                         f"({first[:160]}); start one with `dask scheduler`, or use "
                         "'local'") from None


#: Dask settings for a LocalCluster (remote workers: the same as environment variables,
#: e.g. DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s, see docs/scaling.md)
QUIET = {"distributed.admin.tick.interval": "1s",
         "distributed.admin.system-monitor.interval": "5s",
         "distributed.worker.memory.monitor-interval": "2s"}
