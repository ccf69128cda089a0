#!/usr/bin/python3
"""Small ONNX models for the importer's tests, written with Debian's
python3-onnx (onnx.helper), deterministic (seeded initializers):

    tests/onnx/onnx_models.py OUT_DIR [NAME...]     (no NAME: all of them)

Each model is a function below; tests/onnx/resnet50_onnx.py writes the
ResNet-50 of models/resnet50.pto the same way. The hostile models of
docs/errors.md are tests/onnx/hostile/ (tests/onnx/hostile_models.py)."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F32 = TensorProto.FLOAT
F16 = TensorProto.FLOAT16


def init(rng, name, shape, dtype=np.float32, scale=0.1):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(dtype), name)


def model(nodes, inputs, outputs, initializers, opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    return helper.make_model(g, producer_name="davinci-sim tests", opset_imports=[helper.make_opsetid("", opset)])


def conv_bn_relu():
    """Conv 3x3 (bias, stride 1, pads 1) -> BatchNormalization -> Relu, float16."""
    rng = np.random.default_rng(1)
    inits = [init(rng, "conv.weight", (16, 8, 3, 3), np.float16), init(rng, "conv.bias", (16,), np.float16),
             init(rng, "bn.scale", (16,), np.float16), init(rng, "bn.bias", (16,), np.float16),
             init(rng, "bn.mean", (16,), np.float16),
             numpy_helper.from_array((rng.random(16) + 0.5).astype(np.float16), "bn.var")]
    nodes = [helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], name="conv", pads=[1, 1, 1, 1],
                              strides=[1, 1], kernel_shape=[3, 3]),
             helper.make_node("BatchNormalization", ["c", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["b"],
                              name="bn", epsilon=1e-5),
             helper.make_node("Relu", ["b"], ["y"], name="relu")]
    return model(nodes, [helper.make_tensor_value_info("x", F16, [1, 8, 32, 32])],
                 [helper.make_tensor_value_info("y", F16, [1, 16, 32, 32])], inits)


def gemm():
    """Gemm with transB=1 (PyTorch's Linear), alpha 0.5, beta 2 and a bias, float32."""
    rng = np.random.default_rng(2)
    inits = [init(rng, "fc.weight", (48, 64)), init(rng, "fc.bias", (48,))]
    nodes = [helper.make_node("Gemm", ["a", "fc.weight", "fc.bias"], ["y"], name="fc", transB=1, alpha=0.5, beta=2.0)]
    return model(nodes, [helper.make_tensor_value_info("a", F32, [32, 64])],
                 [helper.make_tensor_value_info("y", F32, [32, 48])], inits)


def mlp():
    """A two-layer perceptron with a dynamic batch: MatMul + Add, Relu, MatMul + Add, Softmax, float16."""
    rng = np.random.default_rng(3)
    inits = [init(rng, "w1", (64, 128), np.float16), init(rng, "b1", (128,), np.float16),
             init(rng, "w2", (128, 32), np.float16), init(rng, "b2", (32,), np.float16)]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h0"], name="fc1"),
             helper.make_node("Add", ["h0", "b1"], ["h1"], name="fc1.bias"),
             helper.make_node("Relu", ["h1"], ["h"], name="act"),
             helper.make_node("MatMul", ["h", "w2"], ["o0"], name="fc2"),
             helper.make_node("Add", ["o0", "b2"], ["o1"], name="fc2.bias"),
             helper.make_node("Softmax", ["o1"], ["probs"], name="softmax", axis=-1)]
    return model(nodes, [helper.make_tensor_value_info("x", F16, ["batch", 64])],
                 [helper.make_tensor_value_info("probs", F16, ["batch", 32])], inits)


def shape_fold():
    """PyTorch's x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat -> Reshape, then a Gemm."""
    rng = np.random.default_rng(4)
    inits = [numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"),
             numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus_one"),
             init(rng, "fc.weight", (10, 256), np.float16)]
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Shape", ["r"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
             helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
             helper.make_node("Constant", [], ["axes0"], name="axes", value=numpy_helper.from_array(
                 np.array([0], dtype=np.int64))),
             helper.make_node("Concat", ["n1", "minus_one"], ["target"], name="concat", axis=0),
             helper.make_node("Reshape", ["r", "target"], ["flat"], name="view"),
             helper.make_node("Gemm", ["flat", "fc.weight"], ["logits"], name="fc", transB=1)]
    return model(nodes, [helper.make_tensor_value_info("x", F16, ["N", 16, 4, 4])],
                 [helper.make_tensor_value_info("logits", F16, ["N", 10])], inits)


MODELS = {f.__name__: f for f in (conv_bn_relu, gemm, mlp, shape_fold)}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name in argv[2:] or sorted(MODELS):
        save(MODELS[name](), os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main(sys.argv)
