"""The pipeline for any chapter, which it is given as a value (it never imports scenes/):
plan and run (run.py, pipeline.py), workers and Dask, the cache, narration and voices,
the soundtrack and captions, and the outputs (outputs/)."""

# numpy's BLAS on one thread, in every process that runs the pipeline (the command, its
# workers, a cluster's workers: each imports this package before core computes). Left
# to choose, it takes a thread per core, and a matrix product summed in other pieces
# ends in other last bits: the attention chapter's ledger (in manifest.json, and in the
# scenes' keys) differed between one thread and two. One thread is also faster for
# core's small matrices, most of all on a busy machine. (espeak-ng's child process runs
# a Python without site-packages that computes nothing: it has no numpy to limit.)
try:
    import numpy  # noqa: F401  (loaded first: the limit applies to the BLAS it loaded)
    from threadpoolctl import threadpool_limits
except ImportError:
    pass
else:
    threadpool_limits(limits=1, user_api="blas")
