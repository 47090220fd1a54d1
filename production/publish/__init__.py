"""Publishing a bundle (or a course) to a video site: `render.py publish`."""
