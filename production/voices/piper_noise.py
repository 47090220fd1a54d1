"""Piper's noise, seeded: a Piper model's random ops made to read their noise from inputs
(:func:`noise_as_inputs`), which its session (:class:`SeededSession`) fills from a seed
drawn from each run's own inputs, so the same passage is the same speech, byte for byte."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import numpy as np

#: Bumped when the way Piper's noise is drawn changes (it is in the voice's key).
NOISE_VERSION = "1"
#: onnxruntime's threads a run of a Piper model (not the machine's cores: see
#: production.voices.piper._loaded)
PIPER_THREADS = 2
#: what the seeded noise's inputs and outputs in a Piper model are named (a number follows)
_NOISE = "seeded_noise_"
_RANDOM_OPS = {"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike",
               "Multinomial", "Bernoulli"}


def noise_as_inputs(model: Any) -> list[tuple[str, float, float]]:
    """Makes each random op of a Piper model (``RandomNormalLike``: its VITS draws the
    phoneme lengths and the voice's variation from a normal noise, scaled by
    ``noise_w`` and ``noise_scale``) read its noise from an input instead: a 1-D float
    tensor at least as long as the noise, whose first values are taken, in order, and
    shaped like the op's. An output ``NAME_needed`` per op says how many values it took;
    an input that was too short is padded with zeros, and the run must be made again with
    at least that many. Returns each input's name with the op's mean and scale.
    onnxruntime's own random ops cannot be seeded per run (their generator is seeded once,
    when the session is made, from ``onnxruntime.set_seed``'s process-wide seed, and moves
    on with every run), so the same passage was spoken differently each time."""
    from onnx import TensorProto, helper

    graph, noise, nodes = model.graph, [], []
    for node in graph.node:
        if node.op_type != "RandomNormalLike" or node.domain not in ("", "ai.onnx"):
            nodes.append(node)
            continue
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        name, at = f"{_NOISE}{len(noise)}", f"/{_NOISE}{len(noise)}/"
        noise.append((name, float(attributes.get("mean", 0.0)),
                      float(attributes.get("scale", 1.0))))
        dtype = int(attributes.get("dtype", TensorProto.FLOAT))
        shaped = node.output[0] if dtype == TensorProto.FLOAT else at + "shaped"
        graph.input.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                         [name + "_length"]))
        graph.output.append(helper.make_tensor_value_info(name + "_needed",
                                                          TensorProto.INT64, [1]))
        graph.initializer.append(helper.make_tensor(at + "zero", TensorProto.INT64, [1], [0]))
        nodes += [
            helper.make_node("Shape", [node.input[0]], [at + "shape"]),
            helper.make_node("ReduceProd", [at + "shape"], [name + "_needed"], keepdims=1),
            helper.make_node("Shape", [name], [at + "length"]),
            helper.make_node("Sub", [name + "_needed", at + "length"], [at + "short"]),
            helper.make_node("Max", [at + "short", at + "zero"], [at + "missing"]),
            helper.make_node("Concat", [at + "zero", at + "missing"], [at + "pads"], axis=0),
            helper.make_node("Pad", [name, at + "pads"], [at + "padded"]),
            helper.make_node("Slice", [at + "padded", at + "zero", name + "_needed"],
                             [at + "values"]),
            helper.make_node("Reshape", [at + "values", at + "shape"], [shaped]),
        ]
        if shaped != node.output[0]:
            nodes.append(helper.make_node("Cast", [shaped], [node.output[0]], to=dtype))
    del graph.node[:]
    graph.node.extend(nodes)

    def random_ops(graph: Any) -> Iterator[str]:
        for node in graph.node:
            if node.op_type in _RANDOM_OPS:
                yield node.op_type
            for attribute in node.attribute:
                for sub in [attribute.g, *attribute.graphs]:
                    yield from random_ops(sub)

    left = sorted(set(random_ops(graph)))
    if left:
        raise ValueError(f"the model draws noise with {', '.join(left)}, which cannot be "
                         "seeded (only RandomNormalLike can)")
    return noise


class SeededSession:
    """The onnxruntime session of a Piper model whose random ops read their noise from
    inputs (:func:`noise_as_inputs`); its ``run`` (piper calls it once a sentence) fills
    them from numpy generators (PCG64: the same on every machine) seeded by a SHA-256 of
    the run's own inputs: the sentence's phoneme ids, the noise and length scales and
    the speaker. So a sentence spoken with the same voice and settings is the same, byte
    for byte, in any process, whatever was spoken before, from any thread (nothing is
    shared but the session, whose ``run`` onnxruntime lets threads call at once); the
    noise is drawn as before (same distribution and scales), so the voice is as natural.
    Every try at a pace has its own length scale, so its own noise. numpy's and
    onnxruntime's versions are in the voice's key: another may draw or add differently."""

    #: noise values to draw a phoneme id, before a run has said how many it takes (joe
    #: takes 2 for its phoneme lengths and about 420 for its voice at its pace); later twice
    #: the most taken. A longer draw gives the same noise (the first values are the same),
    #: it only takes a little longer; a short one is padded, so the run is made again
    FIRST_DRAW = 2048

    def __init__(self, session: Any, noise: list[tuple[str, float, float]]) -> None:
        self.session, self.noise = session, noise
        self.outputs = [o.name for o in self.get_outputs()]
        self.most = [0.0] * len(noise)  # the most values a phoneme id took, each noise

    def __getattr__(self, name: str) -> Any:  # get_inputs, get_providers, ...
        if name == "session":
            raise AttributeError(name)
        return getattr(self.session, name)

    def get_outputs(self) -> list[Any]:
        return [o for o in self.session.get_outputs() if not o.name.startswith(_NOISE)]

    @staticmethod
    def seed(feed: dict[str, Any]) -> int:
        digest = hashlib.sha256(f"piper noise {NOISE_VERSION}\n".encode())
        for name in sorted(feed):
            value = np.ascontiguousarray(feed[name])
            digest.update(f"{name} {value.dtype.str} {value.shape}\n".encode())
            digest.update(value.tobytes())
        return int.from_bytes(digest.digest(), "little")

    def run(self, output_names: list[str] | None, input_feed: dict[str, Any],
            run_options: Any = None) -> list[Any]:
        if not self.noise:
            return self.session.run(output_names, input_feed, run_options)
        wanted = list(output_names or self.outputs)
        seed, ids = self.seed(input_feed), max(int(np.size(input_feed.get("input", 1))), 1)
        lengths = [int((2 * most or self.FIRST_DRAW) * ids) + 1024 for most in self.most]
        while True:
            feed = dict(input_feed)
            for k, ((name, mean, scale), length) in enumerate(zip(self.noise, lengths)):
                draw = np.random.Generator(np.random.PCG64(
                    np.random.SeedSequence(seed, spawn_key=(k,))))
                values = draw.standard_normal(length, dtype=np.float32)
                if (mean, scale) != (0.0, 1.0):
                    values = (values * np.float32(scale) + np.float32(mean)).astype(np.float32)
                feed[name] = values
            result = self.session.run(
                wanted + [name + "_needed" for name, _, _ in self.noise], feed, run_options)
            needed = [int(np.asarray(n).reshape(-1)[0]) for n in result[len(wanted):]]
            for k, count in enumerate(needed):
                self.most[k] = max(self.most[k], count / ids)
            if all(count <= length for count, length in zip(needed, lengths)):
                return result[:len(wanted)]
            lengths = [max(count, length) for count, length in zip(needed, lengths)]
