"""The pipeline for any chapter, which it is given as a value (it never imports scenes/):
plan and run (run.py, pipeline.py), workers and Dask, the cache, narration and voices,
the soundtrack and captions, and the outputs (outputs/)."""
